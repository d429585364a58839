import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while the page is rendered on the server and while the browser hydrates that HTML, true
 * afterwards (and from the start on pages the browser renders itself). What only the browser knows
 * (the saved token, the cart, the theme) waits for it, so the first browser render matches the
 * server's HTML exactly.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
