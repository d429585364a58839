import { formatStoreDateTime } from '@passada/core/calendar';
import { ParticipantListSchema, ParticipantQuerySchema } from '@passada/core/contracts/painel';
import { formatCpf } from '@passada/core/documents';
import { ageOn, formatIsoDateBR } from '@passada/core/events';
import { centsToCommaString } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import { timingAgeGroup } from '@passada/core/race-rules';
import { formatEstimatedTime } from '@passada/core/waves';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvField, sendCsv } from './csv.ts';
import {
  EVENT_READ,
  EVENTS,
  EventIdSchema,
  eventOrNotFound,
  eventRouteSchema,
  type PainelApp,
  participantsOf,
} from './events.common.ts';
import { participantView, participantWire, seesHealthData } from './participant-wire.ts';

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
  // The start wave and the estimate it came from (docs/decisions/0066), last for the same reason.
  'Onda de largada',
  'Tempo estimado',
];
/** The events' list with their counts, an event's participants and their CSV for the timing company. */
export const participantsRoutes: FastifyPluginAsyncZod = async (app) => {
  participantListRoutes(app);
  participantsCsvRoute(app);
};

/** The events with their counts, and an event's participants with the count per category. */
function participantListRoutes(app: PainelApp) {
  const { tags, errors } = eventRouteSchema;

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
      const all = (await participantsOf(app, null, {})).filter((p) => p.row.cancelledAt === null);
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
      await eventOrNotFound(app, req.params.id);
      const results = await participantsOf(app, req.params.id, req.query);
      const everyone = (await participantsOf(app, req.params.id, {})).filter(
        (p) => p.row.cancelledAt === null,
      );
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
}

/** The participants' CSV for the timing company: one line per category, cancelled registrations left out. */
function participantsCsvRoute(app: PainelApp) {
  const { tags } = eventRouteSchema;

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
      const event = await eventOrNotFound(app, req.params.id);
      const lines = [CSV_HEADER.join(';')];
      const rows = await participantsOf(app, req.params.id, req.query);
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
              category.wave ?? '',
              category.estimatedSeconds === null ? '' : formatEstimatedTime(category.estimatedSeconds),
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
}
