import { useLocation, useRoutes } from 'react-router';
import { PageErrorBoundary } from './route-error-page.tsx';
import { routes } from './router.tsx';

/**
 * The route table rendered by a plain `<BrowserRouter>` (or `<StaticRouter>` on the server): the
 * smaller, declarative side of react-router, as the app loads no data through the router.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return <PageErrorBoundary resetKey={pathname}>{useRoutes(routes)}</PageErrorBoundary>;
}
