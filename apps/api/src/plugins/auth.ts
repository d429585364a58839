import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { prepared } from '../db/prepared.ts';
import { authTokens, users } from '../db/schema/index.ts';
import { unauthorized } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `'user'`: the route needs a signed-in user; the `auth` plugin answers 401 before anything else. */
    auth?: 'user';
  }
  interface FastifyRequest {
    /** The signed-in user on routes with `config: { auth: 'user' }`; null elsewhere. */
    user: AuthUser | null;
  }
}

/** The OpenAPI security scheme every protected operation lists. */
export const TOKEN_SECURITY_SCHEME = 'token';

export interface AuthUser {
  id: number;
  username: string;
  email: string;
  fullName: string;
}

/** Tokens are stored only as their SHA-256 (docs/architecture.md §4). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function tokenFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const m = header ? /^(?:Token|Bearer)\s+(\S+)$/i.exec(header) : null;
  return m?.[1] ?? null;
}

/** The hash of the token the request carries, or null; lets logout revoke exactly that token. */
export function requestTokenHash(request: FastifyRequest): string | null {
  const token = tokenFrom(request);
  return token ? hashToken(token) : null;
}

/**
 * The token lookup of every signed-in request, built once (db/prepared.ts): Drizzle does not build its
 * SQL again, and PostgreSQL parses and plans it once per connection.
 */
const userByToken = prepared('auth_user_by_token', (db) =>
  db
    .select({ id: users.id, username: users.username, email: users.email, fullName: users.fullName })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(
      and(
        eq(authTokens.tokenHash, sql.placeholder('tokenHash')),
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, sql.placeholder('now')),
        isNull(users.deletedAt),
      ),
    )
    .limit(1),
);

/** The signed-in user, or null for a visitor. A bad, revoked or expired token counts as none. */
export async function optionalUser(request: FastifyRequest): Promise<AuthUser | null> {
  const token = tokenFrom(request);
  if (!token) return null;
  const { db, now } = request.server;
  const [row] = await userByToken(db).execute({ tokenHash: hashToken(token), now: now() });
  return row ?? null;
}

const LOGIN_NEEDED = 'Faça login para continuar.';

/** The signed-in user; answers 401 otherwise. On a route marked `auth: 'user'` the hook already found it. */
export async function requireUser(request: FastifyRequest): Promise<AuthUser> {
  const user = request.user ?? (await optionalUser(request));
  if (!user) throw unauthorized(LOGIN_NEEDED);
  return user;
}

/** A route's own `onRequest` hooks as a new array (never changed in place: HEAD routes share it). */
export function onRequestHooks(hooks: onRequestHookHandler | onRequestHookHandler[] | undefined) {
  if (!hooks) return [];
  return Array.isArray(hooks) ? [...hooks] : [hooks];
}

/** The gate itself: 401 unless the request carries a valid token. */
export const requireSignedIn: onRequestHookHandler = async (request) => {
  request.user = await optionalUser(request);
  if (!request.user) throw unauthorized(LOGIN_NEEDED);
};

/**
 * The one gate of protected routes: `onRequest` runs before the body is parsed and before any
 * validation, so a caller without a valid token learns nothing about what the route expects.
 * Routes say they need a login with `config: { auth: 'user' }`; the OpenAPI document marks them
 * with the `token` security scheme (the sweep test reads it). The gate is added to those routes
 * only, first among their own hooks: other answers (the health check, the catalogue) run no hook
 * for it at all.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('user', null);
    app.addHook('onRoute', (route) => {
      if (route.config?.auth !== 'user') return;
      route.schema = { ...route.schema, security: [{ [TOKEN_SECURITY_SCHEME]: [] }] };
      route.onRequest = [requireSignedIn, ...onRequestHooks(route.onRequest)];
    });
  },
  { name: 'auth', fastify: '5.x' },
);
