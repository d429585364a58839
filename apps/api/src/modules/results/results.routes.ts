import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  CertificateCheckSchema,
  MyResultsSchema,
  NextEditionParamsSchema,
  NextEditionSignupSchema,
  ResultListQuerySchema,
  ResultPageSchema,
  RunnerResultParamsSchema,
  RunnerResultSchema,
} from '@passada/core/contracts/results';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AnswerCache, PRECOMPRESSED } from '../../plugins/answer-cache.ts';
import { requireUser } from '../../plugins/auth.ts';
import { sendKept } from '../../plugins/front-door.ts';
import type { NextEdition } from './next-edition.ts';
import type { ResultsService } from './results.service.ts';

/**
 * An event's published results and one runner's, for anyone (docs/decisions/0064). Both answers are kept
 * serialized and compressed in `cache` until results, a name they show or the event change; both depend
 * on the address alone, so the server's door answers a repeated address (decision 0089).
 */
export const resultsRoutes: FastifyPluginAsyncZod<{
  results: ResultsService;
  cache: AnswerCache;
  nextEdition: NextEdition;
}> = async (app, { results, cache, nextEdition }) => {
  const cacheOf = () => cache;
  app.get(
    '/api/events/:id/resultados/',
    {
      ...PRECOMPRESSED,
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
      return sendKept(request, reply, cacheOf, key, () => results.list(id, q));
    },
  );

  app.get(
    '/api/events/:id/resultados/:numero/',
    {
      ...PRECOMPRESSED,
      schema: {
        tags: ['resultados'],
        summary: 'O resultado de um participante pelo número de peito: tempos, ritmo por km e colocações',
        params: RunnerResultParamsSchema,
        response: { 200: RunnerResultSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const { id, numero } = request.params;
      return sendKept(request, reply, cacheOf, `runner:${id}:${numero}`, () => results.runner(id, numero));
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

  app.post(
    '/api/resultados/meus/:inscricao/proxima-edicao/',
    {
      config: {
        auth: 'user',
        // The lottery's own limit per account: one click is one entry like the form's.
        limit: {
          name: 'proxima-edicao',
          max: app.env.LOTTERY_ENTRY_RATE_LIMIT_PER_ACCOUNT,
          windowSeconds: 3600,
          per: 'account',
        },
      },
      schema: {
        tags: ['resultados'],
        summary:
          'Pré-inscrição em um clique na próxima edição: no sorteio, ou na lista de espera da prova esgotada, com os dados e a distância da prova corrida (só a conta que fez a inscrição)',
        params: NextEditionParamsSchema,
        response: {
          201: NextEditionSignupSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await nextEdition.signUp(request.params.inscricao, await requireUser(request))),
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
