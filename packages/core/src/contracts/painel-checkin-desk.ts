import { z } from '../zod.ts';
import { PickupDelegateSchema, PickupItemQuantitySchema, PickupItemSchema } from './painel-events.ts';

/**
 * The kit desk offline (docs/decisions/0063): the snapshot of an event's tickets a desk keeps on the
 * phone (`GET /api/painel/checkin/offline/?evento=`), and the batch of pickups it scanned offline
 * (`POST /api/painel/checkin/offline/`).
 */

/** A kit pickup as the desk shows it: when, who handed it out, and at which offline desk (null online). */
export const DeskPickupSchema = z.object({
  em: z.string(),
  por: z.string(),
  mesa: z.string().nullable(),
  /** Who collected it: the runner, the authorised person or the team's collector (named). */
  retirado_por: z.enum(['titular', 'autorizado', 'equipe']).optional(),
  retirado_por_nome: z.string().nullable().optional(),
});
export type DeskPickup = z.infer<typeof DeskPickupSchema>;

/** One registration in the snapshot: only what the desk shows and needs to decide a scan. */
export const DeskTicketSchema = z.object({
  id: z.number().int(),
  nome: z.string(),
  /** Masked (`***.644.788-**`): the desk asks for a document, it does not need the number. */
  cpf: z.string(),
  /** Each race with its bib and its start wave (docs/decisions/0066; null without waves). */
  categorias: z.array(
    z.object({
      nome: z.string(),
      numero_peito: z.number().int().nullable(),
      onda: z.string().nullable().optional(),
    }),
  ),
  tamanho_camisa: z.string().nullable(),
  equipe: z.string().nullable(),
  /** Half price (60+), or a special price whose document staff did not approve: check a document. */
  confira_documento: z.boolean(),
  /** The special price that priced it (docs/decisions/0068) and whether staff checked its document. */
  preco_especial: z
    .object({ regra: z.string(), documento: z.enum(['conferido', 'conferir', 'nao_pedido']) })
    .optional(),
  cancelada: z.boolean(),
  /** Handed to another runner: an older code of it is the previous holder's. */
  transferida: z.boolean(),
  /**
   * SHA-256 of the registration's current QR text, cut to 128 bits (base64url): a scanned code is
   * taken when its hash is this one. The code itself, and the secret that signs it, never leave the server.
   */
  codigo_hash: z.string(),
  retirada: DeskPickupSchema.nullable(),
  /** The person the runner authorised to collect it (CPF `***.***.***-NN`), when the rules allow. */
  retirada_autorizada: PickupDelegateSchema.nullable().optional(),
});
export type DeskTicket = z.infer<typeof DeskTicketSchema>;

export const DeskSnapshotSchema = z.object({
  evento: z.object({ id: z.number().int(), nome: z.string() }),
  /** Changes whenever anything in the snapshot does; also its ETag. */
  versao: z.string(),
  /** Lottery places: the kit goes only to the CPF's holder, with a document. */
  confira_cpf: z.boolean(),
  inscricoes: z.array(DeskTicketSchema),
  /** The event's item to bring at pickup, asked offline too. */
  item: PickupItemSchema.nullable().optional(),
});
export type DeskSnapshot = z.infer<typeof DeskSnapshotSchema>;

export const OfflinePickupSchema = z.object({
  /** Drawn by the desk for the scan: the same scan sent again is the same pickup. */
  id: z.uuid({ error: 'Retirada sem identificador.' }),
  inscricao: z.number({ error: 'Informe o número da inscrição.' }).int().positive(),
  /** When the desk scanned it (ISO 8601). */
  lida_em: z.iso.datetime({ offset: true, error: 'Informe quando o kit foi entregue.' }),
  retirou: z.enum(['titular', 'autorizado']).default('titular'),
  /**
   * The authorised person the desk's list named when the kit went out to them: the server records that
   * name, and flags the pickup when the runner revoked or changed the authorisation meanwhile.
   */
  autorizado_nome: z.string().trim().max(120).optional(),
  item_quantidade: PickupItemQuantitySchema.nullable().optional(),
});
export type OfflinePickup = z.infer<typeof OfflinePickupSchema>;

export const OfflinePickupBatchSchema = z.object({
  evento: z
    .number({ error: 'Abra o check-in de um evento.' })
    .int('Abra o check-in de um evento.')
    .positive('Abra o check-in de um evento.'),
  /** The desk's name, as its staff typed it ("Mesa 2"). */
  mesa: z
    .string({ error: 'Dê um nome a esta mesa.' })
    .trim()
    .min(1, 'Dê um nome a esta mesa.')
    .max(40, 'Use no máximo 40 caracteres no nome da mesa.'),
  /** At most CHECKIN_OFFLINE_BATCH_MAX (a setting, checked by the server). */
  retiradas: z.array(OfflinePickupSchema).min(1, 'Nenhuma retirada para enviar.'),
});
export type OfflinePickupBatch = z.input<typeof OfflinePickupBatchSchema>;

export const OfflinePickupResultSchema = z.object({
  id: z.string(),
  inscricao: z.number().int(),
  /**
   * `registrada`: this scan is the kit's pickup; `conflito`: the kit was already out (`retirada` says
   * who and when), this scan is kept but not counted, or the kit went to a person the runner no longer
   * authorises (this scan is the pickup; `retirada` null, `mensagem` says whom); `recusada`: not of this
   * event, cancelled, unknown.
   */
  situacao: z.enum(['registrada', 'conflito', 'recusada']),
  /** The same scan was received before: this is the answer it got then, nothing was written now. */
  repetida: z.boolean(),
  /** The kit's pickup in the ledger: this scan's when `registrada`, the other one when `conflito`. */
  retirada: DeskPickupSchema.nullable(),
  mensagem: z.string().nullable(),
});
export type OfflinePickupResult = z.infer<typeof OfflinePickupResultSchema>;

export const OfflinePickupReplySchema = z.object({ resultados: z.array(OfflinePickupResultSchema) });
export type OfflinePickupReply = z.infer<typeof OfflinePickupReplySchema>;
