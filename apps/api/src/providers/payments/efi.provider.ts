import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { CardBrand } from '@passada/core/card';
import type { InstallmentOption } from '@passada/core/installments';
import { normalizePhone } from '@passada/core/phone';
import type { Env } from '../../config/env.ts';
import {
  CARD_STATUSES,
  type CardChargeInput,
  type CardChargeResult,
  type CardStatus,
  PaymentProviderError,
  PaymentProviderTimeout,
  type PaymentsProvider,
  type PixRefundStatus,
  type PixState,
  type PixWebhookRegistration,
  type ProviderPixStatus,
} from './payments.provider.ts';

const PIX_URLS = { production: 'https://pix.api.efipay.com.br', sandbox: 'https://pix-h.api.efipay.com.br' };
const CHARGES_URLS = {
  production: 'https://cobrancas.api.efipay.com.br',
  sandbox: 'https://cobrancas-h.api.efipay.com.br',
};
/** Efí allows 15,000 installment look-ups a day; the table changes only when the account's rates do. */
const INSTALLMENTS_TTL_MS = 60 * 60 * 1000;
const EFI_PHONE = /^[1-9]{2}9?[0-9]{8}$/;
const REFUND_STATUSES: readonly PixRefundStatus[] = ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'];

export interface EfiOptions {
  /** Extra trusted CA for Efí's servers (tests use a self-signed fake). */
  ca?: string | Buffer;
  /** Per-request timeout in milliseconds; EFI_TIMEOUT_MS otherwise. */
  timeoutMs?: number;
  /** Clock for the installments cache. */
  now?: () => number;
}

interface JsonResponse {
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

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
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
const dateFrom = (v: unknown): Date | undefined => {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isNaN(t) ? undefined : new Date(t);
};
/** A refund status Efí may add later is taken as still under way: only DEVOLVIDO means the money is back. */
const refundStatusOf = (v: unknown): PixRefundStatus =>
  REFUND_STATUSES.find((s) => s === v) ?? 'EM_PROCESSAMENTO';
/** Statuses Efí may add later are taken as pending: only `paid`/`settled` ever count as money in. */
const cardStatus = (v: unknown): CardStatus => CARD_STATUSES.find((s) => s === v) ?? 'waiting';

/** How a call may be repeated when it fails without an answer we can trust. */
type RetryMode =
  /** Reads: once more on a network error, a 5xx or a 401 (after a new token). */
  | 'read'
  /** Writes idempotent by our own key: once more only on a 401, which Efí answers before doing anything. */
  | 'auth'
  /** Never repeated: a second card charge could charge twice. */
  | 'never';

interface Api {
  base: string;
  tokenPath: string;
  agent: () => https.Agent;
}

function pixState(txid: string, cob: Json): PixState {
  const paid = Array.isArray(cob.pix) ? obj(cob.pix[0]) : {};
  const endToEndId = str(paid.endToEndId);
  const paidAt = dateFrom(paid.horario);
  const calendario = obj(cob.calendario);
  const createdAt = dateFrom(calendario.criacao);
  const expiracao = Number(calendario.expiracao);
  if (!createdAt || !Number.isFinite(expiracao))
    throw new PaymentProviderError('A Efí não devolveu o calendário da cobrança.', 502, 'resposta_invalida');
  return {
    txid,
    status: (str(cob.status) ?? 'ATIVA') as ProviderPixStatus,
    amountCents: centsFrom(obj(cob.valor).original),
    ...(endToEndId ? { endToEndId, paidCents: centsFrom(paid.valor) } : {}),
    ...(paidAt && endToEndId ? { paidAt } : {}),
    expiresAt: new Date(createdAt.getTime() + expiracao * 1000),
    raw: cob,
  };
}

function cardCharge(data: Json, fallbackInstallments?: number): CardChargeResult {
  const card = obj(obj(data.payment).credit_card);
  const installments = Number(data.installments ?? card.installments ?? fallbackInstallments ?? 1);
  const installmentValue = Number(data.installment_value ?? card.installment_value ?? 0);
  const reason = str(obj(data.refusal).reason);
  const customId = str(data.custom_id);
  return {
    chargeId: String(data.charge_id ?? ''),
    ...(customId ? { customId } : {}),
    status: cardStatus(str(data.status) ?? obj(data.status).current),
    ...(reason ? { refusalReason: reason } : {}),
    installments,
    installmentValueCents: installmentValue,
    totalCents: Number(data.total ?? installmentValue * installments),
    raw: data,
  };
}

/** Checks what Efí would refuse anyway, so a missing field is a clear message and not a lost request. */
function oneStepBody(input: CardChargeInput): Json {
  const { customer, billingAddress } = input;
  if (!billingAddress)
    throw new PaymentProviderError(
      'Endereço de cobrança obrigatório para pagar com cartão.',
      400,
      'billing_address',
    );
  if (!customer.birth || !/^\d{4}-\d{2}-\d{2}$/.test(customer.birth))
    throw new PaymentProviderError(
      'Data de nascimento do titular obrigatória para pagar com cartão.',
      400,
      'customer_birth',
    );
  const phone = customer.phone ? normalizePhone(customer.phone) : '';
  return {
    items: [{ name: input.itemName.slice(0, 255), value: input.amountCents, amount: 1 }],
    payment: {
      credit_card: {
        customer: {
          name: customer.name,
          cpf: customer.cpf.replace(/\D/g, ''),
          email: customer.email,
          // Optional at Efí, but refused when out of its pattern: a doubtful number is left out.
          ...(EFI_PHONE.test(phone) ? { phone_number: phone } : {}),
          birth: customer.birth,
        },
        installments: input.installments,
        billing_address: {
          ...billingAddress,
          zipcode: billingAddress.zipcode.replace(/\D/g, ''),
        },
        payment_token: input.paymentToken,
      },
    },
    ...(input.customId || input.notificationUrl
      ? {
          metadata: {
            ...(input.customId ? { custom_id: input.customId } : {}),
            ...(input.notificationUrl ? { notification_url: input.notificationUrl } : {}),
          },
        }
      : {}),
  };
}

/**
 * Efí Bank: API Pix (OAuth2 client credentials over mutual TLS with the account certificate) and
 * the charges API for cards (OAuth2 with Basic credentials only) (docs/brazil.md, "API Pix" and
 * "Card payments through Efí").
 */
export function createEfiProvider(env: Env, options: EfiOptions = {}): PaymentsProvider {
  const timeoutMs = options.timeoutMs ?? env.EFI_TIMEOUT_MS;
  const clock = options.now ?? Date.now;
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

  const devolucaoPath = (endToEndId: string, refundId: string) =>
    `/v2/pix/${encodeURIComponent(endToEndId)}/devolucao/${encodeURIComponent(refundId)}`;
  const cobPath = (txid: string) => `/v2/cob/${encodeURIComponent(txid)}`;
  const webhookPath = `/v2/webhook/${encodeURIComponent(env.PIX_KEY)}`;
  const getPix = async (txid: string) => pixState(txid, await call(pix, 'GET', cobPath(txid), 'read'));
  const installmentsCache = new Map<string, { at: number; list: Promise<InstallmentOption[]> }>();

  async function fetchInstallments(brand: CardBrand, totalCents: number): Promise<InstallmentOption[]> {
    const answer = await call(charges, 'GET', `/v1/installments?brand=${brand}&total=${totalCents}`, 'read');
    const list = obj(answer.data).installments;
    return (Array.isArray(list) ? list : []).map((raw): InstallmentOption => {
      const o = obj(raw);
      return {
        installment: Number(o.installment),
        has_interest: o.has_interest === true,
        value: Number(o.value),
        currency: str(o.currency) ?? '',
        // Basis points of a monthly rate: 199 is 1.99% a month, not 199% nor 1.99 in any other unit.
        interest_percentage: Number(o.interest_percentage ?? 0),
      };
    });
  }

  async function getPixWebhook(): Promise<PixWebhookRegistration | null> {
    let answer: Json;
    try {
      answer = await call(pix, 'GET', webhookPath, 'read');
    } catch (err) {
      if (err instanceof PaymentProviderError && err.status === 404) return null;
      throw err;
    }
    const url = str(answer.webhookUrl);
    if (!url) return null;
    const createdAt = dateFrom(answer.criacao);
    return { url, ...(createdAt ? { createdAt } : {}) };
  }

  return {
    name: 'efi',

    async createPix({ txid, amountCents, expiresInSeconds, description }) {
      let cob: Json;
      try {
        cob = await call(pix, 'PUT', cobPath(txid), 'auth', {
          calendario: { expiracao: expiresInSeconds },
          valor: { original: reaisString(amountCents) },
          chave: env.PIX_KEY,
          solicitacaoPagador: description.slice(0, 140),
        });
      } catch (err) {
        if (!(err instanceof PaymentProviderTimeout)) throw err;
        // The charge may exist even though its answer was lost: the txid is ours, so ask for it.
        try {
          cob = await call(pix, 'GET', cobPath(txid), 'read');
        } catch {
          throw err;
        }
        if (centsFrom(obj(cob.valor).original) !== amountCents) throw err;
      }
      const state = pixState(txid, cob);
      const locId = obj(cob.loc).id;
      if (locId === undefined)
        throw new PaymentProviderError(
          'A Efí não devolveu a location da cobrança.',
          502,
          'resposta_invalida',
        );
      const qr = await call(pix, 'GET', `/v2/loc/${encodeURIComponent(String(locId))}/qrcode`, 'read');
      const pixCopiaECola = str(qr.qrcode) ?? str(cob.pixCopiaECola);
      const qrCodeDataUri = str(qr.imagemQrcode);
      if (!pixCopiaECola || !qrCodeDataUri)
        throw new PaymentProviderError('A Efí não devolveu o QR Code.', 502, 'resposta_invalida');
      return { txid, pixCopiaECola, qrCodeDataUri, expiresAt: state.expiresAt };
    },

    getPix,

    async cancelPix(txid) {
      try {
        return pixState(
          txid,
          await call(pix, 'PATCH', cobPath(txid), 'auth', { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }),
        );
      } catch (err) {
        // A charge paid (or already removed) meanwhile cannot be removed: answer what it became.
        if (err instanceof PaymentProviderError && err.status === 400) return getPix(txid);
        throw err;
      }
    },

    async refundPix({ endToEndId, refundId, amountCents }) {
      const answer = await call(pix, 'PUT', devolucaoPath(endToEndId, refundId), 'auth', {
        valor: reaisString(amountCents),
      });
      const status = refundStatusOf(answer.status);
      return {
        refundId: str(answer.id) ?? refundId,
        status,
        amountCents: centsFrom(answer.valor),
        raw: answer,
      };
    },

    async refundStatus({ endToEndId, refundId }) {
      const answer = await call(pix, 'GET', devolucaoPath(endToEndId, refundId), 'read');
      const status = refundStatusOf(answer.status);
      const reason = str(answer.motivo);
      return {
        refundId: str(answer.id) ?? refundId,
        status,
        ...(status === 'NAO_REALIZADO' && reason ? { reason } : {}),
        raw: answer,
      };
    },

    async refundCard({ providerChargeId, amountCents }) {
      const path = `/v1/charge/${encodeURIComponent(providerChargeId)}`;
      // Efí keeps no refund id for cards: a charge already `refunded` means everything went back. A part
      // (`amount` below the total, docs/decisions/0036) leaves it `paid` until the rest is returned.
      const before = cardCharge(obj((await call(charges, 'GET', path, 'read')).data));
      if (before.status === 'refunded') return { status: 'DEVOLVIDO', raw: before.raw };
      const answer = await call(charges, 'POST', `${path}/refund`, 'never', { amount: amountCents });
      return { status: 'DEVOLVIDO', raw: answer };
    },

    async chargeCard(input) {
      const answer = await call(charges, 'POST', '/v1/charge/one-step', 'never', oneStepBody(input));
      const result = cardCharge(obj(answer.data), input.installments);
      return input.customId && !result.customId ? { ...result, customId: input.customId } : result;
    },

    async getCardCharge(providerChargeId) {
      const answer = await call(charges, 'GET', `/v1/charge/${encodeURIComponent(providerChargeId)}`, 'read');
      return cardCharge(obj(answer.data));
    },

    async cardNotification(token) {
      const answer = await call(charges, 'GET', `/v1/notification/${encodeURIComponent(token)}`, 'read');
      const changes = Array.isArray(answer.data) ? answer.data.map(obj) : [];
      // Efí lists every change of the charge so far; only the last one is where it stands now.
      const last = changes.at(-1);
      const chargeId = last ? obj(last.identifiers).charge_id : undefined;
      if (!last || chargeId === undefined)
        throw new PaymentProviderError('Notificação da Efí sem cobrança.', 502, 'resposta_invalida');
      const customId = str(last.custom_id);
      return {
        chargeId: String(chargeId),
        ...(customId ? { customId } : {}),
        status: cardStatus(obj(last.status).current),
        raw: answer,
      };
    },

    async installments(brand, totalCents) {
      const key = `${brand}:${totalCents}`;
      const cached = installmentsCache.get(key);
      if (cached && clock() - cached.at < INSTALLMENTS_TTL_MS) return cached.list;
      const list = fetchInstallments(brand, totalCents);
      installmentsCache.set(key, { at: clock(), list });
      // A failure is not remembered: the next buyer asks Efí again.
      list.catch(() => installmentsCache.delete(key));
      return list;
    },

    async registerPixWebhook(url) {
      // Without mTLS on our side, the secret in the URL is the only thing that authenticates Efí.
      if (!/[?&]hmac=[^&]+/.test(url))
        throw new PaymentProviderError(
          'A URL do webhook Pix precisa do segredo (?hmac=…).',
          400,
          'webhook_sem_segredo',
        );
      await call(pix, 'PUT', webhookPath, 'auth', { webhookUrl: url }, { 'x-skip-mtls-checking': 'true' });
      const registered = await getPixWebhook();
      if (!registered)
        throw new PaymentProviderError('A Efí não manteve o webhook Pix registrado.', 502, 'webhook_ausente');
      if (registered.url !== url)
        throw new PaymentProviderError(
          'O webhook Pix registrado na Efí aponta para outro endereço.',
          502,
          'webhook_divergente',
        );
    },

    getPixWebhook,
  };
}
