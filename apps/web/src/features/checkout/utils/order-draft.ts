import type { Address } from '@passada/core/contracts/accounts';
import type { OrderDraftInput } from '@passada/core/contracts/orders';
import type { Participant } from '@passada/core/contracts/registrations';
import { reaisToCents } from '@passada/core/money';
import type { CartLine } from '../../../lib/cart.ts';
import { readJson, StorageKeys, writeJson } from '../../../lib/storage.ts';

/** One line on the review screen: the spec's order-draft item with the display copy filled in. */
export interface ReviewItem {
  product: number;
  quantity: number;
  color: number;
  size: number;
  product_name: string;
  product_price: number;
  product_image: string;
  product_size: string;
  product_color: string;
}

export interface StoredOrderData {
  user?: unknown;
  items: ReviewItem[];
  order_date?: string;
}

function isItem(value: unknown): value is ReviewItem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.product === 'number' &&
    typeof v.quantity === 'number' &&
    typeof v.color === 'number' &&
    typeof v.size === 'number' &&
    typeof v.product_price === 'number'
  );
}

/** `orderData` from "Comprar agora" (spec §3), or null when there is none or it is unusable. */
export function readOrderData(): StoredOrderData | null {
  const stored = readJson<unknown>(StorageKeys.orderData, null);
  if (typeof stored !== 'object' || stored === null) return null;
  const items = (stored as { items?: unknown }).items;
  if (!Array.isArray(items)) return null;
  const valid = items.filter(isItem);
  if (valid.length === 0) return null;
  return { ...(stored as StoredOrderData), items: valid };
}

export function writeOrderData(data: StoredOrderData): void {
  writeJson(StorageKeys.orderData, data);
}

export function cartLineToItem(line: CartLine): ReviewItem {
  return {
    product: line.id,
    quantity: line.quantity,
    color: line.color,
    size: line.size,
    product_name: line.name,
    product_price: line.price,
    product_image: line.image,
    product_size: line.product_size,
    product_color: line.product_color,
  };
}

export function itemKey(item: Pick<ReviewItem, 'product' | 'color' | 'size'>): string {
  return `${item.product}-${item.color}-${item.size}`;
}

export function itemsSubtotalCents(items: readonly ReviewItem[]): number {
  return items.reduce((sum, i) => sum + reaisToCents(i.product_price) * i.quantity, 0);
}

function isAddress(value: unknown): value is Address {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'number' && typeof v.zip_code === 'string' && typeof v.street === 'string';
}

/** `enderecoEscolhido`, saved by /enderecos' Continuar. */
export function readChosenAddress(): Address | null {
  const stored = readJson<unknown>(StorageKeys.chosenAddress, null);
  return isAddress(stored) ? stored : null;
}

/**
 * The draft the server prices and charges (OrderDraftSchema): it reads only ids and quantities, and
 * the participants of the registrations in the cart. Address and shipping only when something ships.
 */
export function orderDraft(
  items: readonly ReviewItem[],
  delivery: { addressId: number; frete: 'PAC' | 'SEDEX' } | null,
  /** `gratuito`: a cart of total zero, confirmed without a payment (docs/decisions/0028). */
  method: 'pix' | 'cartao' | 'gratuito',
  inscricoes: readonly Participant[] = [],
): OrderDraftInput {
  return {
    items: items.map((i) => ({ ...i })),
    ...(delivery ? { address_id: delivery.addressId, frete: delivery.frete } : {}),
    metodo_pagamento: method,
    ...(inscricoes.length > 0 ? { inscricoes: [...inscricoes] } : {}),
  };
}
