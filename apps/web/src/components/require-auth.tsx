import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session.tsx';

/** `/login?next=<where the guest was>`, so login can bring them back. */
export function loginPathFor(location: { pathname: string; search: string; hash?: string }): string {
  return `/login?next=${encodeURIComponent(`${location.pathname}${location.search}${location.hash ?? ''}`)}`;
}

/** Only same-site paths are followed after login (no open redirect to another host). */
export function safeNextPath(next: string | null): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

/** Shows `children` to a signed-in user; sends a guest to /login and back here afterwards (spec §5). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { token } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to={loginPathFor(location)} replace />;
  return <>{children}</>;
}

/** The hook form of RequireAuth for pages that decide themselves: the login path when a guest, else null. */
export function useLoginRedirect(): string | null {
  const { token } = useSession();
  const location = useLocation();
  return token ? null : loginPathFor(location);
}
