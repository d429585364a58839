import { describe, expect, it } from 'vitest';
import { matchShopRoute, SHOP_ROUTES } from './routes.ts';

/** Each address with the path of the table that should show it. */
function expectPages(cases: Record<string, string>) {
  for (const [address, path] of Object.entries(cases))
    expect(matchShopRoute(address).route.path, address).toBe(path);
}

describe('matchShopRoute', () => {
  it('finds the page of an address, trailing slash or not, with its parameters', () => {
    expectPages({ '/': '/', '/feminino': '/feminino', '/feminino/': '/feminino' });
    expectPages({ '/login/recuperar-senha': '/login/recuperar-senha' });
    expect(matchShopRoute('/produto/12').params).toEqual({ id: '12' });
  });

  it('prefers plain segments to parameters, as react-router does', () => {
    expectPages({ '/user/pedidos': '/user/pedidos', '/user/corredora': '/user/:username' });
    expectPages({ '/eventos/register/3/finalizar': '/eventos/register/:id/finalizar' });
  });

  it('takes an :id only as a positive number of up to nine digits', () => {
    for (const bad of ['/produto/0', '/produto/abc', '/produto/1234567890', '/eventos/regulamento/-1'])
      expectPages({ [bad]: '*' });
    expectPages({ '/produto/999999999': '/produto/:id' });
  });

  it('gives the back office every address under /painel and the catch-all everything else', () => {
    expectPages({ '/painel': '/painel/*', '/painel/produtos/3': '/painel/*' });
    expectPages({ '/nao-existe': '*', '/user/a/b': '*', '/user/%E0%A4%A': '*' });
  });

  it('lists each path once', () => {
    const paths = SHOP_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
