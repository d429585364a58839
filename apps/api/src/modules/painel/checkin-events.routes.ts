import { ApiErrorSchema } from '@passada/core/contracts/common';
import type { EventSummary } from '@passada/core/contracts/events';
import { CheckinEventListSchema } from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actor } from '../staff/index.ts';

/**
 * The events whose check-in the signed-in member may open: every event, or for a check-in volunteer
 * only those assigned to them (docs/decisions/0032); the guard refuses the others on every check-in call.
 */
export const checkinEventsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/checkin/eventos/',
    {
      config: { painel: { permission: 'checkin', scopedList: true } },
      schema: {
        tags: ['painel: eventos'],
        summary: 'Eventos cujo check-in a pessoa pode abrir (o voluntário: só os designados a ele)',
        response: { 200: CheckinEventListSchema, 401: ApiErrorSchema, 403: ApiErrorSchema },
      },
    },
    async (req) => {
      const mine = await app.staff.checkinEventsOf(actor(req));
      const events = (await app.events.listEvents({ page_size: 1000 })) as EventSummary[];
      return events
        .filter((e) => mine === null || mine.includes(e.id))
        .map((e) => ({ id: e.id, nome_evento: e.nome_evento, start_data_evento: e.start_data_evento }));
    },
  );
};
