import { asc, like } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { rateLimitCounters } from '../db/schema/index.ts';
import { createTestDatabase, requirePostgres } from '../test/test-app.ts';
import auth from './auth.ts';
import rateLimit, { type RouteLimit } from './rate-limit.ts';

// Real connections upserting the same counters at once: PostgreSQL only.
requirePostgres();

let database: Database;
let app: FastifyInstance;
beforeAll(async () => {
  database = await createTestDatabase();
  app = Fastify();
  app.decorate('db', database.db);
  app.decorate('now', () => new Date());
  await app.register(auth);
  await app.register(rateLimit);
  const x: RouteLimit = { name: 'x', max: 1_000_000, windowSeconds: 3600 };
  const y: RouteLimit = { name: 'y', max: 1_000_000, windowSeconds: 3600 };
  // The same two counters, listed in opposite orders by two routes.
  app.get('/xy', { config: { limit: [x, y] } }, async () => 'ok');
  app.get('/yx', { config: { limit: [y, x] } }, async () => 'ok');
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('rate limits under concurrency', () => {
  it('counts every request once on each counter, with no deadlock between routes listing them in opposite orders', async () => {
    const requests = 300;
    const answers = await Promise.all(
      Array.from({ length: requests }, (_, i) =>
        app.inject({ method: 'GET', url: i % 2 ? '/xy' : '/yx', remoteAddress: '203.0.113.9' }),
      ),
    );
    expect(answers.map((a) => a.statusCode).filter((code) => code !== 200)).toEqual([]);
    const rows = await database.db
      .select({ key: rateLimitCounters.key, hits: rateLimitCounters.hits })
      .from(rateLimitCounters)
      .where(like(rateLimitCounters.key, '_:203.0.113.9'))
      .orderBy(asc(rateLimitCounters.key));
    expect(rows).toEqual([
      { key: 'x:203.0.113.9', hits: requests },
      { key: 'y:203.0.113.9', hits: requests },
    ]);
  });
});
