import { PAGE_HEADS, SHOP_ROUTES } from '@passada/core/routes';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { lazy } from 'react';
import type { createMemoryRouter, RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configAnswer, mockFetch } from '../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../test/render-routes.test-utils.tsx';
import { routes } from './router.tsx';

function renderAt(table: RouteObject[], path: string) {
  // jsdom has no scrolling; the layout's ScrollRestoration calls it on every navigation.
  vi.stubGlobal('scrollTo', () => {});
  return renderRoutes(table, path);
}

const where = (router: ReturnType<typeof createMemoryRouter>) =>
  `${router.state.location.pathname}${router.state.location.search}`;

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('login guard', () => {
  it.each([
    ['/enderecos?x=1', '/login?next=%2Fenderecos%3Fx%3D1'],
    ['/revisar-pedido', '/login?next=%2Frevisar-pedido'],
    ['/user/pedidos', '/login?next=%2Fuser%2Fpedidos'],
    ['/eventos/register/3/finalizar?c=1', '/login?next=%2Feventos%2Fregister%2F3%2Ffinalizar%3Fc%3D1'],
  ])('sends a guest at %s to %s', async (path, login) => {
    mockFetch(() => undefined);
    const router = renderAt(routes, path);
    await waitFor(() => expect(where(router)).toBe(login));
  });

  it('shows the page when a token is stored', async () => {
    localStorage.setItem('token', 'abc');
    mockFetch(({ url }) => (url === '/api/users/addresses/' ? { status: 200, body: [] } : undefined));
    const router = renderAt(routes, '/enderecos');
    expect(await screen.findByRole('heading', { level: 1, name: 'Endereço de entrega' })).toBeTruthy();
    expect(where(router)).toBe('/enderecos');
  });
});

describe('route error page', () => {
  function Broken(): never {
    throw new Error('falha de renderização');
  }

  it('replaces a page that throws with "Algo deu errado", keeping the header', async () => {
    mockFetch(() => undefined);
    // React and the router report the caught error on the console; the page is what matters here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    // The real root and page-level boundaries, around a page that always throws.
    const root = routes[0];
    const pages = root?.children?.[0];
    const table: RouteObject[] = [
      {
        path: '/',
        Component: root?.Component ?? null,
        ErrorBoundary: root?.ErrorBoundary ?? null,
        children: [
          {
            ErrorBoundary: pages?.ErrorBoundary ?? null,
            children: [{ path: 'quebrada', Component: Broken }],
          },
        ],
      },
    ];
    renderAt(table, '/quebrada');
    expect(await screen.findByRole('heading', { level: 1, name: 'Algo deu errado' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Tentar de novo' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Voltar para a página inicial' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('banner')).toBeTruthy();
  });
});

describe('demo strip', () => {
  const strip = () => screen.queryByRole('status', { name: 'Aviso de demonstração' });

  it('says on every page that payments are simulated while they are', async () => {
    mockFetch(({ url }) => (url === '/api/config/' ? configAnswer('simulado') : undefined));
    renderAt(routes, '/sobrenos');
    await waitFor(() => expect(strip()?.textContent).toMatch(/^Loja de demonstração: pagamentos simulados/));
  });

  it('is absent with a real payments provider', async () => {
    const calls = mockFetch(({ url }) => (url === '/api/config/' ? configAnswer('efi') : undefined));
    renderAt(routes, '/sobrenos');
    await waitFor(() => expect(calls.some((c) => c.url === '/api/config/')).toBe(true));
    await screen.findByRole('navigation', { name: 'Principal' });
    expect(strip()).toBeNull();
  });
});

describe('a page whose code is still loading', () => {
  it('shows a skeleton in the content area, header kept, until the page arrives', async () => {
    mockFetch(() => undefined);
    let arrive: (page: { default: () => React.JSX.Element }) => void = () => {};
    const Slow = lazy(
      () => new Promise<{ default: () => React.JSX.Element }>((resolve) => (arrive = resolve)),
    );
    const root = routes[0];
    const table: RouteObject[] = [
      { path: '/', Component: root?.Component ?? null, children: [{ path: 'lenta', Component: Slow }] },
    ];
    renderAt(table, '/lenta');
    expect((await screen.findByText('Carregando página...')).getAttribute('role')).toBe('status');
    expect(screen.getByRole('banner')).toBeTruthy();
    arrive({ default: () => <h1>Página lenta</h1> });
    expect(await screen.findByRole('heading', { level: 1, name: 'Página lenta' })).toBeTruthy();
    expect(screen.queryByText('Carregando página...')).toBeNull();
  });
});

describe('the one route table (@passada/core/routes)', () => {
  /** Every path the router answers, from the root: `/produto/:id`, `*`, `/painel/*`. */
  function routedPaths(table: RouteObject[], parent = ''): string[] {
    return table.flatMap((route) => {
      const here = route.index
        ? parent || '/'
        : route.path === undefined
          ? parent
          : route.path.startsWith('/')
            ? route.path
            : `${parent.replace(/\/$/, '')}/${route.path}`;
      const own =
        route.index || (route.path !== undefined && !route.children) ? [here.replace(/^\/\*$/, '*')] : [];
      return [...own, ...routedPaths(route.children ?? [], here)];
    });
  }

  it('routes every path of the table, and only those: each has the head the server writes', () => {
    const routed = routedPaths(routes);
    const heads = Object.keys(PAGE_HEADS);
    const table = SHOP_ROUTES.map((r) => r.path);
    expect(
      routed.filter((p) => !heads.includes(p)),
      'rotas sem cabeçalho em PAGE_HEADS',
    ).toEqual([]);
    expect([...routed].sort()).toEqual([...table].sort());
  });

  it("puts behind the login exactly the table's login pages", async () => {
    const guard = routes[0]?.children?.[0]?.children?.find((r) => r.path === undefined && r.children);
    const guarded = routedPaths(guard?.children ?? [], '/');
    expect(guarded.sort()).toEqual(
      SHOP_ROUTES.filter((r) => 'login' in r && r.login)
        .map((r) => r.path)
        .sort(),
    );
  });
});
