import { StorageKeys } from './storage.ts';
import { createStoredList, useStoredList } from './stored-list.ts';

/**
 * The cart's lines as every page's header counts them (lib/cart.ts changes them; apart so the first
 * script of every page carries only the count).
 */

/** A cart line exactly as the spec's section 3 stores it under `cart` (price in reais). */
export interface CartLine {
  id: number;
  name: string;
  price: number;
  image: string;
  quantity: number;
  /** Size id. */
  size: number;
  /** Colour id. */
  color: number;
  product_size: string;
  product_color: string;
}

export const cartStore = createStoredList<CartLine>(StorageKeys.cart, isCartLine);

function isCartLine(value: unknown): value is CartLine {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'number' &&
    typeof v.price === 'number' &&
    typeof v.quantity === 'number' &&
    typeof v.size === 'number' &&
    typeof v.color === 'number'
  );
}

/** The server's HTML (and the browser's hydration of it) shows an empty cart; the saved one follows. */
export function useCart(): readonly CartLine[] {
  return useStoredList(cartStore);
}

/** The header badge: the sum of quantities, not the number of lines (spec §2). */
export function itemCount(cartLines: readonly CartLine[]): number {
  return cartLines.reduce((sum, l) => sum + l.quantity, 0);
}
