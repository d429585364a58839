import {
  CancellationQuoteSchema,
  ChangeCategoryRequestSchema,
  ChangeQuoteQuerySchema,
  ChangeQuoteSchema,
  ChangeSizeRequestSchema,
  ChangeSizeResponseSchema,
  ParticipantLinkParamSchema,
  ParticipantLinkViewSchema,
  PublicAfterSaleSchema,
  RegistrationChangesRequestSchema,
  RegistrationChangesResultSchema,
  RunnerCancelSchema,
  TransferInviteSchema,
  TransferPriceQuerySchema,
  TransferPriceSchema,
  TransferRequestSchema,
  TransferStatusSchema,
  TransferTokenParamSchema,
} from '@passada/core/contracts/after-sale';
import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import { RuleDifferenceQuoteSchema } from '@passada/core/contracts/price-rules';
import {
  AccountRegistrationsSchema,
  CpfParamSchema,
  LookupQuerySchema,
  PriceQuerySchema,
  PriceResponseSchema,
  RegisterRequestSchema,
  RegistrationLookupSchema,
  RegistrationSchema,
  RegistrationTicketSchema,
} from '@passada/core/contracts/registrations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.ts';

type FastifyRequestLike = Parameters<typeof requireUser>[0];

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
      registrations.quote(
        request.params.id,
        request.query.categorias,
        request.query.data_nascimento,
        request.query.regra,
        request.query.equipe,
      ),
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
    '/api/inscricoes/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary:
          'Inscrições feitas por esta conta (na página do evento ou em um pedido), mais recentes primeiro',
        response: { 200: AccountRegistrationsSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => registrations.ofAccount(await requireUser(request)),
  );

  app.get(
    '/api/inscricoes/:id/qr-code/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary: 'O QR code da retirada do kit de uma inscrição desta conta (a lista não o desenha)',
        params: IdParamSchema,
        response: {
          200: RegistrationTicketSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request) => registrations.ticketOf(await requireUser(request), request.params.id),
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
      return registrations.runner.cancelByRunner(user, request.params.id, request.body.valor_devolvido);
    },
  );

  // Transfer to another runner (docs/decisions/0041): the holder asks, the new runner completes it.
  const errors = {
    400: ApiErrorSchema,
    401: ApiErrorSchema,
    403: ApiErrorSchema,
    404: ApiErrorSchema,
    409: ApiErrorSchema,
  };
  app.get(
    '/api/inscricoes/:id/transferencia/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary: 'Se a inscrição pode ser transferida agora, a taxa e a transferência pendente',
        params: IdParamSchema,
        response: { 200: TransferStatusSchema, ...errors },
      },
    },
    async (request) =>
      registrations.transfer.status({ by: 'comprador', user: await requireUser(request) }, request.params.id),
  );

  app.post(
    '/api/inscricoes/:id/transferir/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary:
          'Transferir a inscrição: nome, CPF e e-mail da nova pessoa, que recebe um link para concluir (regras do evento)',
        params: IdParamSchema,
        body: TransferRequestSchema,
        response: { 201: TransferStatusSchema, ...errors },
      },
    },
    async (request, reply) => {
      const holder = { by: 'comprador' as const, user: await requireUser(request) };
      return reply
        .status(201)
        .send(await registrations.transfer.request(holder, request.params.id, request.body));
    },
  );

  app.post(
    '/api/inscricoes/:id/transferencia/cancelar/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary: 'Cancelar a transferência pendente da inscrição',
        params: IdParamSchema,
        response: { 200: TransferStatusSchema, ...errors },
      },
    },
    async (request) =>
      registrations.transfer.cancelPending(
        { by: 'comprador', user: await requireUser(request) },
        request.params.id,
      ),
  );

  app.post(
    '/api/inscricoes/:id/link/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inscrições'],
        summary: 'Enviar ao participante um novo link da inscrição (os anteriores deixam de valer)',
        params: IdParamSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      await registrations.links.resend(user.id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/transferencias/:token/',
    {
      schema: {
        tags: ['inscrições'],
        summary: 'A transferência que a nova pessoa recebeu por e-mail (link com token)',
        params: TransferTokenParamSchema,
        response: { 200: TransferInviteSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => registrations.transfer.invite(request.params.token),
  );

  app.get(
    '/api/transferencias/:token/preco/',
    {
      schema: {
        tags: ['inscrições'],
        summary: 'Taxa de transferência e diferença da meia-entrada 60+ para esta data de nascimento',
        params: TransferTokenParamSchema,
        querystring: TransferPriceQuerySchema,
        response: { 200: TransferPriceSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => registrations.transfer.price(request.params.token, request.query.data_nascimento),
  );

  // The participant's signed link: that one registration, without the buyer's account.
  app.get(
    '/api/inscricoes/link/:token/',
    {
      schema: {
        tags: ['inscrições'],
        summary: 'A inscrição aberta pelo link enviado ao participante, e o que ele pode fazer',
        params: ParticipantLinkParamSchema,
        response: { 200: ParticipantLinkViewSchema, ...errors },
      },
    },
    async (request) => registrations.linkView(request.params.token),
  );

  app.post(
    '/api/inscricoes/link/:token/cancelar/',
    {
      schema: {
        tags: ['inscrições'],
        summary: 'Cancelar pelo link do participante, com o valor mostrado (409 se mudou)',
        params: ParticipantLinkParamSchema,
        body: RunnerCancelSchema,
        response: { 200: CancellationQuoteSchema, ...errors },
      },
    },
    async (request) => {
      const holder = await registrations.links.holderOf(request.params.token);
      return registrations.runner.cancelByRunner(holder, holder.registrationId, request.body.valor_devolvido);
    },
  );

  app.post(
    '/api/inscricoes/link/:token/transferir/',
    {
      schema: {
        tags: ['inscrições'],
        summary: 'Transferir pelo link do participante',
        params: ParticipantLinkParamSchema,
        body: TransferRequestSchema,
        response: { 201: TransferStatusSchema, ...errors },
      },
    },
    async (request, reply) => {
      const holder = await registrations.links.holderOf(request.params.token);
      return reply
        .status(201)
        .send(await registrations.transfer.request(holder, holder.registrationId, request.body));
    },
  );

  app.post(
    '/api/inscricoes/link/:token/transferencia/cancelar/',
    {
      schema: {
        tags: ['inscrições'],
        summary: 'Cancelar a transferência pendente pelo link do participante',
        params: ParticipantLinkParamSchema,
        response: { 200: TransferStatusSchema, ...errors },
      },
    },
    async (request) => {
      const holder = await registrations.links.holderOf(request.params.token);
      return registrations.transfer.cancelPending(holder, holder.registrationId);
    },
  );

  // Changes of distance and of shirt size (docs/decisions/0041), by the account or through the link.
  type Who = { kind: 'user' } | { kind: 'link' };
  const changeRoutes = (
    prefix: string,
    params: typeof IdParamSchema | typeof ParticipantLinkParamSchema,
    who: Who,
  ) => {
    const holderOf = async (request: { params: unknown; headers: unknown }, r: FastifyRequestLike) =>
      who.kind === 'user'
        ? {
            holder: { by: 'comprador' as const, user: await requireUser(r) },
            id: (request.params as { id: number }).id,
          }
        : await registrations.links
            .holderOf((request.params as { token: string }).token)
            .then((holder) => ({ holder, id: holder.registrationId }));
    const config = who.kind === 'user' ? { auth: 'user' as const } : undefined;
    app.get(
      `${prefix}/diferenca-preco/`,
      {
        ...(config ? { config } : {}),
        schema: {
          tags: ['inscrições'],
          summary: 'Depois de um comprovante recusado: quanto custa manter a inscrição pelo preço do lote',
          params,
          response: { 200: RuleDifferenceQuoteSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request, request);
        return registrations.ruleDifference.quote(holder, id);
      },
    );
    app.get(
      `${prefix}/troca-distancia/`,
      {
        ...(config ? { config } : {}),
        schema: {
          tags: ['inscrições'],
          summary: 'Quanto a troca de distância custa ou devolve agora, pelas regras do evento',
          params,
          querystring: ChangeQuoteQuerySchema,
          response: { 200: ChangeQuoteSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request, request);
        return registrations.change.quoteCategory(holder, id, request.query.de, request.query.para);
      },
    );
    app.post(
      `${prefix}/trocar-distancia/`,
      {
        ...(config ? { config } : {}),
        schema: {
          tags: ['inscrições'],
          summary:
            'Trocar de distância sem valor a pagar (com diferença devolvida conforme as regras); com valor a pagar, pela cobrança',
          params,
          body: ChangeCategoryRequestSchema,
          response: { 200: ChangeQuoteSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request, request);
        return registrations.change.changeCategory(holder, id, request.body);
      },
    );
    app.post(
      `${prefix}/alteracoes/`,
      {
        ...(config ? { config } : {}),
        schema: {
          tags: ['inscrições'],
          summary:
            'Várias alterações (distância, camisa) conferidas juntas e gravadas de uma vez, com uma só devolução; com valor a pagar, pela cobrança (alteracoes)',
          params,
          body: RegistrationChangesRequestSchema,
          response: { 200: RegistrationChangesResultSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request, request);
        return registrations.changeList.apply(holder, id, request.body.operacoes, request.body);
      },
    );
    app.post(
      `${prefix}/alteracoes/cotacao/`,
      {
        ...(config ? { config } : {}),
        schema: {
          tags: ['inscrições'],
          summary: 'Quanto uma lista de alterações custa ou devolve agora, pelas regras do evento',
          params,
          body: RegistrationChangesRequestSchema,
          response: { 200: ChangeQuoteSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request, request);
        return registrations.changeList.quote(holder, id, request.body.operacoes);
      },
    );
    app.post(
      `${prefix}/trocar-tamanho/`,
      {
        ...(config ? { config } : {}),
        schema: {
          tags: ['inscrições'],
          summary: 'Trocar o tamanho da camisa do kit, enquanto houver camisas do tamanho escolhido',
          params,
          body: ChangeSizeRequestSchema,
          response: { 200: ChangeSizeResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { holder, id } = await holderOf(request, request);
        return registrations.change.changeSize(holder, id, request.body.tamanho_camisa);
      },
    );
  };
  changeRoutes('/api/inscricoes/:id', IdParamSchema, { kind: 'user' });
  changeRoutes('/api/inscricoes/link/:token', ParticipantLinkParamSchema, { kind: 'link' });
};
