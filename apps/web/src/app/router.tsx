import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { RequireAuth } from '../components/require-auth.tsx';
import { RootLayout } from './layout/root-layout.tsx';
import { RouteErrorPage } from './route-error-page.tsx';

/** Every page is its own chunk, loaded when its route is first visited (docs/architecture.md §7). */
function page(load: () => Promise<{ default: ComponentType }>) {
  return async () => ({ Component: (await load()).default });
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
          { index: true, lazy: page(() => import('../features/home/home-page.tsx')) },
          { path: 'feminino', lazy: page(() => import('../features/catalog/pages/category-page.tsx')) },
          { path: 'masculino', lazy: page(() => import('../features/catalog/pages/category-page.tsx')) },
          { path: 'acessorios', lazy: page(() => import('../features/catalog/pages/category-page.tsx')) },
          { path: 'topavaliados', lazy: page(() => import('../features/catalog/pages/category-page.tsx')) },
          { path: 'produto/:id', lazy: page(() => import('../features/catalog/pages/product-page.tsx')) },
          { path: 'pesquisa', lazy: page(() => import('../features/catalog/pages/search-page.tsx')) },
          { path: 'sobrenos', lazy: page(() => import('../features/institutional/about-page.tsx')) },
          { path: 'lojas', lazy: page(() => import('../features/institutional/stores-page.tsx')) },
          { path: 'teste', lazy: page(() => import('../features/institutional/test-page.tsx')) },
          { path: 'login', lazy: page(() => import('../features/account/pages/login-page.tsx')) },
          { path: 'criarconta', lazy: page(() => import('../features/account/pages/sign-up-page.tsx')) },
          {
            path: 'login/recuperar-senha',
            lazy: page(() => import('../features/account/pages/forgot-password-page.tsx')),
          },
          {
            path: 'login/redefinir-senha',
            lazy: page(() => import('../features/account/pages/reset-password-page.tsx')),
          },
          {
            path: 'fechar-pedido',
            lazy: page(() => import('../features/checkout/pages/close-order-page.tsx')),
          },
          { path: 'pagar', lazy: page(() => import('../features/checkout/pages/pay-page.tsx')) },
          { path: 'eventos', lazy: page(() => import('../features/events/pages/events-page.tsx')) },
          {
            path: 'eventos/register/:id',
            lazy: page(() => import('../features/events/pages/event-page.tsx')),
          },
          {
            path: 'eventos/register/:id/ja-me-inscrevi',
            lazy: page(() => import('../features/registration/pages/registration-lookup-page.tsx')),
          },
          {
            path: 'eventos/regulamento/:id',
            lazy: page(() => import('../features/events/pages/regulation-page.tsx')),
          },
          {
            // The one login guard: a guest is sent to /login?next=… (docs/product.md §5).
            Component: RequireAuth,
            children: [
              { path: 'user', lazy: page(() => import('../features/account/pages/account-page.tsx')) },
              {
                path: 'user/pessoal-data',
                lazy: page(() => import('../features/account/pages/personal-data-page.tsx')),
              },
              { path: 'user/pedidos', lazy: page(() => import('../features/orders/pages/orders-page.tsx')) },
              {
                path: 'user/:username',
                lazy: page(() => import('../features/account/pages/account-page.tsx')),
              },
              { path: 'enderecos', lazy: page(() => import('../features/account/pages/addresses-page.tsx')) },
              {
                path: 'adicionar-endereco',
                lazy: page(() => import('../features/account/pages/add-address-page.tsx')),
              },
              {
                path: 'editar-endereco/:id',
                lazy: page(() => import('../features/account/pages/edit-address-page.tsx')),
              },
              {
                path: 'revisar-pedido',
                lazy: page(() => import('../features/checkout/pages/review-order-page.tsx')),
              },
              {
                path: 'eventos/register/:id/finalizar',
                lazy: page(() => import('../features/registration/pages/finish-registration-page.tsx')),
              },
            ],
          },
          { path: '*', lazy: page(() => import('../features/institutional/not-found-page.tsx')) },
        ],
      },
    ],
  },
  {
    // The back office: its own frame, route table and chunks, none of them loaded by the shop.
    path: '/painel/*',
    ErrorBoundary: RouteErrorPage,
    lazy: page(() => import('../features/painel/painel-app.tsx')),
  },
];
