import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Env } from '../../config/env.ts';

/**
 * OWASP's device cookie (docs/decisions/0024-device-cookies-login.md): a browser that signed in to an
 * account carries `<user id>.<nonce>`; the server keeps the nonce's SHA-256 in `login_devices`. One
 * cookie per account, named after it, so a browser shared by a family stays trusted for each of them.
 * Sent to the sign-in endpoints only.
 */
export const DEVICE_COOKIE_PATH = '/api/token-auth/';
const PREFIX = 'passada_device_';
/** 32 random bytes in base64url, as `newOpaqueToken` makes them. */
const VALUE = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface DeviceCookie {
  name: string;
  value: string;
}

export function deviceCookie(userId: number, nonce: string): DeviceCookie {
  return { name: `${PREFIX}${userId}`, value: `${userId}.${nonce}` };
}

/** The nonce of the device cookie this browser holds for `userId`, when it is well formed and names that user. */
export function readDeviceNonce(cookies: Record<string, string | undefined>, userId: number): string | null {
  const match = VALUE.exec(cookies[`${PREFIX}${userId}`] ?? '');
  if (!match || Number(match[1]) !== userId) return null;
  return match[2] ?? null;
}

/** HttpOnly and SameSite=Lax always; Secure when the shop is served over https. */
export function deviceCookieOptions(
  env: Pick<Env, 'publicUrl' | 'LOGIN_DEVICE_TTL_DAYS'>,
): CookieSerializeOptions {
  return {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: env.publicUrl.startsWith('https:'),
    maxAge: env.LOGIN_DEVICE_TTL_DAYS * 86_400,
  };
}
