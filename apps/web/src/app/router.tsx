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

/** The spec's route table (section 2). */
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
          { index: true, Component: page(() => import('../features/home/home-page.tsx')) },
          { path: 'feminino', Component: page(() => import('../features/catalog/pages/category-page.tsx')) },
          { path: 'masculino', Component: page(() => import('../features/catalog/pages/category-page.tsx')) },
          {
            path: 'acessorios',
            Component: page(() => import('../features/catalog/pages/category-page.tsx')),
          },
          {
            path: 'topavaliados',
            Component: page(() => import('../features/catalog/pages/category-page.tsx')),
          },
          {
            path: 'produto/:id',
            Component: page(() => import('../features/catalog/pages/product-page.tsx')),
          },
          { path: 'pesquisa', Component: page(() => import('../features/catalog/pages/search-page.tsx')) },
          { path: 'sobrenos', Component: page(() => import('../features/institutional/about-page.tsx')) },
          { path: 'lojas', Component: page(() => import('../features/institutional/stores-page.tsx')) },
          { path: 'teste', Component: page(() => import('../features/institutional/test-page.tsx')) },
          { path: 'login', Component: page(() => import('../features/account/pages/login-page.tsx')) },
          { path: 'criarconta', Component: page(() => import('../features/account/pages/sign-up-page.tsx')) },
          {
            path: 'login/recuperar-senha',
            Component: page(() => import('../features/account/pages/forgot-password-page.tsx')),
          },
          {
            path: 'login/redefinir-senha',
            Component: page(() => import('../features/account/pages/reset-password-page.tsx')),
          },
          {
            path: 'login/acesso',
            Component: page(() => import('../features/account/pages/login-link-page.tsx')),
          },
          {
            path: 'fechar-pedido',
            Component: page(() => import('../features/checkout/pages/close-order-page.tsx')),
          },
          { path: 'pagar', Component: page(() => import('../features/checkout/pages/pay-page.tsx')) },
          { path: 'eventos', Component: page(() => import('../features/events/pages/events-page.tsx')) },
          {
            path: 'eventos/register/:id',
            Component: page(() => import('../features/events/pages/event-page.tsx')),
          },
          {
            path: 'eventos/register/:id/ja-me-inscrevi',
            Component: page(() => import('../features/registration/pages/registration-lookup-page.tsx')),
          },
          {
            path: 'eventos/regulamento/:id',
            Component: page(() => import('../features/events/pages/regulation-page.tsx')),
          },
          {
            // The one login guard: a guest is sent to /login?next=… (docs/product.md §5). Its own chunk,
            // like the pages it guards: the home page's code does not carry it.
            Component: page(() =>
              import('../components/require-auth.tsx').then((m) => ({ default: m.RequireAuth })),
            ),
            children: [
              { path: 'user', Component: page(() => import('../features/account/pages/account-page.tsx')) },
              {
                path: 'user/pessoal-data',
                Component: page(() => import('../features/account/pages/personal-data-page.tsx')),
              },
              {
                path: 'user/pedidos',
                Component: page(() => import('../features/orders/pages/orders-page.tsx')),
              },
              {
                path: 'user/:username',
                Component: page(() => import('../features/account/pages/account-page.tsx')),
              },
              {
                path: 'enderecos',
                Component: page(() => import('../features/account/pages/addresses-page.tsx')),
              },
              {
                path: 'adicionar-endereco',
                Component: page(() => import('../features/account/pages/add-address-page.tsx')),
              },
              {
                path: 'editar-endereco/:id',
                Component: page(() => import('../features/account/pages/edit-address-page.tsx')),
              },
              {
                path: 'revisar-pedido',
                Component: page(() => import('../features/checkout/pages/review-order-page.tsx')),
              },
              {
                path: 'eventos/register/:id/finalizar',
                Component: page(() => import('../features/registration/pages/finish-registration-page.tsx')),
              },
            ],
          },
          { path: '*', Component: page(() => import('../features/institutional/not-found-page.tsx')) },
        ],
      },
    ],
  },
  {
    // The back office: its own frame, route table and chunks, none of them loaded by the shop.
    path: '/painel/*',
    ErrorBoundary: RouteErrorPage,
    Component: page(() => import('../features/painel/painel-app.tsx')),
  },
];

/** Loads the code of the pages an address shows (before hydrating, or rendering on the server). */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(({ route }) => (route.Component as Partial<LazyPage> | undefined)?.preload?.()),
  );
}
