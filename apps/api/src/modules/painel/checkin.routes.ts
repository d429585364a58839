import { formatStoreDateTime } from '@passada/core/calendar';
import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  type CheckinPreview,
  CheckinPreviewSchema,
  CheckinRequestSchema,
  CheckinUndoSchema,
  PainelParticipantSchema,
} from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../../plugins/errors.ts';
import { actor, audited } from '../staff/index.ts';
import {
  CHECKIN_BY_BODY,
  CHECKIN_BY_QUERY,
  eventOrNotFound,
  eventRouteSchema,
  type PainelApp,
  participantsOf,
} from './events.common.ts';
import { participantView, participantWire } from './participant-wire.ts';

/** Race-day check-in: search, preview, hand the kit out and undo (docs/decisions/0026). */
export const checkinRoutes: FastifyPluginAsyncZod = async (app) => {
  checkinLookupRoutes(app);
  checkinPickupRoutes(app);
};

/**
 * The registration a check-in request names, checked against the screen's event: by its signed QR
 * code (refused when unsigned, tampered or forged) or by its number after a search. A ticket of
 * another event is refused here (409 `outro_evento`, naming that event): the server decides, not the
 * screen.
 */
async function checkinTarget(
  app: PainelApp,
  body: {
    evento: number;
    codigo?: string | undefined;
    inscricao?: number | undefined;
  },
) {
  const event = await eventOrNotFound(app, body.evento);
  const id = body.codigo
    ? (await app.registrationsAdmin.registrationOfTicket(body.codigo)).registrationId
    : body.inscricao!;
  const [row] = await app.registrationsAdmin.participants(null, { ids: [id] });
  if (!row) throw notFound('Inscrição não encontrada.');
  if (row.eventId !== event.id) {
    const other = await app.events.findEventRow(row.eventId);
    throw new HttpError(
      409,
      `Esta inscrição é do evento "${other?.name ?? `nº ${row.eventId}`}", não de "${event.name}": o kit não é entregue neste check-in.`,
      'outro_evento',
      undefined,
      { evento: { id: row.eventId, nome: other?.name ?? '' } },
    );
  }
  return { event, row };
}

/** Finding the registration at the desk: search, then the preview that changes nothing. */
function checkinLookupRoutes(app: PainelApp) {
  const { tags, errors } = eventRouteSchema;
  const checkinErrors = { ...errors, 409: ApiErrorSchema };

  app.get(
    '/checkin/search/',
    {
      config: CHECKIN_BY_QUERY,
      schema: {
        tags,
        summary:
          'Check-in de um evento: buscar participantes por nome, CPF, número da inscrição ou número de peito',
        querystring: z.object({
          busca: z.string().trim().min(2, 'Digite pelo menos 2 letras.').max(100),
          evento: z.coerce
            .number({ error: 'Abra o check-in de um evento.' })
            .int()
            .positive('Abra o check-in de um evento.'),
        }),
        response: { 200: z.array(PainelParticipantSchema), ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.query.evento);
      return (await participantsOf(app, req.query.evento, { busca: req.query.busca }))
        .slice(0, 30)
        .map((p) => participantWire(p.row, p.checkin, participantView(req)));
    },
  );

  app.post(
    '/checkin/preview/',
    {
      config: CHECKIN_BY_BODY,
      schema: {
        tags,
        summary:
          'Check-in, primeiro passo: quem é (nome, evento, categorias, camisa, se confere documento) e se o kit pode sair; não muda nada',
        body: CheckinRequestSchema,
        response: { 200: CheckinPreviewSchema, ...checkinErrors },
      },
    },
    async (req): Promise<CheckinPreview> => {
      const { event, row } = await checkinTarget(app, req.body);
      const [[checkin], rules, special] = await Promise.all([
        app.registrationsAdmin.checkins([row.id]),
        app.registrationsAdmin.pickupRules(event.id),
        app.registrationsAdmin.proofs.deskView(row.id),
      ]);
      return {
        participante: {
          ...participantWire(row, checkin, participantView(req)),
          // The card shows the authorised person only while the event's rules let this registration.
          retirada_autorizada: app.registrationsAdmin.deskDelegate(row, rules),
        },
        evento: { id: event.id, nome: event.name },
        situacao: row.cancelledAt ? 'cancelada' : checkin ? 'retirado' : 'pode_retirar',
        // The 60+ half price, or a special price whose proof staff have not approved: a document here.
        confira_documento: row.seniorDiscount || special?.documento === 'conferir',
        confira_cpf: app.opening.status(event.id)?.modo === 'sorteio',
        item: rules.item,
        preco_especial: special,
      };
    },
  );
}

/** Handing the kit out, and undoing it with a reason. */
function checkinPickupRoutes(app: PainelApp) {
  const { tags, errors } = eventRouteSchema;
  const checkinErrors = { ...errors, 409: ApiErrorSchema };
  const { cancelledMessage } = app.registrationsAdmin;

  app.post(
    '/checkin/',
    {
      config: CHECKIN_BY_BODY,
      schema: {
        tags,
        summary:
          'Check-in, segundo passo: marcar a retirada do kit (uma vez); a segunda leitura responde 409 "já retirado"',
        body: CheckinRequestSchema,
        response: { 200: PainelParticipantSchema, ...checkinErrors },
      },
    },
    async (req) => {
      const { row } = await checkinTarget(app, req.body);
      const id = row.id;
      if (row.cancelledAt)
        throw new HttpError(409, cancelledMessage(row.cancelledAt), 'inscricao_cancelada', undefined, {
          participante: participantWire(row, undefined, participantView(req)),
        });
      // A cancellation committing meanwhile wins: the kit of a cancelled registration is never handed out.
      const created = await audited(
        req,
        (tx) =>
          app.registrationsAdmin.checkIn(tx, id, actor(req), {
            retirou: req.body.retirou,
            itemQuantity: req.body.item_quantidade ?? null,
          }),
        (inserted) =>
          inserted
            ? {
                action: 'kit_retirado',
                entity: 'inscricao',
                entityId: id,
                // Who collected it by name; the authorised person's CPF stays out of the log.
                after: {
                  retirada: inserted.at,
                  retirado_por: inserted.collectedBy,
                  retirado_por_nome: inserted.collectorName,
                  item_quantidade: inserted.itemQuantity,
                },
              }
            : null,
      );
      if (!created) {
        const [first] = await app.registrationsAdmin.checkins([id]);
        throw new HttpError(
          409,
          `Kit já retirado em ${formatStoreDateTime(first!.at)} (registrado por ${first!.staffName}).`,
          'ja_retirado',
          undefined,
          { participante: participantWire(row, first, participantView(req)) },
        );
      }
      return participantWire(row, created, participantView(req));
    },
  );

  app.post(
    '/checkin/undo/',
    {
      config: CHECKIN_BY_BODY,
      schema: {
        tags,
        summary:
          'Desfazer a retirada de um kit, com motivo obrigatório (auditado); a inscrição pode fazer check-in de novo',
        body: CheckinUndoSchema,
        response: { 200: PainelParticipantSchema, ...checkinErrors },
      },
    },
    async (req) => {
      const { row } = await checkinTarget(app, req.body);
      // Nothing removed writes nothing (no audit line either) and is refused once the transaction is over.
      const { removed, current } = await audited(
        req,
        (tx) => app.registrationsAdmin.undoCheckin(tx, row.id, new Date(req.body.retirada_em)),
        ({ removed }) =>
          removed
            ? {
                action: 'kit_retirada_desfeita',
                entity: 'inscricao',
                entityId: row.id,
                before: { retirada: removed.at, registrado_por: removed.staffName },
                after: { retirada: null, motivo: req.body.motivo },
              }
            : null,
      );
      if (!removed)
        throw current
          ? new HttpError(
              409,
              `A retirada mudou desde que a tela foi aberta: agora consta em ${formatStoreDateTime(current.at)} por ${current.staffName}. Confira antes de desfazer.`,
              'retirada_alterada',
              undefined,
              { participante: participantWire(row, current, participantView(req)) },
            )
          : new HttpError(
              409,
              'O kit desta inscrição não consta como retirado: não há retirada para desfazer.',
              'sem_retirada',
              undefined,
              { participante: participantWire(row, undefined, participantView(req)) },
            );
      return participantWire(row, undefined, participantView(req));
    },
  );
}
