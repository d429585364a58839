import { Navigate, Outlet, useLocation } from 'react-router';
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

/**
 * The layout route around every page that needs login (app/router.tsx): a guest goes to /login and
 * comes back here afterwards (docs/product.md §5).
 */
export function RequireAuth() {
  const { token } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to={loginPathFor(location)} replace />;
  return <Outlet />;
}
