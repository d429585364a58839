import { formatStoreDateTime } from '@passada/core/calendar';
import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  BibAssignmentSchema,
  BibResultSchema,
  type CheckinPreview,
  CheckinPreviewSchema,
  CheckinRequestSchema,
  CheckinUndoSchema,
  EventInputSchema,
  EventUpdateSchema,
  HEALTH_DATA_PERMISSIONS,
  type PainelParticipant,
  PainelParticipantSchema,
  ParticipantListSchema,
  type ParticipantQuery,
  ParticipantQuerySchema,
  PERSONAL_DATA_PERMISSIONS,
  RegistrationsSwitchSchema,
  ShirtReportSchema,
  staffCan,
} from '@passada/core/contracts/painel';
import { formatCpf, maskCpf } from '@passada/core/documents';
import { ageOn, formatIsoDateBR } from '@passada/core/events';
import { centsToCommaString, centsToReais } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import { timingAgeGroup } from '@passada/core/race-rules';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../../plugins/errors.ts';
import {
  type CheckinRow,
  type ParticipantRow,
  participantIdentity,
} from '../registrations/registrations-admin.ts';
import { actor, audited, type PainelRouteConfig } from '../staff/index.ts';
import { csvField, sendCsv } from './csv.ts';
import { photoUploadRoute } from './photos.ts';

const EventIdSchema = IdParamSchema;

type Declared = { painel: PainelRouteConfig };
/** Create and edit events, and export their participants (docs/product.md §6). */
const EVENTS = { painel: { permission: 'eventos' } } satisfies Declared;
/** Events and their registrations are read by who runs events and by who handles orders (sales). */
const EVENT_READ = { painel: { permission: ['eventos', 'pedidos'] } } satisfies Declared;
/** Check-in names its event: a volunteer passes only for the events assigned to them. */
const CHECKIN_BY_QUERY = {
  painel: { permission: 'checkin', event: (req) => (req.query as { evento: number }).evento },
} satisfies Declared;
const CHECKIN_BY_BODY = {
  painel: { permission: 'checkin', event: (req) => (req.body as { evento: number }).evento },
} satisfies Declared;

/**
 * Whether the member may see the PCD answer (health data, LGPD art. 11): the event's organisers and the
 * kit desk, never orders alone (docs/decisions/0045).
 */
export const seesHealthData = (req: FastifyRequest) =>
  req.staff !== null && staffCan(req.staff.role, HEALTH_DATA_PERMISSIONS);

/** What of a participant the member's role sees: the PCD answer, and the whole personal data. */
export interface ParticipantView {
  health: boolean;
  personal: boolean;
}

/** The member's view: health data (HEALTH_DATA_PERMISSIONS), personal data (PERSONAL_DATA_PERMISSIONS). */
export const participantView = (req: FastifyRequest): ParticipantView => ({
  health: seesHealthData(req),
  personal: req.staff !== null && staffCan(req.staff.role, PERSONAL_DATA_PERMISSIONS),
});

/**
 * A registration as the back office lists it (participants, check-in, its own page): `pcd` null unless
 * `view.health`; without `view.personal`, the CPF masked and no birth date, e-mail, phone nor
 * emergency contact.
 */
export function participantWire(
  row: ParticipantRow,
  checkin: CheckinRow | undefined,
  view: ParticipantView,
): PainelParticipant {
  const identity = participantIdentity(row);
  const health = view.health;
  return {
    ...(view.personal
      ? identity
      : {
          ...identity,
          cpf: maskCpf(row.cpf),
          data_nascimento: null,
          email: null,
          numero_contato: null,
        }),
    cidade: row.city,
    estado: row.state,
    categorias: row.categories.map((c) => ({ id: c.id, nome: c.name, dia: c.day, numero_peito: c.bib })),
    total: centsToReais(row.totalCents),
    criado_em: row.createdAt.toISOString(),
    retirada: checkin ? { at: checkin.at.toISOString(), staff_name: checkin.staffName } : null,
    faixa_etaria: row.ageGroup,
    meia_entrada: row.seniorDiscount,
    tamanho_camisa: row.kitSize,
    equipe: row.team,
    pcd: health ? row.pcd : null,
    contato_emergencia:
      view.personal && row.emergencyName && row.emergencyPhone
        ? { nome: row.emergencyName, telefone: formatPhone(row.emergencyPhone) }
        : null,
    pedido_id: row.orderId,
    cancelamento: row.cancelledAt ? { em: row.cancelledAt.toISOString(), motivo: row.cancelReason } : null,
  };
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
  // Last, so importers reading the columns above by position keep working (docs/decisions/0028).
  'Gratuita',
  // Added for timing companies (docs/decisions/0038), after the others for the same reason.
  'Número de peito',
  'Contato de emergência',
  'Telefone de emergência',
  'Idade na prova',
  'Faixa etária (cronometragem)',
  // What changed after the sale (docs/decisions/0041), last for the same reason.
  'Alterações',
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

  async function eventOrNotFound(id: number) {
    const event = await app.events.findEventRow(id);
    if (!event) throw notFound('Evento não encontrado.');
    return event;
  }

  app.get(
    '/events/',
    {
      config: EVENT_READ,
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
              inscricoes_abertas: z.boolean(),
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
        inscricoes_abertas: boolean;
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
          inscricoes_abertas: e.inscricoes_abertas,
        };
      });
    },
  );

  app.get(
    '/events/:id/participants/',
    {
      config: EVENT_READ,
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
      return {
        results: results.map((p) => participantWire(p.row, p.checkin, participantView(req))),
        contagem,
      };
    },
  );

  app.get(
    '/events/:id/participants.csv',
    {
      // The whole personal data of everyone, for the timing company: who runs events only.
      config: EVENTS,
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
      const rows = await list(req.params.id, req.query);
      const history = await app.registrationsAdmin.afterSale.history(rows.map((r) => r.row.id));
      for (const { row, checkin } of rows) {
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
              seesHealthData(req) ? (row.pcd ? 'Sim' : 'Não') : '',
              row.seniorDiscount ? 'Sim' : 'Não',
              row.totalCents === 0 ? 'Sim' : 'Não',
              category.bib ?? '',
              row.emergencyName ?? '',
              row.emergencyPhone ? formatPhone(row.emergencyPhone) : '',
              ageOn(row.birthDate, category.day),
              timingAgeGroup(row.gender, row.birthDate, category.day),
              (history.get(row.id) ?? []).join(' | '),
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
      return sendCsv(reply, `participantes-${slug}.csv`, lines);
    },
  );

  const checkinErrors = { ...errors, 409: ApiErrorSchema };

  /**
   * The registration a check-in request names, checked against the screen's event: by its signed QR
   * code (refused when unsigned, tampered or forged) or by its number after a search. A ticket of
   * another event is refused here (409 `outro_evento`, naming that event): the server decides, not the
   * screen.
   */
  async function checkinTarget(body: {
    evento: number;
    codigo?: string | undefined;
    inscricao?: number | undefined;
  }) {
    const event = await eventOrNotFound(body.evento);
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

  const { cancelledMessage } = app.registrationsAdmin;

  app.get(
    '/checkin/search/',
    {
      config: CHECKIN_BY_QUERY,
      schema: {
        tags,
        summary: 'Check-in de um evento: buscar participantes por nome, CPF ou número da inscrição',
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
      await eventOrNotFound(req.query.evento);
      return (await list(req.query.evento, { busca: req.query.busca }))
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
      const { event, row } = await checkinTarget(req.body);
      const [checkin] = await app.registrationsAdmin.checkins([row.id]);
      return {
        participante: participantWire(row, checkin, participantView(req)),
        evento: { id: event.id, nome: event.name },
        situacao: row.cancelledAt ? 'cancelada' : checkin ? 'retirado' : 'pode_retirar',
        confira_documento: row.seniorDiscount,
        confira_cpf: app.opening.status(event.id)?.modo === 'sorteio',
      };
    },
  );

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
      const { row } = await checkinTarget(req.body);
      const id = row.id;
      if (row.cancelledAt)
        throw new HttpError(409, cancelledMessage(row.cancelledAt), 'inscricao_cancelada', undefined, {
          participante: participantWire(row, undefined, participantView(req)),
        });
      // A cancellation committing meanwhile wins: the kit of a cancelled registration is never handed out.
      const created = await audited(
        req,
        (tx) => app.registrationsAdmin.checkIn(tx, id, actor(req)),
        (inserted) =>
          inserted
            ? { action: 'kit_retirado', entity: 'inscricao', entityId: id, after: { retirada: inserted.at } }
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
      const { row } = await checkinTarget(req.body);
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

  const EventWire = z.object({ id: z.number().int() }).passthrough();

  app.get(
    '/events/:id/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary:
          'Um evento como o formulário o edita: preço próprio e lotes de cada categoria, vagas e camisas no total (com vendidas e restantes), tamanhos do kit com id, e a versão a devolver ao salvar',
        params: EventIdSchema,
        response: { 200: EventWire, ...errors },
      },
    },
    async (req) => app.events.getEventForStaff(req.params.id),
  );

  app.post(
    '/events/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Criar evento com dias e categorias (preço e vagas por categoria)',
        body: EventInputSchema,
        response: { 201: EventWire, ...errors },
      },
    },
    async (req, reply) => {
      const event = await audited(
        req,
        (tx) => app.events.admin.createEvent(tx, req.body),
        (id) => ({ action: 'criado', entity: 'evento', entityId: id, after: req.body }),
      );
      return reply.status(201).send(await app.events.getEvent(event));
    },
  );

  app.put(
    '/events/:id/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Editar evento com a versão lida (409 se outra pessoa salvou antes); vagas e camisas vão como total, e o que resta sai do total menos o vendido na hora de gravar; categorias mantêm o id, e uma com inscritos não pode ser removida',
        params: EventIdSchema,
        body: EventUpdateSchema,
        response: { 200: EventWire, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      await audited(
        req,
        async (tx) => {
          const before = await app.events.admin.updateEvent(tx, req.params.id, req.body);
          // More places may now be free for the waitlist's first in line (docs/decisions/0042).
          await app.registrationsAdmin.waitlist.nudge(tx);
          return before;
        },
        (before) => ({
          action: 'alterado',
          entity: 'evento',
          entityId: req.params.id,
          before,
          after: req.body,
        }),
      );
      return app.events.getEventForStaff(req.params.id);
    },
  );

  app.post(
    '/events/:id/duplicar/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Duplicar o evento para o ano seguinte: datas +1 ano (dias, prazo, lotes e as datas escritas nos textos), mesmas categorias, idades, preços, vagas e camisas, regulamento e termo; sem inscrições, versão 1',
        params: EventIdSchema,
        response: { 201: EventWire, ...errors },
      },
    },
    async (req, reply) => {
      const id = await audited(
        req,
        (tx) => app.events.admin.duplicateEvent(tx, req.params.id),
        (created) => ({
          action: 'duplicado',
          entity: 'evento',
          entityId: created,
          after: { copia_de: req.params.id },
        }),
      );
      return reply.status(201).send(await app.events.getEventForStaff(id));
    },
  );

  app.post(
    '/events/:id/inscricoes/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Encerrar (abertas: false) ou reabrir (abertas: true) as inscrições do evento à mão; a loja passa a dizer que estão encerradas e novas inscrições são recusadas. Não muda a versão do formulário',
        params: EventIdSchema,
        body: RegistrationsSwitchSchema,
        response: { 200: EventWire, ...errors },
      },
    },
    async (req) => {
      await audited(
        req,
        (tx) => app.events.admin.setRegistrationsOpen(tx, req.params.id, req.body.abertas),
        (before) => ({
          action: req.body.abertas ? 'inscricoes_reabertas' : 'inscricoes_encerradas',
          entity: 'evento',
          entityId: req.params.id,
          before,
          after: { abertas: req.body.abertas },
        }),
      );
      return app.events.getEventForStaff(req.params.id);
    },
  );

  app.post(
    '/events/:id/numeros-de-peito/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Numerar os participantes (números de peito) em ordem alfabética: uma sequência só ou uma faixa por categoria; substitui a numeração anterior',
        params: EventIdSchema,
        body: BibAssignmentSchema,
        response: { 200: BibResultSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      await eventOrNotFound(req.params.id);
      return audited(
        req,
        (tx) => app.registrationsAdmin.assignBibs(tx, req.params.id, req.body),
        (result) => ({
          action: 'numeros_de_peito',
          entity: 'evento',
          entityId: req.params.id,
          after: { ...req.body, resultado: result.categorias },
        }),
      );
    },
  );

  app.get(
    '/events/:id/camisas/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'Camisas por tamanho das inscrições válidas do evento (para o pedido à confecção)',
        params: EventIdSchema,
        response: { 200: ShirtReportSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(req.params.id);
      return app.registrationsAdmin.shirtsBySize(req.params.id);
    },
  );

  photoUploadRoute(app, '/events/image/', 'eventos', {
    config: EVENTS,
    tags,
    summary:
      'Enviar a imagem de um evento (multipart, campo "foto"). Responde 202 com a foto em "processando"; ' +
      'a URL vai em imagem_evento quando GET /photos/:id/ a der como pronta',
  });
};
