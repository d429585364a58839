import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { Env } from '../../config/env.ts';
import { PaymentProviderError, PaymentProviderTimeout } from './payments.provider.ts';

/** Efí's two APIs over HTTPS: the account certificate, OAuth2 tokens, and calls retried only when safe. */

const PIX_URLS = { production: 'https://pix.api.efipay.com.br', sandbox: 'https://pix-h.api.efipay.com.br' };
const CHARGES_URLS = {
  production: 'https://cobrancas.api.efipay.com.br',
  sandbox: 'https://cobrancas-h.api.efipay.com.br',
};

export interface EfiOptions {
  /** Extra trusted CA for Efí's servers (tests use a self-signed fake). */
  ca?: string | Buffer;
  /** Per-request timeout in milliseconds; EFI_TIMEOUT_MS otherwise. */
  timeoutMs?: number;
  /** Clock for the installments cache. */
  now?: () => number;
}

export interface JsonResponse {
  status: number;
  body: unknown;
}

type CertificateOptions = Pick<https.AgentOptions, 'pfx' | 'passphrase' | 'cert' | 'key'>;

/**
 * Efí's account certificate, as the `.p12` Efí hands out (empty password), a PEM with certificate and
 * key, or separate PEM files; each may come as a path or as base64 in the environment.
 */
export function loadEfiCertificate(env: Env): CertificateOptions {
  const fromEnv = (base64: string | undefined, file: string | undefined, setting: string) => {
    if (base64) return Buffer.from(base64, 'base64');
    if (!file) return undefined;
    try {
      return readFileSync(file);
    } catch {
      throw new PaymentProviderError(`Não foi possível ler ${setting} (${file}).`, 500, 'certificado');
    }
  };
  const cert = fromEnv(env.EFI_CERTIFICATE_BASE64, env.EFI_CERTIFICATE_PATH, 'EFI_CERTIFICATE_PATH');
  if (!cert)
    throw new PaymentProviderError(
      'Certificado da Efí não configurado (EFI_CERTIFICATE_PATH ou EFI_CERTIFICATE_BASE64).',
      500,
      'certificado',
    );
  const key = fromEnv(
    env.EFI_CERTIFICATE_KEY_BASE64,
    env.EFI_CERTIFICATE_KEY_PATH,
    'EFI_CERTIFICATE_KEY_PATH',
  );
  const text = cert.toString('latin1');
  if (!text.includes('-----BEGIN')) return { pfx: cert, passphrase: '' };
  if (!key && !text.includes('PRIVATE KEY-----'))
    throw new PaymentProviderError(
      'O certificado da Efí em PEM não traz a chave privada: informe EFI_CERTIFICATE_KEY_PATH.',
      500,
      'certificado',
    );
  return { cert, key: key ?? cert };
}

function requestJson(
  agent: https.Agent,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
): Promise<JsonResponse> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request(
      new URL(path, base),
      {
        method,
        agent,
        headers: {
          accept: 'application/json',
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => undefined);
        res.on('end', () => {
          clearTimeout(deadline);
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    // A whole-call deadline: a socket that trickles bytes must not hold a checkout forever.
    const deadline = setTimeout(() => req.destroy(new PaymentProviderTimeout()), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(deadline);
      reject(
        err instanceof PaymentProviderTimeout
          ? err
          : new PaymentProviderTimeout('Falha de comunicação com a Efí: a resposta não chegou.'),
      );
    });
    if (payload) req.write(payload);
    req.end();
  });
}

export type Json = Record<string, unknown>;
export const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Efí answers `{nome, mensagem}` (API Pix) or `{code, error, error_description}` (charges). */
export function toError(res: JsonResponse): PaymentProviderError {
  const b = obj(res.body);
  const code = str(b.nome) ?? str(b.error) ?? `http_${res.status}`;
  const description = b.error_description;
  const message =
    str(b.mensagem) ??
    str(description) ??
    str(obj(description).message) ??
    `Efí recusou a requisição (HTTP ${res.status}).`;
  return new PaymentProviderError(message, res.status >= 400 && res.status < 600 ? res.status : 502, code);
}

/** How a call may be repeated when it fails without an answer we can trust. */
export type RetryMode =
  /** Reads: once more on a network error, a 5xx or a 401 (after a new token). */
  | 'read'
  /** Writes idempotent by our own key: once more only on a 401, which Efí answers before doing anything. */
  | 'auth'
  /** Never repeated: a second card charge could charge twice. */
  | 'never';

export interface Api {
  base: string;
  tokenPath: string;
  agent: () => https.Agent;
}

/** Efí's two APIs with their tokens, and `call`: authenticated, retried as `retry` allows, answering the JSON. */
export function createEfiClient(env: Env, options: EfiOptions = {}) {
  const timeoutMs = options.timeoutMs ?? env.EFI_TIMEOUT_MS;
  const ca = options.ca ? { ca: options.ca } : {};
  let pixAgent: https.Agent | undefined;
  let chargesAgent: https.Agent | undefined;
  const pix: Api = {
    base: env.EFI_PIX_URL ?? PIX_URLS[env.EFI_ENVIRONMENT],
    tokenPath: '/oauth/token',
    // Read on first use so a missing certificate shows up as a payment error, not a crash at boot.
    agent: () => {
      pixAgent ??= new https.Agent({ keepAlive: true, ...loadEfiCertificate(env), ...ca });
      return pixAgent;
    },
  };
  const charges: Api = {
    base: env.EFI_CHARGES_URL ?? CHARGES_URLS[env.EFI_ENVIRONMENT],
    tokenPath: '/v1/authorize',
    agent: () => {
      chargesAgent ??= new https.Agent({ keepAlive: true, ...ca });
      return chargesAgent;
    },
  };
  const basic = `Basic ${Buffer.from(`${env.EFI_CLIENT_ID}:${env.EFI_CLIENT_SECRET}`).toString('base64')}`;

  const tokens = new Map<Api, { token: string; expiresAt: number }>();
  async function requestToken(api: Api): Promise<JsonResponse> {
    const ask = () =>
      requestJson(
        api.agent(),
        api.base,
        'POST',
        api.tokenPath,
        { authorization: basic },
        { grant_type: 'client_credentials' },
        timeoutMs,
      );
    try {
      const res = await ask();
      return res.status >= 500 ? await ask() : res;
    } catch (err) {
      if (err instanceof PaymentProviderTimeout) return ask();
      throw err;
    }
  }
  /** Failing to get a token means nothing was sent yet, so it is never an unknown outcome. */
  async function accessToken(api: Api): Promise<string> {
    const cached = tokens.get(api);
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    let res: JsonResponse;
    try {
      res = await requestToken(api);
    } catch (err) {
      if (err instanceof PaymentProviderTimeout)
        throw new PaymentProviderError('Não foi possível autenticar na Efí.', 502, 'autenticacao');
      throw err;
    }
    const token = str(obj(res.body).access_token);
    if (res.status !== 200 || !token) throw toError(res);
    const ttl = Number(obj(res.body).expires_in) || 600;
    // Renew a minute early so a token never expires between our check and Efí's.
    tokens.set(api, { token, expiresAt: Date.now() + (ttl - 60) * 1000 });
    return token;
  }

  async function call(
    api: Api,
    method: string,
    path: string,
    retry: RetryMode,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const again = attempt === 0;
      const token = await accessToken(api);
      let res: JsonResponse;
      try {
        res = await requestJson(
          api.agent(),
          api.base,
          method,
          path,
          { ...headers, authorization: `Bearer ${token}` },
          body,
          timeoutMs,
        );
      } catch (err) {
        if (again && retry === 'read' && err instanceof PaymentProviderTimeout) continue;
        throw err;
      }
      if (res.status === 401) {
        tokens.delete(api);
        if (again && retry !== 'never') continue;
      }
      if (res.status >= 500 && again && retry === 'read') continue;
      if (res.status < 200 || res.status >= 300) throw toError(res);
      return obj(res.body);
    }
  }

  return { pix, charges, call };
}

export type EfiClient = ReturnType<typeof createEfiClient>;
