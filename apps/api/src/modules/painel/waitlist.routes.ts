import { IdParamSchema } from '@passada/core/contracts/common';
import { PainelWaitlistSchema } from '@passada/core/contracts/waitlist';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PAINEL_ERRORS } from '../staff/index.ts';

const EventIdSchema = IdParamSchema;

/** An event's waitlists (docs/decisions/0042-waitlist.md): who waits in each category, offers and history. */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/events/:id/lista-espera/',
    {
      config: { painel: { permission: 'eventos' } },
      schema: {
        tags: ['painel: eventos'],
        summary: 'Lista de espera de cada categoria do evento: posições, ofertas e histórico',
        params: EventIdSchema,
        response: { 200: PainelWaitlistSchema, ...PAINEL_ERRORS },
      },
    },
    (req) => app.registrationsAdmin.waitlist.painelList(req.params.id),
  );
};
