import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../lib/session.tsx';
import { RequireAuth, safeNextPath } from './require-auth.tsx';

function WhereAmI() {
  const location = useLocation();
  return <p>{`${location.pathname}${location.search}`}</p>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <WhereAmI /> },
      {
        path: '/enderecos',
        element: (
          <RequireAuth>
            <p>conteúdo protegido</p>
          </RequireAuth>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => localStorage.clear());

describe('RequireAuth', () => {
  it('sends a guest to /login with the page to come back to', async () => {
    renderAt('/enderecos?x=1');
    expect(await screen.findByText('/login?next=%2Fenderecos%3Fx%3D1')).toBeTruthy();
    expect(screen.queryByText('conteúdo protegido')).toBeNull();
  });

  it('shows the page when a token is stored', async () => {
    localStorage.setItem('token', 'abc');
    renderAt('/enderecos');
    expect(await screen.findByText('conteúdo protegido')).toBeTruthy();
  });
});

describe('safeNextPath', () => {
  it('follows only same-site paths', () => {
    expect(safeNextPath('/user/pedidos?x=1')).toBe('/user/pedidos?x=1');
    expect(safeNextPath(null)).toBe('/');
    expect(safeNextPath('https://evil.example/')).toBe('/');
    expect(safeNextPath('//evil.example/')).toBe('/');
    expect(safeNextPath('/\\evil.example')).toBe('/');
  });
});
