import {
  CancellationQuoteSchema,
  PublicAfterSaleSchema,
  RunnerCancelSchema,
} from '@passada/core/contracts/after-sale';
import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  CpfParamSchema,
  LookupQuerySchema,
  PriceQuerySchema,
  PriceResponseSchema,
  RegisterRequestSchema,
  RegistrationLookupSchema,
  RegistrationSchema,
} from '@passada/core/contracts/registrations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth.ts';
import type { RegistrationsService } from './registrations.service.ts';

/** Event registrations (docs/product.md §7): paid through a 'registration' charge, then looked up by CPF. */
export const registrationsRoutes: FastifyPluginAsyncZod<{ registrations: RegistrationsService }> = async (
  app,
  { registrations },
) => {
  app.get(
    '/api/events/:id/preco/',
    {
      schema: {
        tags: ['eventos'],
        summary: 'Preço das categorias escolhidas para este participante (meia-entrada 60+ no dia do evento)',
        params: IdParamSchema,
        querystring: PriceQuerySchema,
        response: { 200: PriceResponseSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) =>
      registrations.quote(request.params.id, request.query.categorias, request.query.data_nascimento),
  );

  app.post(
    '/api/participantes/cadastrar/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary: 'A inscrição criada pelo pagamento confirmado (txid da cobrança)',
        body: RegisterRequestSchema,
        response: {
          201: RegistrationSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const registration = await registrations.registrationForCharge(user, request.body);
      return reply.status(201).send(registration);
    },
  );

  app.get(
    '/api/participantes/cpf/:cpf/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary: 'Inscrição feita por esta conta para o CPF (opcionalmente de um evento)',
        params: CpfParamSchema,
        querystring: LookupQuerySchema,
        response: { 200: RegistrationLookupSchema, 401: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return registrations.lookup(user, request.params.cpf, request.query.evento);
    },
  );

  app.get(
    '/api/events/:id/pos-venda/',
    {
      schema: {
        tags: ['eventos'],
        summary: 'Regras de cancelamento, transferência, trocas e lista de espera do evento, em português',
        params: IdParamSchema,
        response: { 200: PublicAfterSaleSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => registrations.runner.rulesText(request.params.id),
  );

  app.get(
    '/api/inscricoes/:id/cancelamento/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary: 'Quanto o cancelamento pela própria pessoa devolve agora, pelas regras do evento',
        params: IdParamSchema,
        response: { 200: CancellationQuoteSchema, 401: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => registrations.runner.cancellation(await requireUser(request), request.params.id),
  );

  app.post(
    '/api/inscricoes/:id/cancelar/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary:
          'Cancelar a própria inscrição com o valor mostrado (409 se mudou): devolve pelo meio de pagamento, libera vaga e camisa, invalida o QR',
        params: IdParamSchema,
        body: RunnerCancelSchema,
        response: {
          200: CancellationQuoteSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await registrations.runner.cancelByRunner(user, request.params.id, request.body.valor_devolvido);
      return registrations.runner.cancellation(user, request.params.id);
    },
  );
};
