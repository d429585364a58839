import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  CertificateCheckSchema,
  MyResultsSchema,
  ResultListQuerySchema,
  ResultPageSchema,
  RunnerResultParamsSchema,
  RunnerResultSchema,
} from '@passada/core/contracts/results';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.ts';
import type { ResultsService } from './results.service.ts';

/** An event's published results and one runner's, for anyone (docs/decisions/0064). */
export const resultsRoutes: FastifyPluginAsyncZod<{ results: ResultsService }> = async (app, { results }) => {
  app.get(
    '/api/events/:id/resultados/',
    {
      schema: {
        tags: ['resultados'],
        summary:
          'Resultados publicados de um evento, por página: busca por nome, número de peito ou equipe; filtros por categoria, gênero e faixa etária',
        params: IdParamSchema,
        querystring: ResultListQuerySchema,
        response: { 200: ResultPageSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => results.list(request.params.id, request.query),
  );

  app.get(
    '/api/events/:id/resultados/:numero/',
    {
      schema: {
        tags: ['resultados'],
        summary: 'O resultado de um participante pelo número de peito: tempos, ritmo por km e colocações',
        params: RunnerResultParamsSchema,
        response: { 200: RunnerResultSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => results.runner(request.params.id, request.params.numero),
  );

  app.get(
    '/api/resultados/meus/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['resultados'],
        summary: 'Os resultados das inscrições feitas pela conta (Minha conta)',
        response: { 200: MyResultsSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => results.ofAccount((await requireUser(request)).id),
  );

  app.get(
    '/api/events/:id/resultados/:numero/certificado.pdf',
    {
      schema: {
        tags: ['resultados'],
        summary: 'O certificado em PDF de quem concluiu a prova, com um QR code que o confere na loja',
        params: RunnerResultParamsSchema,
      },
    },
    async (request, reply) => {
      const pdf = await results.certificate(request.params.id, request.params.numero);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="certificado-${request.params.numero}.pdf"`)
        .send(pdf);
    },
  );

  app.get(
    '/api/resultados/certificados/:codigo/',
    {
      schema: {
        tags: ['resultados'],
        summary:
          'Conferir um certificado pelo código do QR code: o resultado que ele certifica, se ainda é o publicado',
        params: z.object({ codigo: z.string().max(120, 'Código inválido.') }),
        response: {
          200: CertificateCheckSchema,
          400: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request) => results.verify(request.params.codigo),
  );
};
