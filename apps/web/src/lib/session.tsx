import type { Profile } from '@passada/core/contracts/accounts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiRequestError, apiFetch } from './api.ts';
import { useHydrated } from './hydration.ts';
import { forgetTurns } from './opening-tab.ts';
import { readString, removeKey, StorageKeys, writeString } from './storage.ts';

export type { Profile } from '@passada/core/contracts/accounts';

export const profileQueryKey = ['profile'] as const;

interface Session {
  token: string | null;
  /** The signed-in user's profile once loaded; null for a visitor or while loading. */
  profile: Profile | null;
  /** True while a token exists but its profile has not arrived yet. */
  profileLoading: boolean;
  signIn(token: string): void;
  /** Revokes the token on the server, then forgets it in the browser (spec §4: logout). */
  signOut(): Promise<void>;
  /** Reloads the profile after the user edits it. */
  refreshProfile(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/**
 * The signed-in state (spec §4: a token in localStorage). Only the `token` key is touched on sign-in
 * and sign-out: the guest cart and the other keys survive both.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [storedToken, setToken] = useState<string | null>(() => readString(StorageKeys.token));
  // A server-rendered page is the guest's page; the saved token applies once the browser has taken it over.
  const token = useHydrated() ? storedToken : null;
  const queryClient = useQueryClient();
  const profileQuery = useQuery({
    queryKey: [...profileQueryKey, token],
    queryFn: () => apiFetch<Profile>('/api/users/profile/'),
    enabled: token !== null,
    retry: false,
  });

  const forget = useCallback(() => {
    removeKey(StorageKeys.token);
    forgetTurns();
    setToken(null);
    queryClient.removeQueries({ queryKey: profileQueryKey });
  }, [queryClient]);

  // An expired or revoked token is as good as none: the browser forgets it.
  const rejected = profileQuery.error instanceof ApiRequestError && profileQuery.error.status === 401;
  useEffect(() => {
    if (rejected) forget();
  }, [rejected, forget]);

  const signIn = useCallback((next: string) => {
    writeString(StorageKeys.token, next);
    forgetTurns();
    setToken(next);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await apiFetch('/api/token-auth/logout/', { method: 'POST' });
    } catch {
      // The browser forgets the token either way; an unreachable server must not keep anyone signed in here.
    }
    forget();
  }, [forget]);

  const refreshProfile = useCallback(
    () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
    [queryClient],
  );

  const value = useMemo<Session>(
    () => ({
      token,
      profile: token ? (profileQuery.data ?? null) : null,
      profileLoading: token !== null && profileQuery.isPending,
      signIn,
      signOut,
      refreshProfile,
    }),
    [token, profileQuery.data, profileQuery.isPending, signIn, signOut, refreshProfile],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/**
 * "Sair" (docs/product.md §4): home first, then the sign-out. The other order would trip an account
 * page's login guard, which sends the shopper to /login?next=… instead of /.
 */
export function useSignOutToHome(): () => Promise<void> {
  const { signOut } = useSession();
  const navigate = useNavigate();
  return useCallback(async () => {
    await navigate('/');
    await signOut();
  }, [navigate, signOut]);
}
