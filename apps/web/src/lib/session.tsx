import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { apiFetch } from './api.ts';
import { readString, removeKey, StorageKeys, writeString } from './storage.ts';

export interface Profile {
  username: string;
  email: string;
  full_name: string;
}

interface Session {
  token: string | null;
  /** The signed-in user's profile once loaded; null for a visitor or while loading. */
  profile: Profile | null;
  signIn(token: string): void;
  /** Revokes the token on the server, then forgets it in the browser (spec §4: logout). */
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(() => readString(StorageKeys.token));
  const queryClient = useQueryClient();
  const profileQuery = useQuery({
    queryKey: ['profile', token],
    queryFn: () => apiFetch<Profile>('/api/users/profile/'),
    enabled: token !== null,
    retry: false,
  });

  const signIn = useCallback((next: string) => {
    writeString(StorageKeys.token, next);
    setToken(next);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await apiFetch('/api/token-auth/logout/', { method: 'POST' });
    } catch {
      // The browser forgets the token either way; an unreachable server must not keep anyone signed in here.
    }
    removeKey(StorageKeys.token);
    setToken(null);
    queryClient.removeQueries({ queryKey: ['profile'] });
  }, [queryClient]);

  const value = useMemo<Session>(
    () => ({ token, profile: token ? (profileQuery.data ?? null) : null, signIn, signOut }),
    [token, profileQuery.data, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
