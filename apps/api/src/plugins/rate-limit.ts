import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { rateLimitCounters } from '../db/schema/index.ts';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** At most `max` requests per client IP in each window of `windowSeconds`; `name` separates counters. */
    limit?: { name: string; max: number; windowSeconds: number };
  }
}

export const RATE_LIMITED = 'Muitas tentativas. Aguarde alguns minutos e tente novamente.';

/**
 * Per-IP limits counted in the database (docs/decisions/0016-hardening.md): one upsert per request
 * increments the window's row and answers the new count, so several server processes behind a load
 * balancer enforce one limit together. The IP is Fastify's `request.ip`, which follows
 * `X-Forwarded-For` only as far as TRUST_PROXY allows.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      const limit = request.routeOptions.config.limit;
      if (!limit) return;
      const { db, now } = request.server;
      const windowMs = limit.windowSeconds * 1000;
      const nowMs = now().getTime();
      const windowStart = new Date(Math.floor(nowMs / windowMs) * windowMs);
      const [row] = await db
        .insert(rateLimitCounters)
        .values({ key: `${limit.name}:${request.ip}`, windowStart, hits: 1 })
        .onConflictDoUpdate({
          target: [rateLimitCounters.key, rateLimitCounters.windowStart],
          set: { hits: sql`${rateLimitCounters.hits} + 1` },
        })
        .returning({ hits: rateLimitCounters.hits });
      if ((row?.hits ?? 0) > limit.max) {
        reply.header('retry-after', Math.ceil((windowStart.getTime() + windowMs - nowMs) / 1000));
        throw new HttpError(429, RATE_LIMITED, 'rate_limited');
      }
    });
  },
  { name: 'rate-limit', fastify: '5.x' },
);
