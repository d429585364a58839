import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  DeskSnapshotSchema,
  OfflinePickupBatchSchema,
  OfflinePickupReplySchema,
  type OfflinePickupResult,
} from '@passada/core/contracts/painel-checkin-desk';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../plugins/errors.ts';
import { actor, audited } from '../staff/index.ts';
import { CHECKIN_BY_BODY, CHECKIN_BY_QUERY, eventOrNotFound, eventRouteSchema } from './events.common.ts';

/**
 * The kit desk offline (docs/decisions/0063): the snapshot a desk keeps to decide scans without the
 * network, and the batch of pickups it made meanwhile.
 */
export const checkinOfflineRoutes: FastifyPluginAsyncZod = async (app) => {
  const { tags, errors } = eventRouteSchema;

  app.get(
    '/checkin/offline/',
    {
      config: CHECKIN_BY_QUERY,
      schema: {
        tags,
        summary:
          'Check-in sem rede: as inscrições do evento como a mesa precisa (CPF mascarado, categoria, camisa, peito, retirada, hash do QR code); ETag para atualizar barato',
        querystring: z.object({
          evento: z.coerce
            .number({ error: 'Abra o check-in de um evento.' })
            .int()
            .positive('Abra o check-in de um evento.'),
        }),
        response: { 200: DeskSnapshotSchema, 304: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      const event = await eventOrNotFound(app, req.query.evento);
      const desk = { id: event.id, name: event.name };
      const lottery = app.opening.status(event.id)?.modo === 'sorteio';
      // The version first, from one counter: an unchanged snapshot is never built to say so.
      const versao = await app.registrationsAdmin.deskVersion(desk, lottery);
      const etag = `"${versao}"`;
      // Personal data: kept by the desk's own code (IndexedDB), never by a shared cache.
      reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return app.registrationsAdmin.deskSnapshot(desk, lottery, versao);
    },
  );

  app.post(
    '/checkin/offline/',
    {
      config: CHECKIN_BY_BODY,
      schema: {
        tags,
        summary:
          'Check-in sem rede: enviar as retiradas feitas offline (uma vez cada, mesmo se o lote for reenviado); um kit já retirado volta como conflito, com quem e quando',
        body: OfflinePickupBatchSchema,
        response: { 200: OfflinePickupReplySchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const max = app.env.CHECKIN_OFFLINE_BATCH_MAX;
      if (req.body.retiradas.length > max)
        throw badRequest(`Envie no máximo ${max} retiradas por vez.`, 'lote_grande', {
          retiradas: `Envie no máximo ${max} retiradas por vez.`,
        });
      const event = await eventOrNotFound(app, req.body.evento);
      const by = actor(req);
      const resultados: OfflinePickupResult[] = [];
      // One transaction per scan: a kit refused or in conflict does not hold back the others.
      for (const scan of req.body.retiradas) {
        const { row, repeated } = await audited(
          req,
          (tx) =>
            app.registrationsAdmin.recordOfflinePickup(tx, {
              id: scan.id,
              registrationId: scan.inscricao,
              eventId: event.id,
              desk: req.body.mesa,
              by,
              scannedAt: new Date(scan.lida_em),
              retirou: scan.retirou,
              delegateName: scan.autorizado_nome ?? null,
              itemQuantity: scan.item_quantidade ?? null,
            }),
          ({ row, repeated }) =>
            repeated || row.outcome === 'recusada'
              ? null
              : {
                  action: row.outcome === 'registrada' ? 'kit_retirado' : 'kit_retirada_em_conflito',
                  entity: 'inscricao',
                  entityId: row.registrationId,
                  after: {
                    mesa: row.desk,
                    lida_em: row.scannedAt,
                    offline: true,
                    retirado_por: row.collectedBy,
                    item_quantidade: row.itemQuantity,
                    ...(row.detail as object),
                  },
                },
        );
        const detail = row.detail as { retirada?: OfflinePickupResult['retirada']; mensagem?: string };
        resultados.push({
          id: scan.id,
          inscricao: row.registrationId,
          situacao: row.outcome,
          repetida: repeated,
          retirada: detail.retirada ?? null,
          mensagem: detail.mensagem ?? null,
        });
      }
      return { resultados };
    },
  );
};
