import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetch-mock.test-utils.ts';
import { cart } from './cart.ts';
import type { CartLine } from './cart-store.ts';
import { followAccount, startServerCartSync } from './server-cart.ts';

const shirt: CartLine = {
  id: 7,
  name: 'Camiseta Jangada',
  price: 99.9,
  image: '/media/camiseta.webp',
  quantity: 1,
  size: 2,
  color: 3,
  product_size: 'M',
  product_color: 'Preto',
};
const cap = { ...shirt, id: 9, name: 'Boné Maré', price: 49.9, size: 5, color: 6, product_size: 'U' };
const server = (lines: CartLine[]) => ({
  status: 200,
  body: { itens: lines.map((l) => ({ ...l, disponivel: 4 })), lembretes: true },
});

describe('the cart kept on the server', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    cart.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('joins the browser’s cart on signing in, takes today’s prices, then saves each change once it settles', async () => {
    cart.add(shirt);
    // The kept cart had the cap; the shirt's price went down since the browser saw it.
    const calls = mockFetch((call) =>
      call.url === '/api/carrinho/mesclar/' ? server([{ ...shirt, price: 89.9 }, cap]) : server([]),
    );
    const stop = startServerCartSync('token-da-ana', { delayMs: 500 });
    await vi.waitFor(() => expect(cart.getSnapshot()).toHaveLength(2));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      body: { itens: [{ produto: 7, cor: 3, tamanho: 2, quantidade: 1 }] },
      headers: { authorization: 'Token token-da-ana' },
    });
    expect(cart.getSnapshot().find((l) => l.id === 7)?.price).toBe(89.9);
    // The merge's answer is the cart: nothing is sent back for it.
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(1);

    // Three quick changes: one save, with the last state.
    cart.increment('7-3-2');
    cart.increment('7-3-2');
    cart.remove('9-6-5');
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls[1]).toMatchObject({
      method: 'PUT',
      url: '/api/carrinho/',
      body: { itens: [{ produto: 7, cor: 3, tamanho: 2, quantidade: 3 }] },
    });

    // Signed out: changes stay in the browser.
    stop();
    cart.clear();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(2);
  });

  it('keeps a piece added while the sign-in’s join is on its way: it joins again with it', async () => {
    // The kept cart has the cap; the browser's is empty when the join leaves.
    const calls = mockFetch((call) => {
      if (call.url !== '/api/carrinho/mesclar/') return server([]);
      const items = (call.body as { itens: Array<{ produto: number }> }).itens;
      return server(items.some((i) => i.produto === 7) ? [cap, shirt] : [cap]);
    });
    const stop = startServerCartSync('token-da-ana', { delayMs: 100 });
    // The buyer adds the shirt before the first answer is read.
    cart.add(shirt);
    await vi.waitFor(() =>
      expect(
        cart
          .getSnapshot()
          .map((l) => l.id)
          .sort(),
      ).toEqual([7, 9]),
    );
    expect(calls.filter((c) => c.url === '/api/carrinho/mesclar/')).toHaveLength(2);
    stop();
  });

  it('keeps the browser’s cart when the server cannot be reached, and saves it with the next change', async () => {
    cart.add(shirt);
    let down = true;
    const calls = mockFetch(() => (down ? 'network' : server([])));
    const stop = startServerCartSync('token-da-ana', { delayMs: 100 });
    await vi.advanceTimersByTimeAsync(10);
    expect(cart.getSnapshot()).toEqual([shirt]);
    down = false;
    cart.add(cap);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls.at(-1)).toMatchObject({
      method: 'PUT',
      body: { itens: [expect.anything(), expect.anything()] },
    });
    stop();
  });

  it('follows one account from page to page: one join per sign-in, stopped on signing out', async () => {
    const calls = mockFetch(() => server([]));
    followAccount('token-da-ana');
    followAccount('token-da-ana');
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.filter((c) => c.url === '/api/carrinho/mesclar/')).toHaveLength(1);
    followAccount(null);
    cart.add(shirt);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(1);
    followAccount('token-do-bruno');
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.at(-1)).toMatchObject({
      url: '/api/carrinho/mesclar/',
      headers: { authorization: 'Token token-do-bruno' },
    });
    followAccount(null);
  });
});
