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

/** The same page with `?next=` kept, so login and sign-up hand the guest on to where they were going. */
export function withNext(path: string, next: string): string {
  return next === '/' ? path : `${path}?next=${encodeURIComponent(next)}`;
}

/** Why the login stands in the way, said on it: the page the guest was going to needs an account. */
export function loginReason(next: string): string | null {
  if (next.startsWith('/inscricoes/transferencia/'))
    return 'Uma inscrição foi transferida para você. Entre na sua conta (ou crie uma) para concluí-la: depois disso você volta ao link do e-mail.';
  if (next.startsWith('/eventos/register/'))
    return 'As inscrições são feitas pela sua conta. Entre (ou crie uma conta) e você volta à inscrição.';
  if (next.startsWith('/revisar-pedido')) return 'Entre (ou crie uma conta) para finalizar o pedido.';
  if (next === '/') return null;
  return 'Esta página é da sua conta. Entre (ou crie uma conta) e você volta a ela.';
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
