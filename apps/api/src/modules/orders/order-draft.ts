import { NO_NUMBER } from '@passada/core/address';
import type { Product } from '@passada/core/contracts/catalog';
import { type OrderAddress, OrderAddressSchema, type OrderDraft } from '@passada/core/contracts/orders';
import { plural } from '@passada/core/plural';
import { photosForColor } from '@passada/core/product-photos';
import { z } from 'zod';
import type { BillingAddress } from '../../providers/payments/index.ts';
import type { RegistrationDraft } from '../registrations/registrations.service.ts';
import type * as repo from './orders.repository.ts';

// The order charge's stored draft and the small pure helpers of an order's lines, address and payment
// (split from orders.service.ts; every module file imports them from here or through it).

/**
 * What an order charge carries from its creation to its fulfilment, all computed by the server: the
 * order is built from this snapshot, so later edits of products, prices or the address change nothing.
 */
const StoredOrderDraftSchema = z.object({
  /** Absent once cleared (LGPD: the charge ended unpaid, or the account was deleted). */
  buyer: z.object({ name: z.string(), email: z.string(), cpf: z.string().optional() }).optional(),
  items: z.array(
    z.object({
      productId: z.number().int(),
      colorId: z.number().int(),
      sizeId: z.number().int(),
      quantity: z.number().int().positive(),
      name: z.string(),
      priceCents: z.number().int(),
      image: z.string(),
      colorName: z.string(),
      sizeName: z.string(),
    }),
  ),
  /** Absent when nothing ships (only event registrations). */
  addressId: z.number().int().optional(),
  /** Absent once cleared, like `buyer`, or when nothing ships; the order keeps its own copy. */
  address: OrderAddressSchema.optional(),
  /** Absent when nothing ships. */
  shipping: z
    .object({
      service: z.enum(['PAC', 'SEDEX']),
      priceCents: z.number().int(),
      businessDays: z.number().int(),
      latestDate: z.string(),
    })
    .optional(),
  /** The products' total, before shipping and coupon. */
  subtotalCents: z.number().int(),
  /**
   * An addition to this order, not shipped yet (docs/decisions/0087): no shipping of its own; `address`
   * is that order's, and its shipping service is read from it when paid.
   */
  complementOf: z.number().int().optional(),
  /**
   * The event registrations of the cart, as the registrations module priced them (their personal
   * data stripped once cleared); their total is inside the charge's amount.
   */
  participants: z.array(z.custom<RegistrationDraft>()).default([]),
  /** The WhatsApp opt-in ticked at checkout: the consent text's version and when (LGPD art. 8). */
  whatsappConsent: z.object({ version: z.string(), at: z.string() }).optional(),
  /** The discount coupon priced for this cart; the charge's amount is already net of it. */
  coupon: z
    .object({
      couponId: z.number().int(),
      code: z.string(),
      discountCents: z.number().int(),
      label: z.string(),
      userId: z.number().int(),
    })
    .optional(),
});
export type StoredOrderDraft = z.infer<typeof StoredOrderDraftSchema>;
export type StoredOrderItem = StoredOrderDraft['items'][number];

export function parseStoredDraft(draft: unknown): StoredOrderDraft {
  return StoredOrderDraftSchema.parse(draft);
}

export const comboKey = (l: { product: number; color: number; size: number }) =>
  `${l.product}:${l.color}:${l.size}`;

/** The same combination twice in a cart is one line: one conditional UPDATE per row of `stock`. */
export function mergeLines(items: OrderDraft['items']) {
  const merged = new Map<string, { product: number; color: number; size: number; quantity: number }>();
  for (const item of items) {
    const key = comboKey(item);
    const line = merged.get(key);
    if (line) line.quantity += item.quantity;
    else
      merged.set(key, { product: item.product, color: item.color, size: item.size, quantity: item.quantity });
  }
  return [...merged.values()];
}

/**
 * Efí needs street and number apart: the address's own number, or for an address kept before it had a
 * field of its own, "Av. Beira Mar, 100" → number "100".
 */
export function billingAddress(a: OrderAddress): BillingAddress {
  const m = a.number ? null : /^(.*?),\s*(\d[\w-]*)\b/.exec(a.street);
  return {
    street: (m?.[1] ?? a.street).slice(0, 200),
    number: a.number || (m?.[2] ?? NO_NUMBER),
    neighborhood: a.neighborhood,
    zipcode: a.zip_code.replace(/\D/g, ''),
    city: a.city,
    state: a.state,
  };
}

/** PAC or SEDEX as stored; null when nothing in the order ships. */
export function shippingServiceOf(row: Pick<repo.OrderRow, 'shippingService'>): 'PAC' | 'SEDEX' | null {
  if (row.shippingService === null) return null;
  return row.shippingService === 'SEDEX' ? 'SEDEX' : 'PAC';
}

/** How the order was paid, as the wire names it (`gratuito`: a cart of total zero, docs/decisions/0028). */
export function paymentMethodOf(row: Pick<repo.OrderRow, 'paymentMethod'>): 'pix' | 'cartao' | 'gratuito' {
  return row.paymentMethod === 'cartao' || row.paymentMethod === 'gratuito' ? row.paymentMethod : 'pix';
}

export const itemsLabel = (n: number) => plural(n, 'item', 'itens');

/** The line's thumbnail: a picture of the colour bought (a black top shows black), else the first. */
export function boughtColourImage(product: Product, color: { id: number; name: string }): string {
  const colors = [...new Map(product.stock.map((s) => [s.color.id, s.color])).values()];
  return photosForColor(product.photos, color, colors)[0]?.url ?? product.images[0] ?? '';
}
