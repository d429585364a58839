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

/** The upsert of every limited request, built once (db/prepared.ts). */
const hit = prepared('rate_limit_hit', (db) =>
  db
    .insert(rateLimitCounters)
    .values({ key: sql.placeholder('key'), windowStart: sql.placeholder('windowStart'), hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { hits: sql`${rateLimitCounters.hits} + 1` },
    })
    .returning({ hits: rateLimitCounters.hits }),
);

/**
 * Limits counted in the database (docs/decisions/0016-hardening.md): one upsert per request and
 * limit increments the window's row and answers the new count, so several server processes behind
 * a load balancer enforce one limit together. The IP is Fastify's `request.ip`, which follows
 * `X-Forwarded-For` only as far as TRUST_PROXY allows.
 */
const countRequest: onRequestHookHandler = async (request, reply) => {
  const config = request.routeOptions.config.limit;
  if (!config) return;
  const { db, now } = request.server;
  const nowMs = now().getTime();
  for (const limit of Array.isArray(config) ? config : [config]) {
    const who = await subject(request, limit.per);
    if (who === null) continue;
    const windowMs = limit.windowSeconds * 1000;
    const windowStart = new Date(Math.floor(nowMs / windowMs) * windowMs);
    const [row] = await hit(db).execute({ key: `${limit.name}:${who}`, windowStart });
    if ((row?.hits ?? 0) > limit.max) {
      reply.header('retry-after', Math.ceil((windowStart.getTime() + windowMs - nowMs) / 1000));
      throw new HttpError(429, RATE_LIMITED, 'rate_limited');
    }
  }
};

/** Only routes with a `limit` get the hook: right after the login gate, before the route's own hooks. */
export default fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      if (!route.config?.limit) return;
      const hooks = onRequestHooks(route.onRequest);
      const at = hooks.indexOf(requireSignedIn) + 1;
      route.onRequest = [...hooks.slice(0, at), countRequest, ...hooks.slice(at)];
    });
  },
  { name: 'rate-limit', fastify: '5.x', dependencies: ['auth'] },
);
