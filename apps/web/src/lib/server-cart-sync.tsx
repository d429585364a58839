import { useEffect } from 'react';
import { followAccount } from './server-cart.ts';
import { useSession } from './session.tsx';

/**
 * The pages where a cart is seen or changed (the product, the cart, the order's review, the account)
 * keep it on the server while someone is signed in (their profile read, so the token is good). Not in
 * the first script every page loads: a visitor who never signs in never loads it.
 */
export function useServerCartSync(): void {
  const { token, profile, profileLoading } = useSession();
  useEffect(() => {
    if (!profileLoading) followAccount(token !== null && profile !== null ? token : null);
  }, [token, profile, profileLoading]);
}
