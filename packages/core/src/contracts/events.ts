import { EVENTS_PAGE_SIZE } from '../events.ts';
import { z } from '../zod.ts';
import { PageTextSchema } from './common.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'data no formato aaaa-mm-dd');

/** A category of one event day; preco_inscricao in reais on the wire (docs/product.md §3). */
export const EventCategorySchema = z.object({
  id: z.number().int(),
  nome_categoria: z.string(),
  preco_inscricao: z.number(),
  quantidade_disponivel: z.number().int(),
  /** The lot (lote) in force today: its name, "1º lote até 10/01 ou 300 inscrições", its price. */
  lote_atual: z.object({ nome: z.string(), descricao: z.string(), preco: z.number() }).nullable(),
  /** What a place costs once the current lot ends (nome null: the category's own price). */
  proximo_preco: z.object({ nome: z.string().nullable(), preco: z.number() }).nullable(),
  /** Age limits in full years on the race day (null: none); core's describeAgeLimits words them. */
  idade_minima: z.number().int().nullable(),
  idade_maxima: z.number().int().nullable(),
  /**
   * A relay (docs/decisions/0078): one entry of this many runners, bought by a team in one payment at
   * `preco_inscricao` (the team's price), each runner with their own place; absent: an individual race.
   */
  revezamento: z.number().int().optional(),
});
export type EventCategory = z.infer<typeof EventCategorySchema>;

export const EventDaySchema = z.object({
  data: isoDate,
  categorias: z.array(EventCategorySchema),
});
export type EventDay = z.infer<typeof EventDaySchema>;

/** A race shirt size of the kit; quantidade_disponivel 0 shows "Esgotado". */
export const KitSizeSchema = z.object({
  id: z.number().int(),
  tamanho: z.string(),
  quantidade_disponivel: z.number().int(),
});
export type KitSize = z.infer<typeof KitSizeSchema>;

export const KitSchema = z.object({
  /** Empty when the event has no shirt in its kit: then no size is asked. */
  tamanhos: z.array(KitSizeSchema),
  local_retirada: z.string(),
  /** One line per pickup day with its hours. */
  horarios_retirada: z.string(),
});
export type Kit = z.infer<typeof KitSchema>;

/** An event as GET /api/events/ and /api/events/{id}/ answer it (docs/product.md §3, §7). */
export const EventSchema = z.object({
  id: z.number().int(),
  nome_evento: z.string(),
  organizer: z.string(),
  imagem_evento: z.string(),
  city: z.string(),
  state: z.string(),
  start_data_evento: isoDate,
  end_data_evento: isoDate,
  /** Last day (America/Fortaleza) on which registration is open. */
  prazo_inscricao: isoDate,
  hora_evento: z.string(),
  descricao_evento: z.string(),
  regulamento: z.string(),
  dias_evento: z.array(EventDaySchema),
  kit: KitSchema,
  /** The termo de responsabilidade the participant accepts, and the version the acceptance records. */
  termo_responsabilidade: z.string(),
  termo_versao: z.string(),
  /** The event offers registration as a person with disabilities (PCD). */
  oferece_pcd: z.boolean(),
  /**
   * Added field, computed by the server with its clock: today in Fortaleza ≤ prazo_inscricao, and
   * staff have not closed registrations by hand.
   */
  inscricoes_abertas: z.boolean(),
  /**
   * Added field: while the event's waiting room has not opened, when it opens (ISO 8601);
   * `inscricoes_abertas` is false until then. Null otherwise.
   */
  inscricoes_abrem_em: z.string().nullable().optional(),
});
export type Event = z.infer<typeof EventSchema>;

/**
 * An event as the list answers it: everything but the long texts (the regulation and the termo),
 * which only GET /api/events/{id}/ carries. Every visitor of the opening minute reads the list;
 * each event's full regulation made it several times larger.
 */
export const EventSummarySchema = EventSchema.omit({ regulamento: true, termo_responsabilidade: true });
export type EventSummary = z.infer<typeof EventSummarySchema>;

export const EventListSchema = z.array(EventSummarySchema);

/**
 * GET /api/events/ without `page` answers the whole list (the spec's browser expects an array); with
 * `page` (and optionally `page_size`) it answers one page as EventPageSchema.
 */
export const EventListQuerySchema = z.object({
  page: PageTextSchema.optional(),
  page_size: z.coerce.number().int().min(1).max(50).default(EVENTS_PAGE_SIZE),
});
export type EventListQuery = z.infer<typeof EventListQuerySchema>;

export const EventPageSchema = z.object({
  results: z.array(EventSummarySchema),
  count: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});
export type EventPage = z.infer<typeof EventPageSchema>;

export const EventListAnswerSchema = z.union([EventListSchema, EventPageSchema]);
