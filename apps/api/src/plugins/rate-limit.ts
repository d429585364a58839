import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { prepared } from '../db/prepared.ts';
import { rateLimitCounters } from '../db/schema/index.ts';
import { onRequestHooks, optionalUser, requireSignedIn } from './auth.ts';
import { HttpError } from './errors.ts';

export interface RouteLimit {
  /** Separates the counters of different limits. */
  name: string;
  max: number;
  windowSeconds: number;
  /** Whom the limit counts: the client IP (default) or the signed-in account; visitors skip `'account'`. */
  per?: 'ip' | 'account';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** At most `max` requests per client (IP or account) in each window; several limits apply in order. */
    limit?: RouteLimit | RouteLimit[];
  }
}

export const RATE_LIMITED = 'Muitas tentativas. Aguarde alguns minutos e tente novamente.';

async function subject(request: FastifyRequest, per: RouteLimit['per']): Promise<string | null> {
  if (per !== 'account') return request.ip;
  // On `auth: 'user'` routes the auth hook (registered first) already found the user.
  const user = request.user ?? (await optionalUser(request));
  return user ? `u${user.id}` : null;
}

/**
 * The upsert of every limited request, built once (db/prepared.ts): one row per limit that applies,
 * keys and window starts (epoch ms) given as two arrays, so a route with several limits counts them
 * all in one statement.
 */
const hit = prepared('rate_limit_hit', (db) =>
  db
    .insert(rateLimitCounters)
    .select(
      // In key order: two requests sharing counters lock them in the same order, so they never deadlock.
      sql`select k, to_timestamp(w / 1000.0), 1 from unnest(${sql.placeholder('keys')}::text[], ${sql.placeholder('windows')}::float8[]) as t(k, w) order by k`,
    )
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { hits: sql`${rateLimitCounters.hits} + 1` },
    })
    .returning({ key: rateLimitCounters.key, hits: rateLimitCounters.hits }),
);

/**
 * Limits counted in the database (docs/decisions/0016-hardening.md): one upsert per request
 * increments the window's row of every limit that applies and answers the new counts, so several
 * server processes behind a load balancer enforce one limit together. A request counts against all
 * of a route's limits, even one that another limit refuses. The IP is Fastify's `request.ip`, which
 * follows `X-Forwarded-For` only as far as TRUST_PROXY allows.
 */
const countRequest: onRequestHookHandler = async (request, reply) => {
  const config = request.routeOptions.config.limit;
  if (!config) return;
  const { db, now } = request.server;
  const nowMs = now().getTime();
  const counters: { key: string; windowStart: number; limit: RouteLimit }[] = [];
  for (const limit of Array.isArray(config) ? config : [config]) {
    const who = await subject(request, limit.per);
    if (who === null) continue;
    const windowMs = limit.windowSeconds * 1000;
    counters.push({
      key: `${limit.name}:${who}`,
      windowStart: Math.floor(nowMs / windowMs) * windowMs,
      limit,
    });
  }
  if (counters.length === 0) return;
  const rows = await hit(db).execute({
    keys: counters.map((c) => c.key),
    windows: counters.map((c) => c.windowStart),
  });
  // Limit names are unique on a route (checked when it is added), so a key names one counter.
  const hits = new Map(rows.map((row) => [row.key, row.hits]));
  const over = counters.find((c) => (hits.get(c.key) ?? 0) > c.limit.max);
  if (over) {
    reply.header(
      'retry-after',
      Math.ceil((over.windowStart + over.limit.windowSeconds * 1000 - nowMs) / 1000),
    );
    throw new HttpError(429, RATE_LIMITED, 'rate_limited');
  }
};

/** Only routes with a `limit` get the hook: right after the login gate, before the route's own hooks. */
export default fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const limit = route.config?.limit;
      if (!limit) return;
      // One upsert counts them all, and it can touch a counter only once.
      const names = (Array.isArray(limit) ? limit : [limit]).map((l) => l.name);
      if (new Set(names).size !== names.length)
        throw new Error(`${route.url}: two rate limits share a name (${names.join(', ')})`);
      const hooks = onRequestHooks(route.onRequest);
      const at = hooks.indexOf(requireSignedIn) + 1;
      route.onRequest = [...hooks.slice(0, at), countRequest, ...hooks.slice(at)];
    });
  },
  { name: 'rate-limit', fastify: '5.x', dependencies: ['auth'] },
);
