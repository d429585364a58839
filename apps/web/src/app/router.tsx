import { SHOP_ROUTES, type ShopPath } from '@passada/core/routes';
import { type ComponentType, createElement, lazy } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { RootLayout } from './layout/root-layout.tsx';
import { RouteErrorPage } from './route-error-page.tsx';

/** A page component whose code is its own chunk; `preload` fetches it ahead of rendering. */
type LazyPage = ComponentType & { preload(): Promise<unknown> };

/**
 * Every page is its own chunk, loaded when its route is first visited (docs/architecture.md §7).
 * Once loaded it renders directly, without suspending: the server renders the page it preloaded,
 * and the browser preloads the same page before hydrating, so both render the same markup.
 */
function page(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Suspending = lazy(preload);
  const Page = () => createElement(loaded ?? Suspending);
  return Object.assign(Page, { preload });
}

// One wrapper per route, as before the table: moving between two of them mounts the page afresh.
const categoryPage = () => page(() => import('../features/catalog/pages/category-page.tsx'));
const accountPage = () => page(() => import('../features/account/pages/account-page.tsx'));

/**
 * The page of each path of the shop's route table (`@passada/core/routes`, docs/product.md §2), the
 * same table the server writes each page's head from. The type asks for every path of the table and
 * no other, so a page cannot be routed without its head.
 */
const PAGES: Record<ShopPath, LazyPage> = {
  '/': page(() => import('../features/home/home-page.tsx')),
  '/feminino': categoryPage(),
  '/masculino': categoryPage(),
  '/acessorios': categoryPage(),
  '/topavaliados': categoryPage(),
  '/produto/:id': page(() => import('../features/catalog/pages/product-page.tsx')),
  '/pesquisa': page(() => import('../features/catalog/pages/search-page.tsx')),
  '/sobrenos': page(() => import('../features/institutional/about-page.tsx')),
  '/lojas': page(() => import('../features/institutional/stores-page.tsx')),
  '/privacidade': page(() => import('../features/institutional/privacy-page.tsx')),
  '/teste': page(() => import('../features/institutional/test-page.tsx')),
  '/login': page(() => import('../features/account/pages/login-page.tsx')),
  '/criarconta': page(() => import('../features/account/pages/sign-up-page.tsx')),
  '/login/recuperar-senha': page(() => import('../features/account/pages/forgot-password-page.tsx')),
  '/login/redefinir-senha': page(() => import('../features/account/pages/reset-password-page.tsx')),
  '/login/acesso': page(() => import('../features/account/pages/login-link-page.tsx')),
  '/login/confirmar-email': page(() => import('../features/account/pages/confirm-email-page.tsx')),
  '/fechar-pedido': page(() => import('../features/checkout/pages/close-order-page.tsx')),
  '/pagar': page(() => import('../features/checkout/pages/pay-page.tsx')),
  '/eventos': page(() => import('../features/events/pages/events-page.tsx')),
  '/eventos/register/:id': page(() => import('../features/events/pages/event-page.tsx')),
  '/eventos/register/:id/ja-me-inscrevi': page(
    () => import('../features/registration/pages/registration-lookup-page.tsx'),
  ),
  '/eventos/regulamento/:id': page(() => import('../features/events/pages/regulation-page.tsx')),
  '/eventos/lista-espera/:token': page(() => import('../features/events/pages/waitlist-page.tsx')),
  '/eventos/resultados/:id': page(() => import('../features/results/pages/results-page.tsx')),
  '/eventos/resultados/:id/:numero': page(() => import('../features/results/pages/runner-result-page.tsx')),
  '/user': accountPage(),
  '/user/pessoal-data': page(() => import('../features/account/pages/personal-data-page.tsx')),
  '/user/pedidos': page(() => import('../features/orders/pages/orders-page.tsx')),
  '/user/inscricoes': page(() => import('../features/registration/pages/my-registrations-page.tsx')),
  '/user/equipes': page(() => import('../features/teams/pages/my-teams-page.tsx')),
  '/user/:username': accountPage(),
  '/enderecos': page(() => import('../features/account/pages/addresses-page.tsx')),
  '/adicionar-endereco': page(() => import('../features/account/pages/add-address-page.tsx')),
  '/editar-endereco/:id': page(() => import('../features/account/pages/edit-address-page.tsx')),
  '/revisar-pedido': page(() => import('../features/checkout/pages/review-order-page.tsx')),
  '/eventos/register/:id/finalizar': page(
    () => import('../features/registration/pages/finish-registration-page.tsx'),
  ),
  '/inscricoes/transferencia/:token': page(() => import('../features/registration/pages/transfer-page.tsx')),
  '/equipes/vagas/:token': page(() => import('../features/registration/pages/team-claim-page.tsx')),
  '/equipes/convite/:token': page(() => import('../features/teams/pages/team-invite-page.tsx')),
  '/inscricoes/link/:token': page(() => import('../features/registration/pages/participant-link-page.tsx')),
  // The back office: its own frame, route table and chunks, none of them loaded by the shop.
  '/painel/*': page(() => import('../features/painel/shell/painel-app.tsx')),
  '*': page(() => import('../features/institutional/not-found-page.tsx')),
};

/** The shop's pages inside the root layout: `login` ones behind the guard, the catch-all last. */
const shopPage = ({ path }: { path: ShopPath }): RouteObject =>
  path === '/'
    ? { index: true, Component: PAGES['/'] }
    : { path: path.replace(/^\//, ''), Component: PAGES[path] };
/** The pages inside the shop's frame, with or without the login guard (the catch-all goes last). */
const framed = (login: boolean) =>
  SHOP_ROUTES.filter(
    (r) => r.path !== '/painel/*' && r.path !== '*' && Boolean('login' in r && r.login) === login,
  ).map(shopPage);

/** The route table of docs/product.md §2, as react-router objects. */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    children: [
      {
        // Everything inside shows this page, header and footer kept, when a page fails.
        ErrorBoundary: RouteErrorPage,
        children: [
          ...framed(false),
          {
            // The one login guard: a guest is sent to /login?next=… (docs/product.md §5). Its own chunk,
            // like the pages it guards: the home page's code does not carry it.
            Component: page(() =>
              import('../components/require-auth.tsx').then((m) => ({ default: m.RequireAuth })),
            ),
            children: framed(true),
          },
          shopPage({ path: '*' }),
        ],
      },
    ],
  },
  {
    path: '/painel/*',
    ErrorBoundary: RouteErrorPage,
    Component: PAGES['/painel/*'],
  },
];

/** Loads the code of the pages an address shows (before hydrating, or rendering on the server). */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(({ route }) => (route.Component as Partial<LazyPage> | undefined)?.preload?.()),
  );
}
