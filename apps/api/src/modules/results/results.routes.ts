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
import { type AnswerCache, sendCached } from '../../plugins/answer-cache.ts';
import { requireUser } from '../../plugins/auth.ts';
import type { ResultsService } from './results.service.ts';

/**
 * An event's published results and one runner's, for anyone (docs/decisions/0064). Both answers are kept
 * serialized and compressed in `cache` until results, a name they show or the event change.
 */
export const resultsRoutes: FastifyPluginAsyncZod<{ results: ResultsService; cache: AnswerCache }> = async (
  app,
  { results, cache },
) => {
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
    async (request, reply) => {
      const { id } = request.params;
      const q = request.query;
      // The parsed query in a fixed order: the same page asked two ways is one answer.
      const key = `list:${id}:${JSON.stringify([q.busca?.trim() ?? '', q.categoria, q.genero, q.faixa, q.page ?? 1, q.page_size])}`;
      return sendCached(request, reply, await cache.get(key, () => results.list(id, q)));
    },
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
    async (request, reply) => {
      const { id, numero } = request.params;
      return sendCached(
        request,
        reply,
        await cache.get(`runner:${id}:${numero}`, () => results.runner(id, numero)),
      );
    },
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
