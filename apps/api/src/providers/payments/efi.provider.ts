import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { InstallmentOption } from '@passada/core/installments';
import type { Env } from '../../config/env.ts';
import {
  PaymentProviderError,
  type PaymentsProvider,
  type PixState,
  type ProviderPixStatus,
} from './payments.provider.ts';

const PIX_URLS = { production: 'https://pix.api.efipay.com.br', sandbox: 'https://pix-h.api.efipay.com.br' };
const CHARGES_URLS = {
  production: 'https://cobrancas.api.efipay.com.br',
  sandbox: 'https://cobrancas-h.api.efipay.com.br',
};

export interface EfiOptions {
  /** Extra trusted CA for Efí's servers (tests use a self-signed fake). */
  ca?: string | Buffer;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
}

interface JsonResponse {
  status: number;
  body: unknown;
}

/** Efí's account certificate: a PEM with certificate and key, or the .p12 Efí hands out. */
function loadCertificate(path: string): https.AgentOptions {
  const file = readFileSync(path);
  return /\.(p12|pfx)$/i.test(path) ? { pfx: file, passphrase: '' } : { cert: file, key: file };
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
        timeout: timeoutMs,
        headers: {
          accept: 'application/json',
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
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
    req.on('timeout', () =>
      req.destroy(new PaymentProviderError('Efí não respondeu a tempo.', 504, 'timeout')),
    );
    req.on('error', (err) =>
      reject(
        err instanceof PaymentProviderError
          ? err
          : new PaymentProviderError('Falha de comunicação com a Efí.', 502),
      ),
    );
    if (payload) req.write(payload);
    req.end();
  });
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Efí answers `{nome, mensagem}` (API Pix) or `{code, error, error_description}` (charges). */
function toError(res: JsonResponse): PaymentProviderError {
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

const reaisString = (cents: number) => (cents / 100).toFixed(2);
const centsFrom = (reais: unknown) => Math.round(Number(reais) * 100);

/**
 * Efí Bank: API Pix (OAuth2 client credentials over mutual TLS with the account certificate) and
 * the card charges API (docs/brazil.md, "API Pix" and "Card payments through Efí").
 */
export function createEfiProvider(env: Env, options: EfiOptions = {}): PaymentsProvider {
  const pixBase = env.EFI_PIX_URL ?? PIX_URLS[env.EFI_ENVIRONMENT];
  const chargesBase = env.EFI_CHARGES_URL ?? CHARGES_URLS[env.EFI_ENVIRONMENT];
  const timeoutMs = options.timeoutMs ?? 15_000;
  let agent: https.Agent | undefined;
  // The certificate is read on first use so a missing file shows up as a payment error, not a crash at boot.
  const getAgent = () => {
    agent ??= new https.Agent({
      keepAlive: true,
      ...loadCertificate(env.EFI_CERTIFICATE_PATH ?? ''),
      ...(options.ca ? { ca: options.ca } : {}),
    });
    return agent;
  };
  const basic = `Basic ${Buffer.from(`${env.EFI_CLIENT_ID}:${env.EFI_CLIENT_SECRET}`).toString('base64')}`;

  const tokens = new Map<string, { token: string; expiresAt: number }>();
  async function accessToken(base: string, path: string): Promise<string> {
    const cached = tokens.get(base);
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    const res = await requestJson(
      getAgent(),
      base,
      'POST',
      path,
      { authorization: basic },
      { grant_type: 'client_credentials' },
      timeoutMs,
    );
    const token = str(obj(res.body).access_token);
    if (res.status !== 200 || !token) throw toError(res);
    const ttl = Number(obj(res.body).expires_in) || 600;
    // Renew a minute early so a token never expires between our check and Efí's.
    tokens.set(base, { token, expiresAt: Date.now() + (ttl - 60) * 1000 });
    return token;
  }

  async function call(api: 'pix' | 'charges', method: string, path: string, body?: unknown): Promise<Json> {
    const base = api === 'pix' ? pixBase : chargesBase;
    const token = await accessToken(base, api === 'pix' ? '/oauth/token' : '/v1/authorize');
    const res = await requestJson(
      getAgent(),
      base,
      method,
      path,
      { authorization: `Bearer ${token}` },
      body,
      timeoutMs,
    );
    if (res.status === 401) tokens.delete(base);
    if (res.status < 200 || res.status >= 300) throw toError(res);
    return obj(res.body);
  }

  const pixState = (txid: string, cob: Json): PixState => {
    const paid = Array.isArray(cob.pix) ? obj(cob.pix[0]) : {};
    const endToEndId = str(paid.endToEndId);
    return {
      txid,
      status: (str(cob.status) ?? 'ATIVA') as ProviderPixStatus,
      amountCents: centsFrom(obj(cob.valor).original),
      ...(endToEndId ? { endToEndId } : {}),
    };
  };

  return {
    name: 'efi',

    async createPix({ txid, amountCents, expiresInSeconds, description }) {
      const cob = await call('pix', 'PUT', `/v2/cob/${encodeURIComponent(txid)}`, {
        calendario: { expiracao: expiresInSeconds },
        valor: { original: reaisString(amountCents) },
        chave: env.PIX_KEY,
        solicitacaoPagador: description.slice(0, 140),
      });
      const locId = obj(cob.loc).id;
      if (locId === undefined)
        throw new PaymentProviderError('Efí não devolveu a location da cobrança.', 502);
      const qr = await call('pix', 'GET', `/v2/loc/${encodeURIComponent(String(locId))}/qrcode`);
      const pixCopiaECola = str(qr.qrcode);
      const qrCodeDataUri = str(qr.imagemQrcode);
      if (!pixCopiaECola || !qrCodeDataUri)
        throw new PaymentProviderError('Efí não devolveu o QR Code.', 502);
      return { txid, pixCopiaECola, qrCodeDataUri };
    },

    async getPix(txid) {
      return pixState(txid, await call('pix', 'GET', `/v2/cob/${encodeURIComponent(txid)}`));
    },

    async chargeCard({ paymentToken, installments, amountCents, itemName, customer, billingAddress }) {
      const answer = await call('charges', 'POST', '/v1/charge/one-step', {
        items: [{ name: itemName.slice(0, 255), value: amountCents, amount: 1 }],
        payment: {
          credit_card: {
            installments,
            payment_token: paymentToken,
            ...(billingAddress ? { billing_address: billingAddress } : {}),
            customer: {
              name: customer.name,
              cpf: customer.cpf.replace(/\D/g, ''),
              email: customer.email,
              phone_number: customer.phone.replace(/\D/g, ''),
            },
          },
        },
      });
      const data = obj(answer.data);
      return {
        chargeId: String(data.charge_id ?? ''),
        status: str(data.status) ?? 'unpaid',
        installments: Number(data.installments ?? installments),
        installmentValueCents: Number(data.installment_value ?? 0),
        totalCents: Number(data.total ?? 0),
      };
    },

    async installments(brand, totalCents) {
      const answer = await call('charges', 'GET', `/v1/installments?brand=${brand}&total=${totalCents}`);
      const list = obj(answer.data).installments;
      return (Array.isArray(list) ? list : []).map((raw): InstallmentOption => {
        const o = obj(raw);
        return {
          installment: Number(o.installment),
          has_interest: o.has_interest === true,
          value: Number(o.value),
          currency: str(o.currency) ?? '',
          interest_percentage: Number(o.interest_percentage ?? 0),
        };
      });
    },

    async registerPixWebhook(url) {
      await call('pix', 'PUT', `/v2/webhook/${encodeURIComponent(env.PIX_KEY)}`, { webhookUrl: url });
    },
  };
}
