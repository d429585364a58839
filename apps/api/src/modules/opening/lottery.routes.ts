import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  LotteryEntryInputSchema,
  LotteryEntrySchema,
  PublicLotterySchema,
} from '@passada/core/contracts/lottery';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.ts';
import type { LotteryService } from './lottery.service.ts';
import type { OpeningService } from './opening.service.ts';

/** The runner's side of a lottery: what anyone reads to check the draw, signing up and the result. */
export const lotteryRoutes: FastifyPluginAsyncZod<{
  opening: OpeningService;
  lottery: LotteryService;
}> = async (app, { opening, lottery }) => {
  const tags = ['abertura'];

  app.get(
    '/api/events/:id/sorteio/',
    {
      schema: {
        tags,
        summary:
          'O sorteio do evento: janela, vagas, compromisso e, depois do sorteio, a semente, os ids das inscrições e a classificação, para qualquer um refazer o cálculo',
        params: IdParamSchema,
        response: { 200: PublicLotterySchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return lottery.publicView(request.params.id);
    },
  );

  app.post(
    '/api/events/:id/sorteio/',
    {
      config: {
        auth: 'user',
        limit: [
          {
            name: 'sorteio-conta',
            max: app.env.LOTTERY_ENTRY_RATE_LIMIT_PER_ACCOUNT,
            windowSeconds: 3600,
            per: 'account',
          },
          { name: 'sorteio-ip', max: app.env.LOTTERY_ENTRY_RATE_LIMIT_PER_IP, windowSeconds: 3600 },
        ],
      },
      schema: {
        tags,
        summary:
          'Inscreve no sorteio (sem pagamento; cada conta inscreve até as inscrições por comprador da abertura, um CPF uma vez; idade e categoria conferidas como numa inscrição; a confirmação vai ao e-mail da conta)',
        params: IdParamSchema,
        body: LotteryEntryInputSchema,
        response: {
          201: LotteryEntrySchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const isLottery = opening.status(request.params.id)?.modo === 'sorteio';
      const entry = await lottery.enter(request.params.id, user, request.body, isLottery);
      return reply.code(201).send(entry);
    },
  );

  app.get(
    '/api/events/:id/sorteio/minhas/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'As inscrições desta conta no sorteio do evento e o resultado de cada uma',
        params: IdParamSchema,
        response: { 200: z.array(LotteryEntrySchema), 401: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return lottery.mine(request.params.id, (await requireUser(request)).id);
    },
  );
};
