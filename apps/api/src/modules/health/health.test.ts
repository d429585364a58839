import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('health and API basics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports the database as reachable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
    });
  });

  it('answers a JSON 404 for an unknown /api/ path', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nao-existe/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: 'Recurso não encontrado.', code: 'not_found' });
  });

  it('publishes the public settings the browser needs, and nothing secret', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      nome_loja: 'Passada',
      pagamentos: { provedor: 'simulado', conta: null, ambiente: 'sandbox' },
    });
  });

  it('serves an OpenAPI description generated from the contracts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/health']).toBeDefined();
  });
});
