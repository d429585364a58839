import { formatStoreDateTime } from '@passada/core/calendar';
import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  CheckinRequestSchema,
  EventInputSchema,
  type PainelParticipant,
  PainelParticipantSchema,
  PainelPhotoSchema,
  ParticipantListSchema,
  type ParticipantQuery,
  ParticipantQuerySchema,
} from '@passada/core/contracts/painel';
import { registrationFromQr } from '@passada/core/contracts/registrations';
import { formatCpf } from '@passada/core/documents';
import { formatIsoDateBR } from '@passada/core/events';
import { centsToCommaString, centsToReais } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../../plugins/errors.ts';
import { type ParticipantRow, participantIdentity } from '../registrations/registrations-admin.ts';
import { audit } from './audit.ts';
import { ADMIN_ONLY, actor } from './guard.ts';
import { type CheckinRow, findCheckins, insertCheckin } from './painel.repository.ts';
import { readUploadedPhoto } from './photos.ts';

const EventIdSchema = z.object({ id: z.coerce.number().int().positive() });

/** A registration as the back office lists it (participants, check-in, its own page). */
export function participantWire(row: ParticipantRow, checkin: CheckinRow | undefined): PainelParticipant {
  return {
    ...participantIdentity(row),
    cidade: row.city,
    estado: row.state,
    categorias: row.categories.map((c) => ({ id: c.id, nome: c.name, dia: c.day })),
    total: centsToReais(row.totalCents),
    criado_em: row.createdAt.toISOString(),
    retirada: checkin ? { at: checkin.at.toISOString(), staff_name: checkin.staffName } : null,
    faixa_etaria: row.ageGroup,
    meia_entrada: row.seniorDiscount,
    tamanho_camisa: row.kitSize,
    equipe: row.team,
    pcd: row.pcd,
    contato_emergencia:
      row.emergencyName && row.emergencyPhone
        ? { nome: row.emergencyName, telefone: formatPhone(row.emergencyPhone) }
        : null,
    pedido_id: row.orderId,
    cancelamento: row.cancelledAt ? { em: row.cancelledAt.toISOString(), motivo: row.cancelReason } : null,
  };
}

/** Excel pt-BR opens `;`-separated UTF-8 with a BOM with accents intact; quotes only where needed. */
function csvField(value: string | number): string {
  const text = String(value);
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const CSV_HEADER = [
  'Inscrição',
  'Nome completo',
  'CPF',
  'Nascimento',
  'Gênero',
  'E-mail',
  'Telefone',
  'Cidade',
  'UF',
  'Categoria',
  'Dia',
  'Valor pago (R$)',
  'Inscrito em',
  'Kit retirado em',
  'Faixa etária',
  'Camisa',
  'Equipe',
  'PCD',
  'Meia-entrada 60+',
];

/** Events' participants, their export and race-day check-in. */
export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['painel: eventos'];
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

  async function list(eventId: number | null, query: ParticipantQuery) {
    const rows = await app.registrationsAdmin.participants(eventId, {
      categoryId: query.categoria,
      day: query.dia,
      search: query.busca,
    });
    const checkins = new Map(
      (
        await findCheckins(
          app.db,
          rows.map((r) => r.id),
        )
      ).map((c) => [c.registrationId, c]),
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

  async function eventOrNotFound(id: number) {
    const event = await app.events.findEventRow(id);
    if (!event) throw notFound('Evento não encontrado.');
    return event;
  }

  app.get(
    '/events/',
    {
      schema: {
        tags,
        summary: 'Eventos com o número de inscritos',
        response: {
          200: z.array(
            z.object({
              id: z.number().int(),
              nome_evento: z.string(),
              start_data_evento: z.string(),
              inscritos: z.number().int(),
              retirados: z.number().int(),
            }),
          ),
          ...errors,
        },
      },
    },
    async () => {
      const events = (await app.events.listEvents({ page_size: 1000 })) as Array<{
        id: number;
        nome_evento: string;
        start_data_evento: string;
      }>;
      // Cancelled registrations hold no place: they are listed, never counted.
      const all = (await list(null, {})).filter((p) => p.row.cancelledAt === null);
      return events.map((e) => {
        const mine = all.filter((p) => p.row.eventId === e.id);
        return {
          id: e.id,
          nome_evento: e.nome_evento,
          start_data_evento: e.start_data_evento,
          inscritos: mine.length,
          retirados: mine.filter((p) => p.checkin).length,
        };
      });
    },
  );

  app.get(
    '/events/:id/participants/',
    {
      schema: {
        tags,
        summary:
          'Participantes de um evento (filtros por categoria, dia, situação; busca por nome ou CPF) e contagem por categoria',
        params: EventIdSchema,
        querystring: ParticipantQuerySchema,
        response: { 200: ParticipantListSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(req.params.id);
      const results = await list(req.params.id, req.query);
      const everyone = (await list(req.params.id, {})).filter((p) => p.row.cancelledAt === null);
      const event = await app.events.getEvent(req.params.id);
      const contagem = event.dias_evento.flatMap((d) =>
        d.categorias.map((c) => {
          const inCat = everyone.filter((p) => p.row.categories.some((x) => x.id === c.id));
          return {
            id: c.id,
            nome: c.nome_categoria,
            dia: d.data,
            inscritos: inCat.length,
            retirados: inCat.filter((p) => p.checkin).length,
            vagas_restantes: c.quantidade_disponivel,
          };
        }),
      );
      return { results: results.map((p) => participantWire(p.row, p.checkin)), contagem };
    },
  );

  app.get(
    '/events/:id/participants.csv',
    {
      schema: {
        tags,
        summary:
          'Participantes em CSV para a cronometragem (UTF-8 com BOM, separador ;); inscrições canceladas ficam de fora',
        params: EventIdSchema,
        querystring: ParticipantQuerySchema,
      },
    },
    async (req, reply) => {
      const event = await eventOrNotFound(req.params.id);
      const lines = [CSV_HEADER.join(';')];
      for (const { row, checkin } of await list(req.params.id, req.query)) {
        // Timing companies give a bib to every line: a cancelled registration runs no race.
        if (row.cancelledAt) continue;
        // One line per category, as timing companies import one bib per race.
        for (const category of row.categories) {
          lines.push(
            [
              row.id,
              row.fullName,
              formatCpf(row.cpf),
              formatIsoDateBR(row.birthDate),
              row.gender,
              row.email,
              formatPhone(row.phone),
              row.city,
              row.state,
              category.name,
              formatIsoDateBR(category.day),
              centsToCommaString(row.totalCents),
              formatStoreDateTime(row.createdAt),
              checkin ? formatStoreDateTime(checkin.at) : '',
              row.ageGroup,
              row.kitSize ?? '',
              row.team ?? '',
              row.pcd ? 'Sim' : 'Não',
              row.seniorDiscount ? 'Sim' : 'Não',
            ]
              .map(csvField)
              .join(';'),
          );
        }
      }
      const slug = event.name
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="participantes-${slug}.csv"`)
        .send(`\uFEFF${lines.join('\r\n')}\r\n`);
    },
  );

  app.get(
    '/checkin/search/',
    {
      schema: {
        tags,
        summary: 'Check-in: buscar participantes por nome ou CPF',
        querystring: z.object({
          busca: z.string().trim().min(2, 'Digite pelo menos 2 letras.').max(100),
          evento: z.coerce.number().int().positive().optional(),
        }),
        response: { 200: z.array(PainelParticipantSchema), ...errors },
      },
    },
    async (req) =>
      (await list(req.query.evento ?? null, { busca: req.query.busca }))
        .slice(0, 30)
        .map((p) => participantWire(p.row, p.checkin)),
  );

  app.post(
    '/checkin/',
    {
      schema: {
        tags,
        summary: 'Marcar a retirada do kit (uma vez); a segunda leitura responde 409 "já retirado"',
        body: CheckinRequestSchema,
        response: { 200: PainelParticipantSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const id = req.body.inscricao ?? registrationFromQr(req.body.codigo ?? '');
      if (!id) throw new HttpError(400, 'Este QR code não é de uma inscrição da Passada.', 'qr_invalido');
      const [row] = await app.registrationsAdmin.participants(null, { ids: [id] });
      if (!row) throw notFound('Inscrição não encontrada.');
      if (row.cancelledAt)
        throw new HttpError(
          409,
          `Inscrição cancelada em ${formatStoreDateTime(row.cancelledAt)}: o kit não pode ser entregue.`,
          'inscricao_cancelada',
          undefined,
          { participante: participantWire(row, undefined) },
        );
      const me = actor(req);
      const created = await app.db.transaction(async (tx) => {
        // A cancellation committing meanwhile wins: the kit of a cancelled registration is never handed out.
        const locked = await app.registrationsAdmin.lockForCheckin(tx, id);
        if (locked?.cancelledAt)
          throw new HttpError(
            409,
            `Inscrição cancelada em ${formatStoreDateTime(locked.cancelledAt)}: o kit não pode ser entregue.`,
            'inscricao_cancelada',
          );
        return insertCheckin(tx, { registrationId: id, staffId: me.id, staffName: me.name, at: app.now() });
      });
      if (!created) {
        const [first] = await findCheckins(app.db, [id]);
        throw new HttpError(
          409,
          `Kit já retirado em ${formatStoreDateTime(first!.at)} (registrado por ${first!.staffName}).`,
          'ja_retirado',
          undefined,
          { participante: participantWire(row, first) },
        );
      }
      await audit(app.db, me, {
        action: 'kit_retirado',
        entity: 'inscricao',
        entityId: id,
        after: { retirada: created.at },
      });
      return participantWire(row, created);
    },
  );

  const EventWire = z.object({ id: z.number().int() }).passthrough();

  app.get(
    '/events/:id/',
    {
      schema: {
        tags,
        summary:
          'Um evento como o formulário o edita: preço próprio e lotes de cada categoria, tamanhos do kit com id',
        params: EventIdSchema,
        response: { 200: EventWire, ...errors },
      },
    },
    async (req) => app.events.getEventForStaff(req.params.id),
  );

  app.post(
    '/events/',
    {
      config: ADMIN_ONLY,
      schema: {
        tags,
        summary: 'Criar evento com dias e categorias (preço e vagas por categoria)',
        body: EventInputSchema,
        response: { 201: EventWire, ...errors },
      },
    },
    async (req, reply) => {
      const event = await app.db.transaction(async (tx) => {
        const id = await app.events.admin.createEvent(tx, req.body);
        await audit(tx, actor(req), { action: 'criado', entity: 'evento', entityId: id, after: req.body });
        return id;
      });
      return reply.status(201).send(await app.events.getEvent(event));
    },
  );

  app.put(
    '/events/:id/',
    {
      config: ADMIN_ONLY,
      schema: {
        tags,
        summary: 'Editar evento; categorias mantêm o id, e uma com inscritos não pode ser removida',
        params: EventIdSchema,
        body: EventInputSchema,
        response: { 200: EventWire, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const before = await app.events.getEvent(req.params.id);
      await app.db.transaction(async (tx) => {
        await app.events.admin.updateEvent(tx, req.params.id, req.body);
        await audit(tx, actor(req), {
          action: 'alterado',
          entity: 'evento',
          entityId: req.params.id,
          before,
          after: req.body,
        });
      });
      return app.events.getEvent(req.params.id);
    },
  );

  app.post(
    '/events/image/',
    {
      config: ADMIN_ONLY,
      schema: {
        tags,
        summary:
          'Enviar a imagem de um evento (multipart, campo "foto"). Responde 202 com a foto em "processando"; ' +
          'a URL vai em imagem_evento quando GET /photos/:id/ a der como pronta',
        consumes: ['multipart/form-data'],
        response: {
          202: PainelPhotoSchema,
          ...errors,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          502: ApiErrorSchema,
        },
      },
    },
    async (req, reply) => {
      const buffer = await readUploadedPhoto(req, 'Escolha uma imagem.');
      const { photo, url } = await app.photos.accept('eventos', buffer, async () => undefined);
      return reply.status(202).send({ id: photo.id, url, status: photo.status });
    },
  );
};
