/**
 * The Correios contract's token (`POST /token/v1/autentica/cartaopostagem`, Basic auth of the user and
 * access code, the posting card in the body), shared by the quotes (correios.provider.ts) and the labels
 * (correios-labels.provider.ts): kept until five minutes before its `expiraEm`, asked once at a time.
 */

/** The contract's credentials. */
export interface CorreiosCredentials {
  user: string;
  accessCode: string;
  postingCard: string;
}

/** A Correios date: with a zone when it has one, else Brasília time (the API writes "2026-11-26T12:00:00"). */
export function brasilia(v: unknown): Date | null {
  if (typeof v !== 'string' || !v) return null;
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}-03:00`);
  return Number.isNaN(d.getTime()) ? null : d;
}

export interface CorreiosToken {
  /** The token in force, asked for when there is none (calls made meanwhile share the one request). */
  get(): Promise<string>;
  /** Forgets the token (the Correios refused it): the next call asks again. */
  drop(): void;
}

/**
 * `request` posts the credentials with the given headers and body and answers the parsed JSON, throwing the
 * provider's own error on a refusal; `missing` is the provider's error for an answer without a token.
 */
export function createCorreiosToken(opts: {
  credentials: CorreiosCredentials;
  now: () => Date;
  request: (headers: Record<string, string>, body: { numero: string }) => Promise<unknown>;
  missing: () => Error;
}): CorreiosToken {
  let cached: { token: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    const { user, accessCode, postingCard } = opts.credentials;
    const basic = Buffer.from(`${user}:${accessCode}`).toString('base64');
    const body = (await opts.request({ authorization: `Basic ${basic}` }, { numero: postingCard })) as {
      token?: unknown;
      expiraEm?: unknown;
    } | null;
    if (typeof body?.token !== 'string') throw opts.missing();
    const expiry = brasilia(body.expiraEm)?.getTime();
    // Renew a few minutes early; without a readable expiry keep it for 30 minutes.
    cached = {
      token: body.token,
      expiresAt: expiry ? expiry - 5 * 60_000 : opts.now().getTime() + 30 * 60_000,
    };
    return body.token;
  }

  return {
    get() {
      if (cached && cached.expiresAt > opts.now().getTime()) return Promise.resolve(cached.token);
      pending ??= fetchToken().finally(() => {
        pending = null;
      });
      return pending;
    },
    drop() {
      cached = null;
    },
  };
}
