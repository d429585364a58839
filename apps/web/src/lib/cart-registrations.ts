import type { Participant } from '@passada/core/contracts/registrations';
import { StorageKeys } from './storage.ts';
import { createStoredList, useStoredList } from './stored-list.ts';

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
  participant: Participant;
}

const store = createStoredList<CartRegistration>(StorageKeys.cartRegistrations, isLine);

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

export const cartRegistrations = {
  getSnapshot: store.get,
  /**
   * Puts a participant in the cart. The same person for the same event is one line (the server refuses
   * them twice): the new categories join the ones already there, and a new choice for a race day
   * replaces the earlier one of that day (one category per day); the newest form data wins. Says which
   * it did, so the page can tell the buyer.
   */
  add(
    line: Omit<CartRegistration, 'key'>,
    dayOf: (categoryId: number) => string | undefined,
  ): 'added' | 'merged' {
    const same = (l: CartRegistration) =>
      l.participant.cpf === line.participant.cpf && l.participant.evento === line.participant.evento;
    const earlier = store.get().find(same);
    let next = line;
    if (earlier) {
      const newDays = new Set(line.participant.categoria_evento.map(dayOf));
      const kept = earlier.participant.categoria_evento
        .map((id, i) => ({ id, name: earlier.categorias[i] ?? '' }))
        .filter(({ id }) => !line.participant.categoria_evento.includes(id) && !newDays.has(dayOf(id)));
      next = {
        ...line,
        categorias: [...kept.map((k) => k.name), ...line.categorias],
        participant: {
          ...line.participant,
          categoria_evento: [...kept.map((k) => k.id), ...line.participant.categoria_evento],
        },
      };
    }
    store.set([
      ...store.get().filter((l) => !same(l)),
      { ...next, key: `${Date.now()}-${Math.random().toString(36).slice(2)}` },
    ]);
    return earlier ? 'merged' : 'added';
  },
  remove(key: string): void {
    store.set(store.get().filter((l) => l.key !== key));
  },
  clear(): void {
    store.set([]);
  },
};

/** Like `useCart`: the server's HTML shows none; the saved ones follow after hydration. */
export function useCartRegistrations(): readonly CartRegistration[] {
  return useStoredList(store);
}
