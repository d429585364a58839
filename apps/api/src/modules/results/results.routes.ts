import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  MyResultsSchema,
  ResultListQuerySchema,
  ResultPageSchema,
  RunnerResultParamsSchema,
  RunnerResultSchema,
} from '@passada/core/contracts/results';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
      schema: {
        tags: ['resultados'],
        summary: 'Os resultados das inscrições feitas pela conta (Minha conta)',
        response: { 200: MyResultsSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => results.ofAccount((await requireUser(request)).id),
  );
};
