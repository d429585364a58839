import { z } from '../zod.ts';
import { LotterySettingsSchema, PainelLotterySchema } from './lottery.ts';

/**
 * Opening day (docs/decisions/0046-opening-day.md): how an event opens its registrations, a waiting
 * room (`fila`: ordem de chegada com sala de espera) or a lottery (`sorteio`).
 */
export const OpeningModeSchema = z.enum(['fila', 'sorteio']);
export type OpeningMode = z.infer<typeof OpeningModeSchema>;

/** What the organiser sets per event in the back office. */
export const OpeningSettingsSchema = z.object({
  modo: OpeningModeSchema,
  /** The opening instant (ISO 8601 with its offset). */
  abre_em: z.iso.datetime({ offset: true, message: 'Informe a data e a hora da abertura.' }),
  /** Runners arriving this many minutes before the opening join the pre-queue, drawn at the opening. */
  pre_fila_minutos: z
    .number()
    .int()
    .min(0, 'Informe 0 ou mais minutos.')
    .max(1440, 'No máximo 1440 minutos.'),
  /** Runners admitted per minute; null: automatic (the places left filled within one turn). */
  admitidos_por_minuto: z.number().int().min(1, 'Admita ao menos 1 por minuto.').max(100_000).nullable(),
  /** How long an admitted runner keeps the turn to finish the registration. */
  minutos_da_vez: z.number().int().min(1, 'A vez dura ao menos 1 minuto.').max(240, 'No máximo 240 minutos.'),
  inscricoes_por_cpf: z.number().int().min(1, 'Ao menos 1 inscrição por CPF.').max(50),
  inscricoes_por_comprador: z.number().int().min(1, 'Ao menos 1 inscrição por comprador.').max(50),
  /** The lottery's window, places and payment deadline; required when the mode is `sorteio`. */
  sorteio: LotterySettingsSchema.nullable().optional(),
});
export type OpeningSettings = z.infer<typeof OpeningSettingsSchema>;

/** A save of the settings: the version read (absent when the event has no opening yet). */
export const OpeningUpdateSchema = OpeningSettingsSchema.extend({ versao: z.number().int().optional() });
export type OpeningUpdate = z.infer<typeof OpeningUpdateSchema>;

/** The live view of an opening in the back office. */
export const OpeningLiveSchema = z.object({
  chegadas: z.number().int(),
  na_fila: z.number().int(),
  admitidos: z.number().int(),
  pagando: z.number().int(),
  pagas: z.number().int(),
  /** What the public can still take, the same figure as the event's page. */
  vagas_restantes: z.number().int(),
  /** Left but held for someone: the waitlist's offers and the teams' quotas (docs/decisions/0076). */
  vagas_reservadas: z.number().int().default(0),
  admitidos_por_minuto: z.number().int(),
});
export type OpeningLive = z.infer<typeof OpeningLiveSchema>;

export const PainelOpeningSchema = OpeningSettingsSchema.extend({
  versao: z.number().int(),
  ao_vivo: OpeningLiveSchema,
  sorteio: PainelLotterySchema.nullable(),
});
export type PainelOpening = z.infer<typeof PainelOpeningSchema>;

/** The phase of an opening at a given instant. */
export const OpeningPhaseSchema = z.enum(['antes', 'pre_fila', 'aberta']);

/** What the event page shows of the opening (public; no secret). */
export const OpeningStatusSchema = z.object({
  modo: OpeningModeSchema,
  abre_em: z.string(),
  pre_fila_abre_em: z.string(),
  fase: OpeningPhaseSchema,
  minutos_da_vez: z.number().int(),
});
export type OpeningStatus = z.infer<typeof OpeningStatusSchema>;

/** A runner's place in the waiting room, as the join and every position poll answer it. */
export const QueueTicketSchema = z.object({
  /** The signed token of the turn: the page keeps it and sends it back with each poll. */
  vez: z.string(),
  estado: z.enum(['pre_fila', 'aguardando', 'admitido', 'expirada']),
  /** The place in the queue; null in the pre-queue until the opening draws it. */
  lugar: z.number().int().nullable(),
  /** Runners ahead still waiting. */
  a_frente: z.number().int().nullable(),
  /** Minutes of wait at the current rate (null before the opening). */
  espera_minutos: z.number().int().nullable(),
  abre_em: z.string(),
  /** When the turn ends, once admitted. */
  vez_expira_em: z.string().nullable(),
});
export type QueueTicket = z.infer<typeof QueueTicketSchema>;

export const QueueTokenQuerySchema = z.object({ vez: z.string().max(200) });
