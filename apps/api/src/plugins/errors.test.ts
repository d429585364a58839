import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken, type TestUser } from '../test/factories/accounts.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

/** Words of zod's and Fastify's English messages; none may reach a person. */
const ENGLISH =
  /\b(too small|too big|expected|invalid input|invalid option|received|required|must|unrecognized|body)\b/i;

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUserAndToken(t.app);
});
afterAll(() => t.close());

const badRequests: Array<{ name: string; method: 'GET' | 'POST' | 'PUT'; url: string; payload?: unknown }> = [
  {
    name: 'a zero quantity',
    method: 'POST',
    url: '/api/calcular-frete/',
    payload: { cepDestino: '60165121', items: [{ product: 1, quantity: 0 }] },
  },
  {
    name: 'a text where a number goes',
    method: 'POST',
    url: '/api/calcular-frete/',
    payload: { cepDestino: '60165121', items: [{ product: 'um', quantity: 1 }] },
  },
  { name: 'an empty sign-up', method: 'POST', url: '/api/users/', payload: {} },
  {
    name: 'a bad e-mail',
    method: 'POST',
    url: '/api/users/',
    payload: { username: 'ana', email: 'ana@', password: 'x', full_name: 'Ana' },
  },
  { name: 'an empty address', method: 'POST', url: '/api/users/addresses/', payload: { street: '' } },
  { name: 'an order without items', method: 'POST', url: '/api/orders/', payload: { items: [] } },
  {
    name: 'a registration without fields',
    method: 'POST',
    url: '/api/participantes/cadastrar/',
    payload: {},
  },
  { name: 'a negative price filter', method: 'GET', url: '/api/products/search/?min_price=-5' },
  {
    name: 'an unknown shipping service',
    method: 'POST',
    url: '/api/pagar-pix/',
    payload: { purpose: 'pedido', draft: { frete: 'CARTA' } },
  },
];

describe('validation messages a person can read', () => {
  it.each(badRequests)('answers $name in Portuguese', async ({ method, url, payload }) => {
    const res = await t.app.inject({
      method,
      url,
      headers: user.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const body = res.json() as { detail: string; errors?: Record<string, string> };
    expect(body.detail.length).toBeGreaterThan(0);
    const messages = [body.detail.replace(/^[^:]+: [\w.]+: /, ''), ...Object.values(body.errors ?? {})];
    for (const message of messages) expect(message).not.toMatch(ENGLISH);
  });
});

describe('a NUL character anywhere in the input', () => {
  it.each([
    { where: 'the query', method: 'GET' as const, url: '/api/products/search/?q=camisa%00' },
    { where: 'a query key', method: 'GET' as const, url: '/api/products/search/?q%00=camisa' },
    { where: 'the path', method: 'GET' as const, url: '/api/cep/60165%00121/' },
    {
      where: 'the body',
      method: 'POST' as const,
      url: '/api/users/',
      payload: {
        username: 'ana\u0000',
        email: 'ana@example.com',
        password: 'segredo-forte-123',
        full_name: 'Ana',
      },
    },
  ])('is refused in $where before any handler reads it', async ({ method, url, payload }) => {
    const res = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_characters' });
  });

  it('is not seen in a %2500 (a percent sign followed by 00, no NUL)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products/search/?q=100%2500' });
    expect(res.statusCode).toBe(200);
  });
});
