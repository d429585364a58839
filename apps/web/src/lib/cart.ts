import { reaisToCents } from '@passada/core/money';
import { type CartLine, cartStore as store } from './cart-store.ts';

export { type CartLine, itemCount, useCart } from './cart-store.ts';

/** Every change is saved at once (spec §4), then subscribers re-render. */
const commit = (next: CartLine[]) => store.set(next);
const current = () => store.get();

function sameLine(a: Pick<CartLine, 'id' | 'color' | 'size'>, b: Pick<CartLine, 'id' | 'color' | 'size'>) {
  return a.id === b.id && a.color === b.color && a.size === b.size;
}

/** A stable key for one product + colour + size, for React lists and for the operations below. */
export function lineKey(line: Pick<CartLine, 'id' | 'color' | 'size'>): string {
  return `${line.id}-${line.color}-${line.size}`;
}

export const cart = {
  getSnapshot: current,
  subscribe: store.subscribe,
  /** The same product, colour and size merges into one line, adding the quantities. */
  add(line: CartLine): void {
    const quantity = Math.max(1, Math.floor(line.quantity));
    const existing = current().find((l) => sameLine(l, line));
    if (existing) {
      commit(current().map((l) => (l === existing ? { ...l, quantity: l.quantity + quantity } : l)));
    } else {
      commit([...current(), { ...line, quantity }]);
    }
  },
  /** No upper bound (spec §9). */
  increment(key: string): void {
    commit(current().map((l) => (lineKey(l) === key ? { ...l, quantity: l.quantity + 1 } : l)));
  },
  /** Stops at 1: the trash button is the way to remove a line. */
  decrement(key: string): void {
    commit(
      current().map((l) => (lineKey(l) === key && l.quantity > 1 ? { ...l, quantity: l.quantity - 1 } : l)),
    );
  },
  /** The review page's stepper: a whole number from 1 up. */
  setQuantity(key: string, quantity: number): void {
    const next = Math.max(1, Math.floor(quantity));
    commit(current().map((l) => (lineKey(l) === key ? { ...l, quantity: next } : l)));
  },
  remove(key: string): void {
    commit(current().filter((l) => lineKey(l) !== key));
  },
  clear(): void {
    commit([]);
  },
  /** Re-reads storage, e.g. when another tab changed the cart. */
  reload: store.reload,
};

export function subtotalCents(cartLines: readonly CartLine[]): number {
  return cartLines.reduce((sum, l) => sum + reaisToCents(l.price) * l.quantity, 0);
}
