import { ApiErrorSchema, IdTextSchema } from '@passada/core/contracts/common';
import {
  DeskTeamListSchema,
  DeskTeamPickedSchema,
  DeskTeamPickupSchema,
  DeskTeamSchema,
} from '@passada/core/contracts/teams';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actor, audited } from '../staff/index.ts';
import { CHECKIN_BY_BODY, CHECKIN_BY_QUERY, eventOrNotFound, eventRouteSchema } from './events.common.ts';

const EventQuery = z.object({ evento: IdTextSchema });

/**
 * The team's kits in one go (docs/decisions/0067, later): the event's teams at the desk, one team's
 * members and which of their kits may go with the team's collector, and the audited handing out.
 */
export const checkinTeamsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { tags, errors } = eventRouteSchema;
  const pickup = app.registrationsAdmin.teamPickup;

  app.get(
    '/checkin/equipes/',
    {
      config: CHECKIN_BY_QUERY,
      schema: {
        tags,
        summary: 'Check-in: as equipes do evento, com quantos membros e quantos kits podem sair com a equipe',
        querystring: EventQuery,
        response: { 200: DeskTeamListSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.query.evento);
      return pickup.list(req.query.evento);
    },
  );

  app.get(
    '/checkin/equipes/:equipe/',
    {
      config: CHECKIN_BY_QUERY,
      schema: {
        tags,
        summary:
          'Check-in: os membros de uma equipe no evento e a situação de cada kit (pronto para sair com a equipe, já retirado, sem autorização do corredor, recusado pelas regras)',
        params: z.object({ equipe: IdTextSchema }),
        querystring: EventQuery,
        response: { 200: DeskTeamSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.query.evento);
      return pickup.view(req.params.equipe, req.query.evento);
    },
  );

  app.post(
    '/checkin/equipes/:equipe/retirada/',
    {
      config: CHECKIN_BY_BODY,
      schema: {
        tags,
        summary:
          'Check-in: entregar de uma vez os kits prontos da equipe a quem retira por ela (nome conferido com documento); o item, quando exigido, vem com cada kit',
        params: z.object({ equipe: IdTextSchema }),
        body: DeskTeamPickupSchema,
        response: { 200: DeskTeamPickedSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.body.evento);
      return audited(
        req,
        (tx) =>
          pickup.handOut(tx, req.params.equipe, req.body.evento, actor(req), {
            collectorName: req.body.retirado_por_nome,
            itemQuantity: req.body.item_quantidade_por_kit ?? null,
          }),
        (done) => ({
          action: 'kits_equipe_retirados',
          // 'equipe' names staff accounts in the log: a runners' team is its own kind of record.
          entity: 'equipe_de_corrida',
          entityId: req.params.equipe,
          after: {
            evento: req.body.evento,
            entregues: done.entregues,
            retirado_por_nome: req.body.retirado_por_nome,
            inscricoes: done.equipe.membros
              .filter((m) => m.retirada?.retirado_por_nome === req.body.retirado_por_nome)
              .map((m) => m.inscricao),
          },
        }),
      );
    },
  );
};
