import type { ServerCart, ServerCartLine } from '@passada/core/contracts/cart';
import { apiFetch } from './api.ts';
import { type CartLine, cartStore } from './cart-store.ts';

/** The cart's lines as the server keeps them: only what names the piece and how many. */
export function cartItems(lines: readonly CartLine[]) {
  return lines.map((l) => ({
    produto: l.id,
    cor: l.color,
    tamanho: l.size,
    quantidade: Math.min(99, Math.max(1, Math.floor(l.quantity))),
  }));
}

/** The server's lines (today's prices and names) in the browser's cart shape. */
export function fromServer(lines: readonly ServerCartLine[]): CartLine[] {
  return lines.map(({ disponivel: _units, ...line }) => line);
}

const signature = (lines: readonly CartLine[]) => JSON.stringify(cartItems(lines));

/**
 * Keeps a signed-in buyer's cart on the server, so the cart left on the phone is on the computer and a
 * forgotten cart can be reminded: on signing in the browser's cart joins the kept one (and takes today's
 * prices), then every change is saved a moment after the last one. Answers the function that stops it.
 */
export function startServerCartSync(token: string, options: { delayMs?: number } = {}): () => void {
  const delayMs = options.delayMs ?? 800;
  /** The cart as last sent; a change that leaves it equal sends nothing. */
  let saved = '';
  /** Until the sign-in's join answers, its answer is the cart. */
  let merging = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const save = () => {
    const lines = cartStore.get();
    saved = signature(lines);
    apiFetch<ServerCart>('/api/carrinho/', { method: 'PUT', body: { itens: cartItems(lines) }, token }).catch(
      () => {
        // Saved again with the next change; the browser's cart is untouched.
        saved = '';
      },
    );
  };

  const join = () => {
    const sent = signature(cartStore.get());
    apiFetch<ServerCart>('/api/carrinho/mesclar/', {
      method: 'POST',
      body: { itens: cartItems(cartStore.get()) },
      token,
    }).then(
      (cart) => {
        if (stopped) return;
        // A piece added while the join was on its way would be lost under its answer: join again with
        // the cart as it is now (the join keeps each line's larger quantity, so asking twice adds nothing).
        if (signature(cartStore.get()) !== sent) {
          join();
          return;
        }
        merging = false;
        const merged = fromServer(cart.itens);
        saved = signature(merged);
        if (signature(cartStore.get()) !== saved) cartStore.set(merged);
      },
      () => {
        // The server cannot be reached: the browser's cart stays as it is and is saved on the next change.
        merging = false;
      },
    );
  };
  join();

  const unsubscribe = cartStore.subscribe(() => {
    if (stopped || merging || signature(cartStore.get()) === saved) return;
    clearTimeout(timer);
    timer = setTimeout(save, delayMs);
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
  };
}

let following: { token: string; stop: () => void } | null = null;

/**
 * Keeps the cart following `token`'s account (null: nobody signed in): started once per account and
 * left running from page to page; another account or signing out stops it.
 */
export function followAccount(token: string | null): void {
  if (following?.token === token) return;
  following?.stop();
  following = token ? { token, stop: startServerCartSync(token) } : null;
}
