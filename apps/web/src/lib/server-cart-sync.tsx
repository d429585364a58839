import { useEffect } from 'react';
import { startServerCartSync } from './server-cart.ts';
import { useSession } from './session.tsx';

/** While someone is signed in (their profile read, so the token is good), their cart is kept on the server. */
export function ServerCartSync(): null {
  const { token, profile } = useSession();
  const signedIn = token !== null && profile !== null;
  useEffect(() => (signedIn && token ? startServerCartSync(token) : undefined), [signedIn, token]);
  return null;
}
