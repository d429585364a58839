import { createHash } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { authTokens, users } from '../db/schema/index.ts';
import { unauthorized } from './errors.ts';

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

/** The signed-in user, or null for a visitor. A bad, revoked or expired token counts as none. */
export async function optionalUser(request: FastifyRequest): Promise<AuthUser | null> {
  const token = tokenFrom(request);
  if (!token) return null;
  const { db, now } = request.server;
  const [row] = await db
    .select({ id: users.id, username: users.username, email: users.email, fullName: users.fullName })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(
      and(
        eq(authTokens.tokenHash, hashToken(token)),
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, now()),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The signed-in user; answers 401 otherwise. */
export async function requireUser(request: FastifyRequest): Promise<AuthUser> {
  const user = await optionalUser(request);
  if (!user) throw unauthorized('Faça login para continuar.');
  return user;
}
