import { describe, expect, it } from 'vitest';
import { matchShopRoute, SHOP_ROUTES } from './routes.ts';

const pathOf = (pathname: string) => matchShopRoute(pathname).route.path;

describe('matchShopRoute', () => {
  it('finds the page of an address, trailing slash or not', () => {
    expect(pathOf('/')).toBe('/');
    expect(pathOf('/feminino')).toBe('/feminino');
    expect(pathOf('/feminino/')).toBe('/feminino');
    expect(pathOf('/login/recuperar-senha')).toBe('/login/recuperar-senha');
    expect(matchShopRoute('/produto/12').params).toEqual({ id: '12' });
  });

  it('prefers plain segments to parameters, as react-router does', () => {
    expect(pathOf('/user/pedidos')).toBe('/user/pedidos');
    expect(pathOf('/user/corredora')).toBe('/user/:username');
    expect(pathOf('/eventos/register/3/finalizar')).toBe('/eventos/register/:id/finalizar');
  });

  it('takes an :id only as a positive number of up to nine digits', () => {
    for (const bad of ['/produto/0', '/produto/abc', '/produto/1234567890', '/eventos/regulamento/-1'])
      expect(pathOf(bad), bad).toBe('*');
    expect(pathOf('/produto/999999999')).toBe('/produto/:id');
  });

  it('gives the back office every address under /painel and the catch-all everything else', () => {
    expect(pathOf('/painel')).toBe('/painel/*');
    expect(pathOf('/painel/produtos/3')).toBe('/painel/*');
    expect(pathOf('/nao-existe')).toBe('*');
    expect(pathOf('/user/a/b')).toBe('*');
    expect(pathOf('/user/%E0%A4%A')).toBe('*');
  });

  it('lists each path once', () => {
    const paths = SHOP_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
