import { z } from 'zod';
import { isS10Code } from '../s10.ts';
import {
  OrderAddressSchema,
  OrderRegistrationSchema,
  type OrderStatus,
  OrderStatusSchema,
  PaymentMethodSchema,
  ShippingServiceSchema,
} from './orders.ts';

/**
 * Where staff may move an order (docs/product.md): pago → em separação → enviado → entregue, and
 * cancelado while nothing has left the shop.
 */
export const ORDER_TRANSITIONS: Partial<Record<OrderStatus, readonly OrderStatus[]>> = {
  pago: ['em separação', 'cancelado'],
  'em separação': ['enviado', 'cancelado'],
  enviado: ['entregue'],
};

/**
 * The moves an order can make. One that ships nothing (only event registrations) is never packed or
 * sent. Cancelling an order that holds registrations cancels them with it (their places and shirts go
 * back), under the same rule as products: only while nothing has shipped.
 */
export function nextOrderStatuses(from: OrderStatus, order: { shipsNothing?: boolean } = {}): OrderStatus[] {
  return (ORDER_TRANSITIONS[from] ?? []).filter((to) => !(order.shipsNothing && to !== 'cancelado'));
}

export function canMoveOrder(
  from: OrderStatus,
  to: OrderStatus,
  order: { shipsNothing?: boolean } = {},
): boolean {
  return nextOrderStatuses(from, order).includes(to);
}

/** Correios object codes: two letters, nine digits, the country (e.g. AB123456785BR), checked as S10. */
export const TrackingCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}\d{9}[A-Z]{2}$/, 'Código de rastreio inválido (ex.: AB123456785BR).')
  .refine(
    isS10Code,
    'Código de rastreio inválido: o dígito verificador não confere. Confira o código na etiqueta dos Correios.',
  );

export function trackingUrl(code: string): string {
  return `https://rastreamento.correios.com.br/app/index.php?objeto=${encodeURIComponent(code)}`;
}

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use aaaa-mm-dd.');

export const PainelOrderQuerySchema = z.object({
  status: OrderStatusSchema.optional(),
  de: isoDay.optional(),
  ate: isoDay.optional(),
  metodo: PaymentMethodSchema.optional(),
  /** Order number, the buyer's or recipient's name, e-mail, or the buyer's CPF (digits or 000.000.000-00). */
  busca: z.string().trim().max(100).optional(),
  pagina: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type PainelOrderQuery = z.input<typeof PainelOrderQuerySchema>;

export const PainelOrderSummarySchema = z.object({
  id: z.number().int(),
  status: OrderStatusSchema,
  data: z.string(),
  /** Who bought: the account's name. */
  cliente: z.string(),
  /** Who receives the parcel, when not the buyer; null otherwise (and for registrations alone). */
  destinatario: z.string().nullable(),
  email: z.string().nullable(),
  metodo_pagamento: PaymentMethodSchema,
  total: z.number(),
  itens: z.number().int(),
});
export type PainelOrderSummary = z.infer<typeof PainelOrderSummarySchema>;

/** The order statuses that are unpaid charges, not orders: an order exists only once paid. */
export const UNPAID_ORDER_STATUSES = ['aguardando pagamento', 'expirado'] as const satisfies OrderStatus[];
export type UnpaidOrderStatus = (typeof UNPAID_ORDER_STATUSES)[number];
export const isUnpaidOrderStatus = (s: OrderStatus | undefined): s is UnpaidOrderStatus =>
  s === 'aguardando pagamento' || s === 'expirado';

/**
 * A shop charge (products, a mixed cart) not paid: still open (`aguardando pagamento`: a Pix waiting or
 * a card under review, holding its units and places) or ended by its deadline (`expirado`: all given
 * back). What the buyer tried to buy is the charge's own snapshot; money in reais.
 */
export const PainelUnpaidChargeSchema = z.object({
  /** The charge's number (no order exists for it). */
  cobranca_id: z.number().int(),
  txid: z.string(),
  status: z.enum(UNPAID_ORDER_STATUSES),
  /** The payment provider's state (ATIVA, EM_ANALISE, EXPIRADA…). */
  situacao: z.string(),
  criada_em: z.string(),
  expira_em: z.string(),
  /** Empty once the buyer's personal data was cleared (LGPD) and the account is gone. */
  cliente: z.string(),
  email: z.string().nullable(),
  metodo_pagamento: PaymentMethodSchema,
  total: z.number(),
  itens: z.array(
    z.object({ nome: z.string(), cor: z.string(), tamanho: z.string(), quantidade: z.number().int() }),
  ),
  /** How many event registrations the cart carries. */
  inscricoes: z.number().int(),
});
export type PainelUnpaidCharge = z.infer<typeof PainelUnpaidChargeSchema>;

export const PainelOrderPageSchema = z.object({
  results: z.array(PainelOrderSummarySchema),
  /** Filled instead of `results` when the filter is `aguardando pagamento` or `expirado`. */
  cobrancas: z.array(PainelUnpaidChargeSchema).default([]),
  count: z.number().int(),
  page_size: z.number().int(),
});

export const OrderTimelineEntrySchema = z.object({
  status: OrderStatusSchema,
  em: z.string(),
  por: z.string().nullable(),
  codigo_rastreio: z.string().nullable(),
});

export const PaymentEventWireSchema = z.object({
  em: z.string(),
  origem: z.string(),
  tipo: z.string(),
});

/** An internal note on an order: who wrote it and when. */
export const OrderNoteSchema = z.object({
  id: z.number().int(),
  texto: z.string(),
  por: z.string(),
  em: z.string(),
});
export type OrderNote = z.infer<typeof OrderNoteSchema>;

export const PainelOrderDetailSchema = z.object({
  id: z.number().int(),
  status: OrderStatusSchema,
  data: z.string(),
  /** `cpf` masked ("***.644.788-**"); null when the order has none (paid by Pix). */
  cliente: z.object({ nome: z.string(), email: z.string().nullable(), cpf: z.string().nullable() }),
  /** The units still to ship (withdrawn ones taken off); `item_id` names the line in a list of changes. */
  itens: z.array(
    z.object({
      item_id: z.number().int().optional(),
      product_id: z.number().int(),
      nome: z.string(),
      cor: z.string(),
      tamanho: z.string(),
      quantidade: z.number().int(),
      preco: z.number(),
    }),
  ),
  /** Null when nothing in the order ships (only event registrations). */
  endereco: OrderAddressSchema.nullable(),
  servico_frete: ShippingServiceSchema.nullable(),
  /** The event registrations paid with this order (a mixed cart); empty when there are none. */
  inscricoes: z.array(OrderRegistrationSchema).default([]),
  subtotal: z.number(),
  frete: z.number(),
  juros: z.number(),
  /** The discount coupon's code and what it took off, in reais (null and 0 without one). */
  cupom: z.string().nullable(),
  desconto: z.number(),
  total: z.number(),
  /** What went back to the buyer from the order's payment so far, in reais (withdrawals, returns, cancellation). */
  reembolsado: z.number().default(0),
  parcelas: z.number().int(),
  metodo_pagamento: PaymentMethodSchema,
  codigo_rastreio: z.string().nullable(),
  rastreio_url: z.string().nullable(),
  pagamento: z.object({
    txid: z.string(),
    status: z.string(),
    pago_em: z.string().nullable(),
    atencao: z.string().nullable(),
    devolucao: z.object({ status: z.string(), valor: z.number(), motivo: z.string() }).nullable(),
    eventos: z.array(PaymentEventWireSchema),
  }),
  linha_do_tempo: z.array(OrderTimelineEntrySchema),
  proximos_status: z.array(OrderStatusSchema),
  /** Staff's internal notes, oldest first: never shown to the buyer. */
  notas: z.array(OrderNoteSchema).default([]),
  /** The order's version, sent back with a list of changes (docs/decisions/0065). */
  versao: z.number().int().optional(),
  /**
   * docs/decisions/0087: the order whose parcel this addition travels in (its status follows that
   * order's), and this order's paid additions (their units are packed with it). Null and empty when none.
   */
  complemento_de: z.number().int().nullable().default(null),
  complementos: z
    .array(z.object({ id: z.number().int(), status: OrderStatusSchema, unidades: z.number().int() }))
    .default([]),
});
export type PainelOrderDetail = z.infer<typeof PainelOrderDetailSchema>;

/**
 * Staff's proposal of an addition to an order not shipped yet (docs/decisions/0087, later): more units of
 * one of the order's products; the buyer gets an e-mail with a link that opens "Acrescentar itens ao
 * pedido" filled in, and pays there. Nothing is held nor charged by the proposal.
 */
export const AdditionOfferSchema = z.object({
  produto: z.number().int().positive(),
  cor_id: z.number().int().positive(),
  tamanho_id: z.number().int().positive(),
  quantidade: z.number().int().min(1, 'Pelo menos 1 unidade.').max(10, 'No máximo 10 unidades.'),
});
export type AdditionOffer = z.infer<typeof AdditionOfferSchema>;

export const AdditionOfferAnswerSchema = z.object({
  /** Where the e-mail went, and what the units cost today (reais); the link the e-mail carries. */
  email: z.string(),
  total: z.number(),
  link: z.string(),
});
export type AdditionOfferAnswer = z.infer<typeof AdditionOfferAnswerSchema>;

export const NewOrderNoteSchema = z.object({
  texto: z.string().trim().min(1, 'Escreva a nota.').max(2000, 'Use no máximo 2.000 caracteres.'),
});

/** The list's filters without its page: what the CSV export takes. */
export const PainelOrderExportQuerySchema = PainelOrderQuerySchema.omit({ pagina: true });
export type PainelOrderExportQuery = z.input<typeof PainelOrderExportQuerySchema>;

export const OrderStatusChangeSchema = z
  .object({
    status: OrderStatusSchema,
    codigo_rastreio: TrackingCodeSchema.optional(),
    motivo: z.string().trim().max(300).optional(),
  })
  .refine((b) => b.status !== 'enviado' || b.codigo_rastreio, {
    message: 'Informe o código de rastreio dos Correios.',
    path: ['codigo_rastreio'],
  });
export type OrderStatusChange = z.input<typeof OrderStatusChangeSchema>;

const SalesSchema = z.object({ loja: z.number(), inscricoes: z.number() });

export const DashboardSchema = z.object({
  vendas: z.object({ hoje: SalesSchema, dias_7: SalesSchema, dias_30: SalesSchema }),
  /**
   * One entry per day of the last 30, oldest first (store time zone): what was paid that day, less what
   * of it went back since, under the shop (orders, exchanges' differences) and registrations (with
   * transfers and changes of distance).
   */
  vendas_por_dia: z.array(z.object({ dia: z.string(), loja: z.number(), inscricoes: z.number() })),
  /**
   * The last 30 days, in reais: gross is every charge paid (orders, exchanges' differences,
   * registrations, transfers and changes of distance), refunded what of it went back, net the two
   * apart (equal to `vendas.dias_30` summed); `pedidos` the orders paid and `ticket_medio` their
   * own charges' average.
   */
  pedidos_30_dias: z.object({
    pedidos: z.number().int(),
    bruto: z.number(),
    devolvido: z.number(),
    liquido: z.number(),
    ticket_medio: z.number(),
  }),
  aguardando_envio: z.number().int(),
  estoque_baixo: z.array(
    z.object({
      product_id: z.number().int(),
      produto: z.string(),
      cor: z.string(),
      tamanho: z.string(),
      quantidade: z.number().int(),
    }),
  ),
  inscricoes_por_evento: z.array(
    z.object({
      evento_id: z.number().int(),
      evento: z.string(),
      inscritos: z.number().int(),
      /** Of those, the ones with nothing to pay (free race, 60+ of R$ 0,01, coupon of 100%). */
      gratuitas: z.number().int(),
    }),
  ),
  atencao: z.array(
    z.object({
      txid: z.string(),
      metodo: z.string(),
      status: z.string(),
      motivo: z.string(),
      valor: z.number(),
      pedido_id: z.number().int().nullable(),
    }),
  ),
  /** The Pix webhook registration at the provider: `erro` means confirmations may not arrive. */
  webhook_pix: z.enum(['ok', 'erro', 'pendente', 'desativado']),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

/**
 * The packing slip of an order (`GET /orders/{id}/romaneio/`): who sends, who receives, what to pick
 * and pack, and a Code 128 barcode of the order number (an SVG drawn on the server).
 */
export const PackingSlipSchema = z.object({
  pedido: z.number().int(),
  data: z.string(),
  servico_frete: ShippingServiceSchema.nullable(),
  remetente: z.object({
    nome: z.string(),
    razao_social: z.string(),
    cnpj: z.string(),
    endereco: z.string(),
    telefone: z.string(),
  }),
  /** Null when nothing in the order ships (only event registrations). */
  destinatario: z
    .object({
      nome: z.string(),
      endereco: z.string(),
      bairro: z.string(),
      cidade: z.string(),
      uf: z.string(),
      cep: z.string(),
      telefone: z.string(),
    })
    .nullable(),
  itens: z.array(
    z.object({
      sku: z.string(),
      nome: z.string(),
      cor: z.string(),
      tamanho: z.string(),
      quantidade: z.number().int(),
    }),
  ),
  /** Event registrations in the same order (nothing to pack for them). */
  inscricoes: z.number().int(),
  codigo_barras: z.object({ formato: z.literal('code128'), texto: z.string(), svg: z.string() }),
});
export type PackingSlip = z.infer<typeof PackingSlipSchema>;
