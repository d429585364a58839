import { isValidCpf } from '../documents.ts';
import { z } from '../zod.ts';
import { IdSchema } from './common.ts';
import { DraftCouponSchema } from './coupon-code.ts';
import { ParticipantSchema } from './registrations.ts';

export const ShippingServiceSchema = z.enum(['PAC', 'SEDEX']);
export type ShippingService = z.infer<typeof ShippingServiceSchema>;

/** How an order was paid; `gratuito`: nothing to pay (docs/decisions/0028). */
export const PaymentMethodSchema = z.enum(['pix', 'cartao', 'gratuito']);
export type PaymentMethodName = z.infer<typeof PaymentMethodSchema>;

/** How people read a payment method (orders, the back office). */
export const PAYMENT_METHOD_LABEL: Record<PaymentMethodName, string> = {
  pix: 'Pix',
  cartao: 'Cartão',
  gratuito: 'Gratuito (sem pagamento)',
};

/** One line of the order draft, as the spec's `orderData` item (section 3). Names and prices are the
 * browser's copy for display; the server reads only product, color, size and quantity. */
export const OrderDraftItemSchema = z.object({
  product: IdSchema,
  quantity: z.number().int().min(1).max(99),
  color: IdSchema,
  size: IdSchema,
  product_name: z.string().optional(),
  product_price: z.number().optional(),
  product_image: z.string().optional(),
  product_size: z.string().optional(),
  product_color: z.string().optional(),
});
export type OrderDraftItem = z.infer<typeof OrderDraftItemSchema>;

export const CART_EMPTY = 'O carrinho está vazio.';

/**
 * What a charge for a shop order pays for: sent as `pedido` to `POST /api/pagar-pix/` and
 * `POST /api/pagar-cartao/` (with `finalidade: 'pedido'`). The server prices it from its own data:
 * products, the shipping quote for the address's CEP and the cart's weight, and the event registrations
 * in the same cart (`inscricoes`, each the participant payload of the direct registration).
 * Address and shipping are asked only when something ships.
 */
const ADDITION_PRODUCTS_ONLY = 'Um acréscimo ao pedido leva só produtos: inscrições vão num pedido à parte.';

export const OrderDraftSchema = z
  .object({
    items: z.array(OrderDraftItemSchema).max(50).default([]),
    /** Event registrations paid with the same charge (a family or a team); the server caps how many. */
    inscricoes: z.array(ParticipantSchema).max(50).default([]),
    /** Id of one of the buyer's addresses (`enderecoEscolhido.id`); required when something ships. */
    address_id: IdSchema.optional(),
    /** Required when something ships. */
    frete: ShippingServiceSchema.optional(),
    metodo_pagamento: PaymentMethodSchema,
    /** A discount coupon's code (any case); the server checks it and prices the discount. */
    cupom: DraftCouponSchema,
    /** Opt-in to WhatsApp messages at the delivery phone (consents.ts, WHATSAPP_CONSENT). */
    whatsapp: z.boolean().default(false),
    /**
     * "CPF na nota": the buyer's CPF the NF-e of the products is issued to (docs/decisions/0048). The
     * checkout asks it for carts with products; without it a card order keeps the card holder's CPF.
     */
    cpf: z
      .string()
      .max(14)
      .refine((v) => isValidCpf(v), 'CPF inválido.')
      .transform((v) => v.replace(/\D/g, ''))
      .optional(),
    /**
     * An addition to one of the buyer's orders not shipped yet (docs/decisions/0087): products only,
     * sent in that order's parcel to its address, with no shipping of its own and no coupon.
     */
    complemento_de: IdSchema.optional(),
  })
  .superRefine((d, ctx) => {
    if (d.items.length === 0 && d.inscricoes.length === 0)
      ctx.addIssue({ code: 'custom', path: ['items'], message: CART_EMPTY });
    if (d.complemento_de !== undefined) {
      if (d.inscricoes.length)
        ctx.addIssue({ code: 'custom', path: ['inscricoes'], message: ADDITION_PRODUCTS_ONLY });
      if (d.cupom)
        ctx.addIssue({
          code: 'custom',
          path: ['cupom'],
          message: 'O cupom não vale para um acréscimo ao pedido.',
        });
      return;
    }
    if (d.items.length === 0) return;
    if (d.address_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['address_id'], message: 'Escolha o endereço de entrega.' });
    if (d.frete === undefined) ctx.addIssue({ code: 'custom', path: ['frete'], message: 'Escolha o frete.' });
  });
export type OrderDraft = z.infer<typeof OrderDraftSchema>;
export type OrderDraftInput = z.input<typeof OrderDraftSchema>;

export const OrderAddressSchema = z.object({
  street: z.string(),
  /** Absent on orders placed before the number had a field of its own (it is in `street`). */
  number: z.string().optional(),
  complement: z.string().optional(),
  neighborhood: z.string(),
  city: z.string(),
  state: z.string(),
  zip_code: z.string(),
  full_name: z.string(),
  phone: z.string(),
});
/** The delivery address as the order keeps it: a copy, so later edits of the address change nothing. */
export type OrderAddress = z.infer<typeof OrderAddressSchema>;

export const ORDER_STATUSES = [
  'aguardando pagamento',
  'pago',
  'em separação',
  'enviado',
  'entregue',
  'cancelado',
  'expirado',
] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

/**
 * Whether an order can still take an addition (docs/decisions/0087): paid or being packed, with
 * something to ship, and not itself an addition. One rule for the buyer's page, staff's and the server,
 * which checks it again under the order's lock.
 */
export function takesAddition(order: { status: OrderStatus; ships: boolean; isAddition: boolean }): boolean {
  return (order.status === 'pago' || order.status === 'em separação') && order.ships && !order.isAddition;
}

/** How people read each status, in the shop and in the back office. */
export const ORDER_STATUS_LABEL: Record<OrderStatus, string> = {
  'aguardando pagamento': 'Aguardando pagamento',
  pago: 'Pago',
  'em separação': 'Em separação',
  enviado: 'Enviado',
  entregue: 'Entregue',
  cancelado: 'Cancelado',
  expirado: 'Expirado',
};

/** An event registration paid with an order, as the order shows it (money in reais). */
export const OrderRegistrationSchema = z.object({
  /** The registration number (the one the kit pickup's QR code carries). */
  id: z.number().int(),
  evento: z.number().int(),
  nome_evento: z.string(),
  nome_completo: z.string(),
  categorias: z.array(z.string()),
  tamanho_camisa: z.string().nullable(),
  total: z.number(),
  /** Cancelled by the shop (with its order): the place and the shirt went back, the money too. */
  cancelada: z.boolean().default(false),
});
export type OrderRegistration = z.infer<typeof OrderRegistrationSchema>;

/**
 * An order as `GET /api/orders/` answers it (spec section 3, plus totals and status). Money in reais.
 * `preco_juros` is what the buyer paid in all (spec section 9: installment × value), so it equals
 * `total`; `juros` is the card interest inside it (0 for Pix and interest-free instalments).
 */
export const OrderSchema = z.object({
  id: z.number().int(),
  /**
   * The lines still in the order: units the buyer withdrew before shipping are taken off (they never
   * ship) and a line wholly withdrawn is left out; returns after delivery stay (those units shipped).
   */
  items: z.array(
    z.object({
      /** The order line's own id: withdrawals and returns name lines by it (docs/decisions/0036). */
      item_id: z.number().int().optional(),
      product: z.number().int(),
      product_image: z.string(),
      product_name: z.string(),
      product_price: z.number(),
      quantity: z.number().int(),
      product_size: z.string(),
      product_color: z.string(),
    }),
  ),
  frete: z.number(),
  /** Null when nothing in the order ships (only event registrations). */
  servico_frete: ShippingServiceSchema.nullable(),
  preco_juros: z.number(),
  juros: z.number(),
  subtotal: z.number(),
  total: z.number(),
  parcelas: z.number().int(),
  metodo_pagamento: PaymentMethodSchema,
  status: OrderStatusSchema,
  order_date: z.string(),
  /** Null when nothing in the order ships. */
  address: OrderAddressSchema.nullable(),
  /** The event registrations paid with this order (absent when there are none). */
  inscricoes: z.array(OrderRegistrationSchema).optional(),
  /** Correios tracking code once shipped, and the page where the buyer follows it. */
  codigo_rastreio: z.string().nullable().optional(),
  rastreio_url: z.string().nullable().optional(),
  /** The discount coupon's code and what it took off the products, in reais (0 without a coupon). */
  cupom: z.string().nullable().optional(),
  desconto: z.number().optional(),
  /** What went back to the buyer from this order's payment so far, in reais (withdrawals, returns, cancellation). */
  reembolsado: z.number().optional(),
  /**
   * Each move of the order after payment ("em separação", "enviado", "entregue", "cancelado"), oldest
   * first, with its instant (ISO): the dates of the buyer's timeline. Absent until the order moves.
   */
  andamento: z.array(z.object({ status: OrderStatusSchema, em: z.string() })).optional(),
  /**
   * docs/decisions/0087: the order this one was added to (its units travel in that parcel), and the
   * paid additions to this one. Absent when neither.
   */
  complemento_de: z.number().int().optional(),
  complementos: z.array(z.number().int()).optional(),
});
export type Order = z.infer<typeof OrderSchema>;

/** `GET /api/orders/`: the signed-in user's orders, newest first. */
export const OrderListSchema = z.array(OrderSchema);

/**
 * `POST /api/orders/`: the browser's call after a payment (spec section 7) carries the spec's order
 * payload plus the `txid` of the paid charge. The order itself was created by the payment's
 * confirmation; this answers it (201) once the charge is paid, whichever arrived first.
 */
export const OrderCreateRequestSchema = z
  .object({
    txid: z.string().min(1).max(80),
    items: z.array(z.unknown()).optional(),
    frete: z.unknown().optional(),
    preco_juros: z.unknown().optional(),
    order_date: z.string().optional(),
    metodo_pagamento: z.string().optional(),
    address: z.unknown().optional(),
  })
  .loose();
export type OrderCreateRequest = z.infer<typeof OrderCreateRequestSchema>;
