import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, useClockedTestApp } from '../../test/test-app.ts';

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
      // The privacy page names who answers for the data (LGPD art. 41).
      encarregado: { nome: 'Encarregado de dados da Passada', email: 'privacidade@passada.com.br' },
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

describe('readiness without a database query per request', () => {
  const start = new Date('2026-11-24T12:00:00Z');
  const TTL_MS = 5000;
  // The healthy checks must answer within the timeout on a busy machine too (two files at once on
  // two cores, beside the end-to-end stage in CI): 150 ms was once too short on PostgreSQL.
  const t = useClockedTestApp(start, {
    env: { HEALTH_DB_CHECK_TTL_MS: String(TTL_MS), HEALTH_DB_CHECK_TIMEOUT_MS: '1000' },
  });
  const health = () => t.app.inject({ method: 'GET', url: '/api/health' });
  const at = (ms: number) => {
    t.clock = new Date(start.getTime() + ms);
  };

  /**
   * Takes every connection the database has (PGlite runs one statement at a time; PostgreSQL has the
   * pool), so nothing else gets an answer until `free()`: a database that stopped answering.
   */
  async function holdDatabase() {
    let free = () => {};
    const freed = new Promise<void>((resolve) => {
      free = resolve;
    });
    let holding = 0;
    const held = Array.from({ length: t.database.connections }, () =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        holding++;
        await freed;
      }),
    );
    while (holding < held.length) await new Promise((r) => setTimeout(r, 5));
    return async () => {
      free();
      await Promise.all(held);
    };
  }

  it('reuses one check for the TTL, turns 503 after it when the database stops answering, and recovers', async () => {
    at(0);
    expect((await health()).statusCode).toBe(200);

    const release = await holdDatabase();
    // Within the TTL the answer comes from the last check: no query waits on the stuck database.
    at(TTL_MS - 1);
    const cached = await health();
    expect(cached.statusCode).toBe(200);
    expect(cached.headers['content-type']).toBe('application/json; charset=utf-8');

    // Past it the check runs again, gets no answer within its timeout, and the server is not ready.
    at(TTL_MS);
    const down = await health();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'erro', detail: 'Banco de dados indisponível.' });
    // The process itself is fine: liveness never asks the database.
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    // Every request until the next check says so too.
    at(TTL_MS + 10);
    expect((await health()).statusCode).toBe(503);

    await release();
    at(2 * TTL_MS);
    const back = await health();
    expect(back.statusCode).toBe(200);
    expect(back.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
    });
  });
});

describe('liveness apart from readiness', () => {
  const start = new Date('2026-11-24T12:00:00Z');
  const t = useClockedTestApp(start, { env: { HEALTH_DB_CHECK_TTL_MS: '0' } });
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('is not ready while the database lacks a migration this version ships, yet stays alive', async () => {
    expect((await get('/api/health/ready')).statusCode).toBe(200);
    // Another copy migrating: the newest migration is not applied yet.
    const newest = (await t.database.db.execute(
      sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    )) as { rows: Array<{ id: number; hash: string; created_at: string }> };
    const row = newest.rows[0]!;
    await t.database.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${row.id}`);
    try {
      for (const url of ['/api/health/ready', '/api/health']) {
        const res = await get(url);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({
          status: 'erro',
          detail: 'O banco de dados ainda não tem todas as migrações desta versão.',
        });
      }
      const live = await get('/api/health/live');
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
    } finally {
      await t.database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at})`,
      );
    }
    expect((await get('/api/health/ready')).statusCode).toBe(200);
  });
});
