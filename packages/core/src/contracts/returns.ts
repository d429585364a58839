import { z } from 'zod';
import { isReturnPostingCode } from '../s10.ts';

/**
 * After the sale (docs/decisions/0036): a withdrawal before shipping (`desistencia`, CDC art. 49 and
 * Decreto 7.962/2013 art. 5: through the site, confirmed at once), a return after delivery (`devolucao`)
 * or an exchange of size or colour (`troca`).
 */
export const RETURN_KINDS = ['desistencia', 'devolucao', 'troca'] as const;
export type ReturnKind = (typeof RETURN_KINDS)[number];

export const RETURN_STATUSES = [
  'solicitada',
  'codigo_enviado',
  'postada',
  'recebida',
  'reembolsada',
  'trocada',
  'recusada',
] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_STATUS_LABEL: Record<ReturnStatus, string> = {
  solicitada: 'Solicitada',
  codigo_enviado: 'Código de postagem enviado',
  postada: 'Postada',
  recebida: 'Recebida pela loja',
  reembolsada: 'Reembolsada',
  trocada: 'Trocada',
  recusada: 'Recusada',
};

export const RETURN_KIND_LABEL: Record<ReturnKind, string> = {
  desistencia: 'Desistência da compra',
  devolucao: 'Devolução',
  troca: 'Troca',
};

/** Why: regret (art. 49, 7 days, no reason needed) or a defect (art. 26, 90 days for durable goods). */
export const RETURN_REASONS = ['arrependimento', 'defeito'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];
/**
 * Why, as recorded: the buyer's reasons, or `loja` for units staff took off an order before shipping
 * (a list of changes made in the back office, docs/decisions/0065).
 */
export const RECORDED_RETURN_REASONS = [...RETURN_REASONS, 'loja'] as const;

/** Days the law gives (calendar days from delivery, or from the purchase for a registration). */
export const WITHDRAWAL_DAYS = 7;
export const DEFECT_DAYS_DURABLE = 90;

const ReturnLineSchema = z.object({
  item_id: z.number().int().positive(),
  quantidade: z.number().int().min(1, 'Informe ao menos uma unidade.').max(99),
});

const NoteSchema = z.string().trim().max(500, 'Escreva no máximo 500 caracteres.');

/**
 * `POST /api/orders/:id/desistencia/`: withdraw before shipping. Without `itens` and `inscricoes`, the
 * whole order; otherwise the chosen units and registrations.
 */
export const WithdrawalRequestSchema = z.object({
  itens: z.array(ReturnLineSchema).max(50).optional(),
  inscricoes: z.array(z.number().int().positive()).max(20).optional(),
  motivo: NoteSchema.optional(),
});
export type WithdrawalRequest = z.infer<typeof WithdrawalRequestSchema>;

/**
 * `POST /api/orders/:id/alteracoes/` (and `…/cotacao/`): a list of changes to an order before it ships
 * (docs/decisions/0065), the withdrawal's lines with the order's version as it was read
 * (`OrderAfterSale.versao`): a list made on an older version is refused (`409 pedido_alterado`).
 */
const VariantSwapSchema = ReturnLineSchema.extend({
  cor_id: z.number().int().positive(),
  tamanho_id: z.number().int().positive(),
});

export const OrderChangeRequestSchema = WithdrawalRequestSchema.extend({
  /** Units swapped to another colour or size of the same product before shipping. */
  trocas: z.array(VariantSwapSchema).max(50).optional(),
  /**
   * An earlier shape of the same list, refused rather than ignored: a list whose parts were all dropped
   * would read as the whole order.
   */
  operacoes: z.never({ error: 'Envie a lista em itens, trocas e inscricoes.' }).optional(),
  versao: z.number().int().min(0),
});
export type OrderChangeRequest = z.infer<typeof OrderChangeRequestSchema>;

/** `POST /api/painel/orders/:id/alteracoes/`: staff's list, with the reason the buyer will read. */
export const StaffOrderChangeRequestSchema = OrderChangeRequestSchema.extend({
  motivo: z
    .string()
    .trim()
    .min(1, 'Diga o motivo da alteração.')
    .max(500, 'Escreva no máximo 500 caracteres.'),
});
export type StaffOrderChangeRequest = z.infer<typeof StaffOrderChangeRequestSchema>;

/** What a list would do, tried under every rule and undone: nothing is changed by asking. */
export const OrderChangeQuoteSchema = z.object({
  /** What goes back, in reais: the units, the shipping once nothing ships, everything once nothing is kept. */
  a_devolver: z.number(),
  itens: z.array(z.object({ item_id: z.number().int(), quantidade: z.number().int(), valor: z.number() })),
  inscricoes: z.array(z.number().int()),
  /** The units that would change colour or size. */
  trocas: z
    .array(
      z.object({
        item_id: z.number().int(),
        quantidade: z.number().int(),
        cor: z.string(),
        tamanho: z.string(),
      }),
    )
    .default([]),
  /** What the buyer would have paid in the end, in reais: what was paid less every refund. */
  novo_total: z.number().optional(),
  /** Nothing would be left: the order is cancelled. */
  cancela_pedido: z.boolean(),
  versao: z.number().int(),
});
export type OrderChangeQuote = z.infer<typeof OrderChangeQuoteSchema>;

/** `POST /api/orders/:id/devolucoes/`: send items back after delivery (withdrawal or defect). */
export const ReturnRequestSchema = z
  .object({
    itens: z.array(ReturnLineSchema).min(1, 'Escolha ao menos um item.').max(50),
    motivo: z.enum(RETURN_REASONS),
    descricao: NoteSchema.optional(),
  })
  .refine((r) => r.motivo !== 'defeito' || (r.descricao?.length ?? 0) > 0, {
    message: 'Descreva o defeito.',
    path: ['descricao'],
  });
export type ReturnRequest = z.infer<typeof ReturnRequestSchema>;

/**
 * `POST /api/orders/:id/trocas/`: exchange units of a line for another colour or size of the same
 * product (docs/decisions/0040), within the same window as a return. The new units are held at once.
 */
export const ExchangeRequestSchema = z
  .object({
    itens: z
      .array(
        ReturnLineSchema.extend({
          cor_id: z.number().int().positive(),
          tamanho_id: z.number().int().positive(),
        }),
      )
      .min(1, 'Escolha ao menos um item.')
      .max(20),
    motivo: z.enum(RETURN_REASONS),
    descricao: NoteSchema.optional(),
  })
  .refine((r) => r.motivo !== 'defeito' || (r.descricao?.length ?? 0) > 0, {
    message: 'Descreva o defeito.',
    path: ['descricao'],
  });
export type ExchangeRequest = z.infer<typeof ExchangeRequestSchema>;

/** When the exchanged units ship: as soon as the buyer posts the return, or once the shop received it. */
export const EXCHANGE_SHIPS_ON = ['postada', 'recebida'] as const;

/** What an exchange sends out, and the price difference (reais: positive the buyer pays, negative comes back). */
export const ExchangeSchema = z.object({
  itens: z.array(
    z.object({
      item_id: z.number().int(),
      produto: z.string(),
      cor: z.string(),
      tamanho: z.string(),
      quantidade: z.number().int(),
    }),
  ),
  diferenca: z.number(),
  /** True once a positive difference was paid (always true when there is none to pay). */
  diferenca_paga: z.boolean(),
  /** The outbound tracking code once staff shipped the new units. */
  codigo_rastreio: z.string().nullable(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/** One step of a request's history, as the order page lists it. */
export const ReturnEventSchema = z.object({
  status: z.enum(RETURN_STATUSES),
  em: z.string(),
  nota: z.string().nullable(),
});

/** One request as the buyer and staff see it (money in reais). */
export const OrderReturnSchema = z.object({
  id: z.number().int(),
  pedido: z.number().int(),
  tipo: z.enum(RETURN_KINDS),
  status: z.enum(RETURN_STATUSES),
  motivo: z.enum(RECORDED_RETURN_REASONS),
  descricao: z.string().nullable(),
  motivo_recusa: z.string().nullable(),
  codigo_postagem: z.string().nullable(),
  instrucoes: z.string().nullable(),
  itens: z.array(
    z.object({
      item_id: z.number().int(),
      produto: z.string(),
      cor: z.string(),
      tamanho: z.string(),
      quantidade: z.number().int(),
      valor: z.number(),
      voltou_ao_estoque: z.boolean().nullable(),
    }),
  ),
  inscricoes: z.array(z.number().int()),
  valor_reembolsado: z.number(),
  criado_em: z.string(),
  versao: z.number().int(),
  /** The exchange's side (`tipo: 'troca'`), null for other kinds. */
  troca: ExchangeSchema.nullable().optional(),
  /** Every state the request went through, oldest first. */
  historico: z.array(ReturnEventSchema).optional(),
});
export type OrderReturn = z.infer<typeof OrderReturnSchema>;

/** What the order page needs to offer: what is left to withdraw or return, and until when. */
export const OrderAfterSaleSchema = z.object({
  pode_desistir: z.boolean(),
  /** The order's version, sent back with a list of changes (`OrderChangeRequest.versao`). */
  versao: z.number().int(),
  pode_devolver: z.boolean(),
  /** An exchange may be asked (the same window as a return). */
  pode_trocar: z.boolean().optional(),
  /** Last day (aaaa-mm-dd) to return by regret; null before delivery. */
  prazo_arrependimento: z.string().nullable(),
  /** Last day (aaaa-mm-dd) to return for a defect; null before delivery. */
  prazo_defeito: z.string().nullable(),
  entregue_em: z.string().nullable(),
  /** Units of each line not yet withdrawn or returned. */
  restantes: z.array(z.object({ item_id: z.number().int(), quantidade: z.number().int() })),
  /** Paid, and returned so far (in reais): the order's partial refunds. */
  pago: z.number(),
  reembolsado: z.number(),
  solicitacoes: z.array(OrderReturnSchema),
});
export type OrderAfterSale = z.infer<typeof OrderAfterSaleSchema>;

/** A request in the staff queue: the buyer's view plus who, what was paid and what is left. */
export const PainelReturnSchema = OrderReturnSchema.extend({
  cliente: z.string(),
  email: z.string().nullable(),
  pago: z.number(),
  reembolsado: z.number(),
  /** What is still the shop's of the payment: a refund never exceeds it. */
  restante: z.number(),
  /** The refund the rules suggest: the items' value, plus the shipping when the whole order comes back. */
  sugestao: z.number(),
});
export type PainelReturn = z.infer<typeof PainelReturnSchema>;
export const PainelReturnListSchema = z.array(PainelReturnSchema);

const VersionSchema = z.number().int().positive();

/** Staff check the items that arrived: each line back to stock or not. */
export const ReturnReceiveSchema = z.object({
  itens: z
    .array(z.object({ item_id: z.number().int().positive(), estoque: z.boolean() }))
    .min(1)
    .max(50),
  versao: VersionSchema,
});
export type ReturnReceive = z.infer<typeof ReturnReceiveSchema>;

/** Staff return money: any amount up to what is left of the payment (reais, two decimals). */
export const ReturnRefundSchema = z.object({
  valor: z
    .number()
    .positive('Informe um valor maior que zero.')
    .refine((v) => Math.round(v * 100) === v * 100 || Math.abs(Math.round(v * 100) - v * 100) < 1e-6, {
      message: 'Use no máximo duas casas decimais.',
    }),
  versao: VersionSchema,
});
export type ReturnRefund = z.infer<typeof ReturnRefundSchema>;

export const ReturnRefuseSchema = z.object({
  motivo: z.string().trim().min(3, 'Informe o motivo.').max(500),
  versao: VersionSchema,
});
export type ReturnRefuse = z.infer<typeof ReturnRefuseSchema>;

/**
 * Staff send the posting code they issued (when the carrier's service is not integrated): the
 * authorisation's number or the object's code, checked before the customer is told anything.
 */
export const ReturnCodeSchema = z.object({
  codigo: z
    .string({ error: 'Informe o código de postagem.' })
    .trim()
    .toUpperCase()
    .refine(
      isReturnPostingCode,
      'Código de postagem inválido: informe o número da autorização dos Correios (só dígitos) ou o código do objeto com o dígito verificador certo (ex.: LR123456785BR).',
    ),
  versao: VersionSchema,
});
export type ReturnCode = z.infer<typeof ReturnCodeSchema>;

/** Staff mark a return or exchange posted (the buyer handed the parcel to the carrier). */
export const ReturnPostedSchema = z.object({ versao: VersionSchema });
export type ReturnPosted = z.infer<typeof ReturnPostedSchema>;

/** Staff ship an exchange's new units with the carrier's tracking code (UPU S10, checked on the server). */
export const ExchangeShipSchema = z.object({
  codigo_rastreio: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase().replace(/\s+/g, '')),
  versao: VersionSchema,
});
export type ExchangeShip = z.infer<typeof ExchangeShipSchema>;

/** One refund of an order's payment, as the back office's order page lists it (docs/decisions/0040). */
export const OrderRefundRowSchema = z.object({
  id: z.number().int(),
  valor: z.number(),
  /** PENDENTE, ENVIANDO, EM_PROCESSAMENTO, DEVOLVIDO or NAO_REALIZADO. */
  status: z.string(),
  motivo: z.string(),
  /** The staff member who asked for it; null for the shop's own rules (a buyer's withdrawal). */
  por: z.string().nullable(),
  em: z.string(),
  /** The refund at the provider: the devolução id of a Pix, the charge id of a card. */
  id_provedor: z.string().nullable(),
});

/** `GET /api/painel/orders/:id/reembolsos/`: what was paid, returned and is left, and every refund. */
export const OrderRefundsSchema = z.object({
  metodo: z.enum(['pix', 'cartao', 'gratuito']),
  pago: z.number(),
  reembolsado: z.number(),
  restante: z.number(),
  reembolsos: z.array(OrderRefundRowSchema),
});
export type OrderRefunds = z.infer<typeof OrderRefundsSchema>;

/** What the carrier reported of a shipped parcel that never reached the buyer. */
export const CARRIER_RETURNS = ['recusa_total', 'recusa_parcial', 'extravio'] as const;
export type CarrierReturn = (typeof CARRIER_RETURNS)[number];

/**
 * `POST /api/painel/orders/:id/reembolsos/`: refund any amount up to what is left. `reembolsos_vistos` is
 * how many refunds the screen listed: the refund's id is built from it, so the same screen submitted twice
 * refunds once, and a screen that missed a newer refund is told to reload.
 */
export const OrderRefundPartSchema = z.object({
  valor: ReturnRefundSchema.shape.valor,
  motivo: z.string().trim().min(3, 'Informe o motivo.').max(300),
  reembolsos_vistos: z.number().int().min(0),
  /**
   * The refund of a parcel the carrier brought back (docs/decisions/0059, later): refused in full at
   * delivery, refused in part, or lost in transit. It decides the nota the refund gets (NT 2025.002-RTC's
   * tpNFCredito 03 / 06); without it the refund is a price reduced after the sale (tpNFCredito 04).
   */
  retorno_transportadora: z.enum(CARRIER_RETURNS).optional(),
});
export type OrderRefundPart = z.infer<typeof OrderRefundPartSchema>;
