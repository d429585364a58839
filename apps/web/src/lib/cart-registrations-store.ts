import type { Participant } from '@passada/core/contracts/registrations';
import { StorageKeys } from './storage.ts';
import { createStoredList, useStoredList } from './stored-list.ts';

/**
 * The registrations waiting in the cart, as every page's header counts them (lib/cart-registrations.ts
 * adds and removes; apart so the first script of every page carries only the count).
 */

/**
 * An event registration waiting in the cart: the participant payload the server checks and prices
 * again when the cart is paid, and what the cart shows of it. Kept in localStorage like the cart
 * (`inscricoesCarrinho`), so both survive a reload and follow each other across tabs; cleared when
 * the order is paid.
 */
export interface CartRegistration {
  /** A random key for the line (one person may be in the cart for two events). */
  key: string;
  nome_evento: string;
  /** Names of the chosen categories, in the order of `participant.categoria_evento`. */
  categorias: string[];
  /** The shirt size's name, when the kit has sizes. */
  tamanho: string | null;
  /** The special price's name when one was chosen (its proof already sent; docs/decisions/0068). */
  preco_especial?: string | null;
  participant: Participant;
}

export const cartRegistrationsStore = createStoredList<CartRegistration>(
  StorageKeys.cartRegistrations,
  isLine,
);

function isLine(value: unknown): value is CartRegistration {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const p = v.participant as Record<string, unknown> | undefined;
  return (
    typeof v.key === 'string' &&
    typeof p === 'object' &&
    p !== null &&
    typeof p.evento === 'number' &&
    Array.isArray(p.categoria_evento)
  );
}

/** Like `useCart`: the server's HTML shows none; the saved ones follow after hydration. */
export function useCartRegistrations(): readonly CartRegistration[] {
  return useStoredList(cartRegistrationsStore);
}
