import { beforeEach, describe, expect, it } from 'vitest';
import { type CartLine, cart, itemCount, lineKey, subtotalCents } from './cart.ts';

function makeLine(overrides: Partial<CartLine> = {}): CartLine {
  return {
    id: 1,
    name: 'Camiseta Dry-Fit Sertão Veloz',
    price: 99.9,
    image: '/api/media/products/camiseta.svg',
    quantity: 1,
    size: 2,
    color: 1,
    product_size: 'M',
    product_color: 'Preto',
    ...overrides,
  };
}

const stored = () => JSON.parse(localStorage.getItem('cart') ?? 'null') as CartLine[] | null;

describe('cart store', () => {
  beforeEach(() => {
    localStorage.clear();
    cart.clear();
  });

  it('saves every change at once under `cart`, with exactly the spec line fields', () => {
    cart.add(makeLine({ quantity: 2 }));
    const lines = stored();
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines![0]!).sort()).toEqual(
      ['color', 'id', 'image', 'name', 'price', 'product_color', 'product_size', 'quantity', 'size'].sort(),
    );
    expect(lines![0]!.quantity).toBe(2);
  });

  it('merges the same product, colour and size, adding quantities', () => {
    cart.add(makeLine({ quantity: 2 }));
    cart.add(makeLine({ quantity: 3 }));
    expect(cart.getSnapshot()).toHaveLength(1);
    expect(cart.getSnapshot()[0]!.quantity).toBe(5);
  });

  it('keeps another colour or size of the same product as its own line', () => {
    cart.add(makeLine());
    cart.add(makeLine({ color: 4, product_color: 'Coral' }));
    cart.add(makeLine({ size: 3, product_size: 'G' }));
    expect(cart.getSnapshot()).toHaveLength(3);
    expect(itemCount(cart.getSnapshot())).toBe(3);
  });

  it('increments without limit and never decrements below 1', () => {
    const line = makeLine();
    cart.add(line);
    const key = lineKey(line);
    for (let i = 0; i < 120; i++) cart.increment(key);
    expect(cart.getSnapshot()[0]!.quantity).toBe(121);
    for (let i = 0; i < 200; i++) cart.decrement(key);
    expect(cart.getSnapshot()[0]!.quantity).toBe(1);
    expect(stored()![0]!.quantity).toBe(1);
  });

  it('removes a line and touches only that one', () => {
    const a = makeLine();
    const b = makeLine({ id: 2, name: 'Boné Sol do Meio-Dia' });
    cart.add(a);
    cart.add(b);
    cart.remove(lineKey(a));
    expect(cart.getSnapshot().map((l) => l.id)).toEqual([2]);
    expect(stored()!.map((l) => l.id)).toEqual([2]);
  });

  it('counts quantities for the badge and sums the subtotal in centavos', () => {
    cart.add(makeLine({ quantity: 2, price: 99.9 }));
    cart.add(makeLine({ id: 2, quantity: 1, price: 0.1 }));
    expect(itemCount(cart.getSnapshot())).toBe(3);
    // 2 × 99,90 + 0,10 = 199,90, without floating-point drift.
    expect(subtotalCents(cart.getSnapshot())).toBe(19990);
  });

  it('notifies subscribers and reloads from storage, ignoring garbage', () => {
    let calls = 0;
    const unsubscribe = cart.subscribe(() => calls++);
    cart.add(makeLine());
    expect(calls).toBe(1);
    localStorage.setItem('cart', JSON.stringify([makeLine({ id: 7 }), { nonsense: true }, 3]));
    cart.reload();
    expect(calls).toBe(2);
    expect(cart.getSnapshot().map((l) => l.id)).toEqual([7]);
    localStorage.setItem('cart', '{not json');
    cart.reload();
    expect(cart.getSnapshot()).toEqual([]);
    unsubscribe();
  });
});
