import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import type { ParticipantQuery } from '@passada/core/contracts/painel';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../plugins/errors.ts';
import type { ParticipantRow } from '../registrations/registrations-admin.ts';
import type { PainelRouteConfig } from '../staff/index.ts';

/** What the events' route files share: who may call them, their OpenAPI tag and errors, and two reads. */

export const EventIdSchema = IdParamSchema;

/** The Zod-typed instance a route plugin receives, for the named steps that register its routes. */
export type PainelApp = Parameters<FastifyPluginAsyncZod>[0];

type Declared = { painel: PainelRouteConfig };
/** Create and edit events, and export their participants (docs/product.md §6). */
export const EVENTS = { painel: { permission: 'eventos' } } satisfies Declared;
/** Events and their registrations are read by who runs events and by who handles orders (sales). */
export const EVENT_READ = { painel: { permission: ['eventos', 'pedidos'] } } satisfies Declared;
/** The kit desk names its event: a volunteer passes only for the events assigned to them. */
export const CHECKIN_BY_QUERY = {
  painel: { permission: 'checkin', event: (req) => (req.query as { evento: number }).evento },
} satisfies Declared;
export const CHECKIN_BY_BODY = {
  painel: { permission: 'checkin', event: (req) => (req.body as { evento: number }).evento },
} satisfies Declared;

/** The OpenAPI tag and the errors every route of the events' pages answers. */
export const eventRouteSchema = {
  tags: ['painel: eventos'],
  errors: { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema },
};

/** An event's participants (or every event's, with `eventId` null) filtered as the query asks, each with its check-in. */
export async function participantsOf(app: FastifyInstance, eventId: number | null, query: ParticipantQuery) {
  const rows = await app.registrationsAdmin.participants(eventId, {
    categoryId: query.categoria,
    day: query.dia,
    search: query.busca,
  });
  const checkins = new Map(
    (await app.registrationsAdmin.checkins(rows.map((r) => r.id))).map((c) => [c.registrationId, c]),
  );
  const cancelled = (r: ParticipantRow) => r.cancelledAt !== null;
  return rows
    .filter(
      (r) =>
        !query.status ||
        (query.status === 'cancelada'
          ? cancelled(r)
          : query.status === 'retirado'
            ? checkins.has(r.id)
            : !checkins.has(r.id) && !cancelled(r)),
    )
    .map((r) => ({ row: r, checkin: checkins.get(r.id) }));
}

export async function eventOrNotFound(app: FastifyInstance, id: number) {
  const event = await app.events.findEventRow(id);
  if (!event) throw notFound('Evento não encontrado.');
  return event;
}
