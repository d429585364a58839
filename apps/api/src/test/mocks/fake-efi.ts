/**
 * A strict stand-in for Efí on 127.0.0.1, for tests only: two HTTPS servers (API Pix with mutual TLS,
 * charges API without), Efí's answer and error shapes, its validation of the card one-step body, and
 * controls to delay, fail or settle things the way the real one does on a bad day.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { chargedCents, listInstallments } from '@passada/core/installments';
import { buildPixPayload } from '@passada/core/pix-br-code';
import type { CardStatus } from '../../providers/payments/payments.provider.ts';

export interface TestCertificate {
  key: Buffer;
  cert: Buffer;
}

/** A self-signed certificate and key made by the openssl CLI in `dir` (nothing is checked in). */
export function makeTestCertificate(dir: string, name: string, cn: string): TestCertificate {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      `/CN=${cn}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};

export type FakeCardOutcome = 'approved' | 'unpaid' | 'waiting';
/** Efí's statuses, plus `new`, which a charge has before the card is tried. */
export type FakeCardStatus = CardStatus | 'new';

export interface FakeCob extends Json {
  txid: string;
  status: string;
  calendario: { criacao: string; expiracao: number };
  valor: { original: string };
  loc: { id: number; location: string; tipoCob: 'cob' };
  pix?: Json[];
}

export interface FakeCardCharge {
  chargeId: number;
  customId: string | null;
  notificationUrl: string | null;
  body: Json;
  total: number;
  /** Centavos returned so far: Efí takes partial refunds up to the total (docs/decisions/0036). */
  refunded?: number;
  installments: number;
  installmentValue: number;
  createdAt: string;
  /** Each status change with the notification token Efí would POST for it. */
  history: { status: FakeCardStatus; previous: FakeCardStatus | null; token: string; at: string }[];
}

export interface FakeRefund extends Json {
  id: string;
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  e2eId: string;
  valorCents: number;
}

export interface FakeRequest {
  api: 'pix' | 'charges';
  method: string;
  path: string;
  /** CN of the client certificate presented, if any. */
  clientCert?: string;
  headers: Record<string, string | string[] | undefined>;
  body: Json;
}

/** What Efí would POST to us: Pix to the registered webhook (plus `/pix`), cards to notification_url. */
export type FakeDelivery =
  | { kind: 'pix'; url: string; body: { pix: Json[] } }
  | { kind: 'card'; url: string; token: string };

export interface FakeEfiOptions {
  server: TestCertificate;
  /** The only client certificate API Pix accepts (the account's). */
  accountCert: Buffer;
  clientId: string;
  clientSecret: string;
  pixKey: string;
  /** Receives what Efí would POST to the shop (a later test can hand it to the app). */
  deliver?: (delivery: FakeDelivery) => void | Promise<void>;
}

export interface FakeEfi {
  pixUrl: string;
  chargesUrl: string;
  cobs: Map<string, FakeCob>;
  charges: Map<number, FakeCardCharge>;
  webhooks: Map<string, { webhookUrl: string; chave: string; criacao: string }>;
  /** Pix refunds by `e2eId/id`. */
  refunds: Map<string, FakeRefund>;
  requests: FakeRequest[];
  /** Requests made so far as `METHOD /path` (query left out). */
  calls(): string[];
  /** A payment token as the browser tokenizer would give, whose charge ends as told. */
  cardToken(outcome: FakeCardOutcome): string;
  /** The next `times` requests matching `route` ("PUT /v2/cob/") are done, but answered `ms` later. */
  delay(route: string, ms: number, times?: number): void;
  /** The next request matching `route` gets this status without being done. */
  failOnce(route: string, status: 401 | 500 | 502 | 503): void;
  /** The next webhook registration is answered 200 but not kept (the read-back must catch it). */
  ignoreNextWebhookRegistration(): void;
  /** Every token issued so far stops working (as when Efí expires them early). */
  revokeTokens(): void;
  /** The payer pays the charge at their bank. */
  payCob(txid: string, options?: { afterExpiry?: boolean; amountCents?: number }): Promise<string>;
  /**
   * The payer's bank settles a refund still EM_PROCESSAMENTO: DEVOLVIDO (the money is back) or
   * NAO_REALIZADO with `motivo`. Efí then POSTs the Pix, with its `devolucoes`, to the webhook.
   */
  settleRefund(refundId: string, outcome?: 'DEVOLVIDO' | 'NAO_REALIZADO', motivo?: string): Promise<void>;
  /** The card network moves a charge; answers the notification token. */
  setCardStatus(chargeId: number, status: FakeCardStatus): Promise<string>;
  close(): Promise<void>;
}

const efiValidation = (property: string, message: string) => ({
  code: 3500034,
  error: 'validation_error',
  error_description: { property, message },
});

/** The one-step body as Efí checks it; answers the first problem. */
function validateOneStep(body: Json): ReturnType<typeof efiValidation> | null {
  const items = body.items;
  if (!Array.isArray(items) || items.length === 0)
    return efiValidation('/items', 'A propriedade items é obrigatória e deve ter ao menos um item.');
  for (const [i, raw] of items.entries()) {
    const item = obj(raw);
    if (typeof item.name !== 'string' || item.name.length < 1 || item.name.length > 255)
      return efiValidation(`/items/${i}/name`, 'O nome do item deve ter de 1 a 255 caracteres.');
    if (!Number.isInteger(item.value) || Number(item.value) < 1)
      return efiValidation(`/items/${i}/value`, 'O valor do item deve ser um inteiro em centavos.');
    if (!Number.isInteger(item.amount) || Number(item.amount) < 1)
      return efiValidation(`/items/${i}/amount`, 'A quantidade do item deve ser um inteiro positivo.');
  }
  const card = obj(obj(body.payment).credit_card);
  const at = (p: string) => `/payment/credit_card/${p}`;
  if (!Object.keys(card).length)
    return efiValidation('/payment/credit_card', 'A propriedade credit_card é obrigatória.');
  const n = card.installments;
  if (!Number.isInteger(n) || Number(n) < 1 || Number(n) > 24)
    return efiValidation(at('installments'), 'O número de parcelas deve estar entre 1 e 24.');
  if (typeof card.payment_token !== 'string' || !/^[a-f0-9]{40}$/.test(card.payment_token))
    return efiValidation(at('payment_token'), 'O payment_token informado é inválido.');
  const address = obj(card.billing_address);
  if (!card.billing_address)
    return efiValidation(at('billing_address'), 'A propriedade billing_address é obrigatória.');
  for (const key of ['street', 'number', 'neighborhood', 'zipcode', 'city', 'state']) {
    if (typeof address[key] !== 'string' || address[key] === '')
      return efiValidation(at(`billing_address/${key}`), `A propriedade ${key} é obrigatória.`);
  }
  if (!/^\d{8}$/.test(String(address.zipcode)))
    return efiValidation(at('billing_address/zipcode'), 'O CEP deve ter 8 dígitos.');
  if (!/^[A-Z]{2}$/.test(String(address.state)))
    return efiValidation(at('billing_address/state'), 'A UF deve ter 2 letras maiúsculas.');
  const customer = obj(card.customer);
  if (!card.customer) return efiValidation(at('customer'), 'A propriedade customer é obrigatória.');
  if (typeof customer.name !== 'string' || customer.name.trim().split(/\s+/).length < 2)
    return efiValidation(at('customer/name'), 'Informe nome e sobrenome.');
  if (typeof customer.cpf !== 'string' || !/^\d{11}$/.test(customer.cpf))
    return efiValidation(at('customer/cpf'), 'O CPF deve ter 11 dígitos.');
  if (typeof customer.email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(customer.email))
    return efiValidation(at('customer/email'), 'O e-mail informado é inválido.');
  if (typeof customer.birth !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(customer.birth))
    return efiValidation(at('customer/birth'), 'A data de nascimento deve estar no formato AAAA-MM-DD.');
  if ('phone_number' in customer && !/^[1-9]{2}9?[0-9]{8}$/.test(String(customer.phone_number)))
    return efiValidation(at('customer/phone_number'), 'O telefone informado é inválido.');
  const metadata = obj(body.metadata);
  if ('custom_id' in metadata && (typeof metadata.custom_id !== 'string' || metadata.custom_id.length > 255))
    return efiValidation('/metadata/custom_id', 'O custom_id deve ter até 255 caracteres.');
  if ('notification_url' in metadata && !URL.canParse(String(metadata.notification_url)))
    return efiValidation('/metadata/notification_url', 'A notification_url informada é inválida.');
  return null;
}

const VALOR = /^\d{1,10}\.\d{2}$/;
const cents = (valor: unknown) => Math.round(Number(valor) * 100);

export async function startFakeEfi(options: FakeEfiOptions): Promise<FakeEfi> {
  const cobs = new Map<string, FakeCob>();
  const charges = new Map<number, FakeCardCharge>();
  const webhooks = new Map<string, { webhookUrl: string; chave: string; criacao: string }>();
  const refunds = new Map<string, FakeRefund>();
  const requests: FakeRequest[] = [];
  const cardTokens = new Map<string, FakeCardOutcome>();
  const notifications = new Map<string, FakeCardCharge>();
  const validTokens = { pix: new Set<string>(), charges: new Set<string>() };
  const delays: { route: string; ms: number; times: number }[] = [];
  const failures: { route: string; status: number }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const basic = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
  let nextLoc = 789;
  let ignoreWebhook = false;
  let nextCharge = 4242;

  const deliver = async (delivery: FakeDelivery) => {
    await options.deliver?.(delivery);
  };

  const moveCharge = (charge: FakeCardCharge, status: FakeCardStatus) => {
    const token = randomBytes(20).toString('hex');
    charge.history.push({
      status,
      previous: charge.history.at(-1)?.status ?? null,
      token,
      at: new Date().toISOString(),
    });
    notifications.set(token, charge);
    return token;
  };
  const chargeStatus = (c: FakeCardCharge) => c.history.at(-1)?.status ?? 'new';

  /** A refund as Efí answers it (our bookkeeping fields left out). */
  const refundAnswer = ({ e2eId: _, valorCents: __, ...answer }: FakeRefund) => answer;

  type Answer = { status: number; body: unknown };
  const send = (status: number, body: unknown): Answer => ({ status, body });
  const notAuthorized = send(401, { nome: 'nao_autorizado', mensagem: 'Requisição não autorizada.' });

  function issueToken(api: 'pix' | 'charges', req: FakeRequest): Answer {
    if (req.headers.authorization !== basic || req.body.grant_type !== 'client_credentials')
      return send(401, { error: 'invalid_client', error_description: 'Credenciais inválidas' });
    const token = randomBytes(16).toString('hex');
    validTokens[api].add(token);
    return send(200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: 'cob.write' });
  }

  function pixRoute(req: FakeRequest, url: URL): Answer {
    if (req.method === 'POST' && url.pathname === '/oauth/token') return issueToken('pix', req);
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!validTokens.pix.has(bearer)) return notAuthorized;
    const { body } = req;
    let m = /^\/v2\/cob\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const txid = decodeURIComponent(m[1] ?? '');
      const cob = cobs.get(txid);
      if (req.method === 'PUT') {
        if (!/^[a-zA-Z0-9]{26,35}$/.test(txid))
          return send(400, {
            nome: 'txid_invalido',
            mensagem: 'O txid deve ter de 26 a 35 caracteres alfanuméricos.',
          });
        const expiracao = obj(body.calendario).expiracao;
        if (!Number.isInteger(expiracao) || Number(expiracao) < 1)
          return send(400, { nome: 'valor_invalido', mensagem: 'Campo calendario.expiracao inválido.' });
        const valor = obj(body.valor).original;
        if (typeof valor !== 'string' || !VALOR.test(valor) || cents(valor) < 1)
          return send(400, { nome: 'valor_invalido', mensagem: 'Campo valor.original inválido.' });
        if (body.chave !== options.pixKey)
          return send(400, {
            nome: 'chave_invalida',
            mensagem: 'A chave informada não pertence a esta conta.',
          });
        if (typeof body.solicitacaoPagador === 'string' && body.solicitacaoPagador.length > 140)
          return send(400, {
            nome: 'valor_invalido',
            mensagem: 'Campo solicitacaoPagador acima de 140 caracteres.',
          });
        if (cob)
          return send(400, {
            nome: 'txid_duplicado',
            mensagem: 'Campo txid informado já foi utilizado em outra cobrança.',
          });
        const id = nextLoc++;
        const location = `pix.example.com/qr/v2/${txid}`;
        const created: FakeCob = {
          calendario: { criacao: new Date().toISOString(), expiracao: Number(expiracao) },
          txid,
          revisao: 0,
          loc: { id, location, tipoCob: 'cob' },
          location,
          status: 'ATIVA',
          valor: { original: valor },
          chave: body.chave,
          solicitacaoPagador: body.solicitacaoPagador,
        };
        cobs.set(txid, created);
        return send(201, {
          ...created,
          pixCopiaECola: buildPixPayload({
            url: location,
            amountCents: cents(valor),
            merchantName: 'PASSADA',
            merchantCity: 'FORTALEZA',
          }),
        });
      }
      if (!cob)
        return send(404, {
          nome: 'cobranca_nao_encontrada',
          mensagem: 'Nenhuma cobrança encontrada para o txid informado.',
        });
      if (req.method === 'GET') return send(200, cob);
      if (req.method === 'PATCH') {
        if (body.status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
          return send(400, { nome: 'valor_invalido', mensagem: 'Campo status inválido.' });
        if (cob.status !== 'ATIVA')
          return send(400, {
            nome: 'cobranca_nao_ativa',
            mensagem: 'A cobrança não está ativa e não pode ser alterada.',
          });
        cob.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
        cob.revisao = Number(cob.revisao) + 1;
        return send(200, cob);
      }
    }
    m = /^\/v2\/loc\/(\d+)\/qrcode$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const cob = [...cobs.values()].find((c) => c.loc.id === Number(m?.[1]));
      if (!cob) return send(404, { nome: 'location_nao_encontrada', mensagem: 'Location não encontrada.' });
      return send(200, {
        qrcode: buildPixPayload({
          url: cob.loc.location,
          amountCents: cents(cob.valor.original),
          merchantName: 'PASSADA',
          merchantCity: 'FORTALEZA',
        }),
        imagemQrcode: 'data:image/png;base64,iVBORw0KGgo=',
        linkVisualizacao: `https://pix.example.com/v2/visualizacao/${cob.loc.id}`,
      });
    }
    m = /^\/v2\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const found = refunds.get(`${decodeURIComponent(m[1] ?? '')}/${decodeURIComponent(m[2] ?? '')}`);
      if (!found)
        return send(404, {
          nome: 'devolucao_nao_encontrada',
          mensagem: 'Nenhuma devolução encontrada para o e2eId e o id informados.',
        });
      return send(200, refundAnswer(found));
    }
    if (m && req.method === 'PUT') {
      const e2eId = decodeURIComponent(m[1] ?? '');
      const id = decodeURIComponent(m[2] ?? '');
      if (!/^[a-zA-Z0-9]{1,35}$/.test(id))
        return send(400, {
          nome: 'valor_invalido',
          mensagem: 'O id da devolução deve ter de 1 a 35 caracteres alfanuméricos.',
        });
      const paid = [...cobs.values()].flatMap((c) => c.pix ?? []).find((p) => p.endToEndId === e2eId);
      if (!paid)
        return send(404, {
          nome: 'pix_nao_encontrado',
          mensagem: 'Pix não encontrado para o e2eId informado.',
        });
      const existing = refunds.get(`${e2eId}/${id}`);
      if (existing) return send(201, refundAnswer(existing));
      if (typeof body.valor !== 'string' || !VALOR.test(body.valor) || cents(body.valor) < 1)
        return send(400, { nome: 'valor_invalido', mensagem: 'Campo valor inválido.' });
      const returned = [...refunds.values()]
        .filter((r) => r.e2eId === e2eId)
        .reduce((sum, r) => sum + r.valorCents, 0);
      if (returned + cents(body.valor) > cents(paid.valor))
        return send(400, {
          nome: 'valor_devolucao_acima_do_permitido',
          mensagem: 'O valor da devolução é maior que o valor disponível do Pix.',
        });
      const refund = {
        id,
        rtrId: `D${randomBytes(15).toString('hex').toUpperCase()}`.slice(0, 32),
        valor: body.valor,
        horario: { solicitacao: new Date().toISOString() },
        status: 'EM_PROCESSAMENTO' as const,
      };
      refunds.set(`${e2eId}/${id}`, { ...refund, e2eId, valorCents: cents(body.valor) });
      return send(201, refund);
    }
    m = /^\/v2\/webhook\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const chave = decodeURIComponent(m[1] ?? '');
      if (req.method === 'PUT') {
        // Efí first calls the URL without a client certificate; this header is the way out of that check.
        if (req.headers['x-skip-mtls-checking'] !== 'true')
          return send(400, {
            nome: 'webhook_invalido',
            mensagem: 'A autenticação de TLS mútuo não está configurada na URL informada.',
          });
        if (typeof body.webhookUrl !== 'string' || !body.webhookUrl.startsWith('https://'))
          return send(400, { nome: 'webhook_invalido', mensagem: 'A URL do webhook deve usar HTTPS.' });
        if (chave !== options.pixKey)
          return send(400, {
            nome: 'chave_invalida',
            mensagem: 'A chave informada não pertence a esta conta.',
          });
        if (!ignoreWebhook)
          webhooks.set(chave, { webhookUrl: body.webhookUrl, chave, criacao: new Date().toISOString() });
        ignoreWebhook = false;
        return send(200, { webhookUrl: body.webhookUrl });
      }
      if (req.method === 'GET') {
        const hook = webhooks.get(chave);
        if (!hook)
          return send(404, {
            nome: 'webhook_nao_encontrado',
            mensagem: 'Webhook não encontrado para a chave informada.',
          });
        return send(200, hook);
      }
    }
    return send(404, { nome: 'nao_encontrado', mensagem: 'Rota não encontrada.' });
  }

  function chargeData(c: FakeCardCharge) {
    const status = chargeStatus(c);
    return {
      charge_id: c.chargeId,
      total: c.total,
      status,
      custom_id: c.customId,
      notification_url: c.notificationUrl,
      created_at: c.createdAt,
      items: c.body.items,
      customer: obj(obj(c.body.payment).credit_card).customer,
      payment: {
        method: 'credit_card',
        created_at: c.createdAt,
        credit_card: {
          installments: c.installments,
          installment_value: c.installmentValue,
          mask: 'XXXXXXXXXXXX1111',
          address: obj(obj(c.body.payment).credit_card).billing_address,
        },
      },
      ...(status === 'unpaid'
        ? { refusal: { reason: 'Transação não autorizada pelo banco emissor.', retry: true } }
        : {}),
    };
  }

  const chargeNotFound = () =>
    send(404, { code: 3500010, error: 'charge_not_found', error_description: 'Cobrança não encontrada.' });

  function chargesRoute(req: FakeRequest, url: URL): Answer {
    if (req.method === 'POST' && url.pathname === '/v1/authorize') return issueToken('charges', req);
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!validTokens.charges.has(bearer))
      return send(401, { code: 401, error: 'unauthorized', error_description: 'Token de acesso inválido.' });
    if (req.method === 'POST' && url.pathname === '/v1/charge/one-step') {
      const invalid = validateOneStep(req.body);
      if (invalid) return send(400, invalid);
      const card = obj(obj(req.body.payment).credit_card);
      const outcome = cardTokens.get(String(card.payment_token));
      if (!outcome)
        return send(
          400,
          efiValidation('/payment/credit_card/payment_token', 'Token de pagamento inválido ou expirado.'),
        );
      cardTokens.delete(String(card.payment_token));
      const items = (req.body.items as Json[]).map(obj);
      const base = items.reduce((s, i) => s + Number(i.value) * Number(i.amount), 0);
      const option = listInstallments(base).find((o) => o.installment === card.installments);
      if (!option)
        return send(
          400,
          efiValidation('/payment/credit_card/installments', 'Parcelamento indisponível para o valor.'),
        );
      const metadata = obj(req.body.metadata);
      const charge: FakeCardCharge = {
        chargeId: nextCharge++,
        customId: typeof metadata.custom_id === 'string' ? metadata.custom_id : null,
        notificationUrl: typeof metadata.notification_url === 'string' ? metadata.notification_url : null,
        body: req.body,
        total: chargedCents(base, option),
        installments: option.installment,
        installmentValue: option.value,
        createdAt: new Date().toISOString(),
        history: [],
      };
      charges.set(charge.chargeId, charge);
      moveCharge(charge, 'new');
      moveCharge(charge, outcome);
      const data = chargeData(charge);
      return send(200, {
        code: 200,
        data: {
          installments: charge.installments,
          installment_value: charge.installmentValue,
          charge_id: charge.chargeId,
          status: data.status,
          total: charge.total,
          payment: 'credit_card',
          custom_id: charge.customId,
          ...('refusal' in data ? { refusal: data.refusal } : {}),
        },
      });
    }
    let m = /^\/v1\/charge\/(\d+)$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const charge = charges.get(Number(m[1]));
      if (!charge) return chargeNotFound();
      return send(200, { code: 200, data: chargeData(charge) });
    }
    m = /^\/v1\/charge\/(\d+)\/refund$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      const charge = charges.get(Number(m[1]));
      if (!charge) return chargeNotFound();
      const status = charge.history.at(-1)?.status;
      if (status !== 'paid' && status !== 'settled')
        return send(400, {
          code: 3500034,
          error: 'charge_status_invalid',
          error_description: 'A situação da cobrança não permite estorno.',
        });
      // A partial refund leaves the charge `paid`; the one that returns the rest makes it `refunded`.
      const left = charge.total - (charge.refunded ?? 0);
      const amount = req.body.amount === undefined ? left : Number(req.body.amount);
      if (!Number.isInteger(amount) || amount < 1)
        return send(400, efiValidation('/amount', 'Valor do estorno inválido.'));
      if (amount > left)
        return send(400, {
          code: 3500034,
          error: 'refund_amount_invalid',
          error_description: 'O valor do estorno é maior que o valor disponível da cobrança.',
        });
      charge.refunded = (charge.refunded ?? 0) + amount;
      if (charge.refunded === charge.total) moveCharge(charge, 'refunded');
      return send(200, { code: 200 });
    }
    m = /^\/v1\/notification\/([^/]+)$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const token = decodeURIComponent(m[1] ?? '');
      const charge = notifications.get(token);
      if (!charge)
        return send(404, {
          code: 3500010,
          error: 'notification_not_found',
          error_description: 'Notificação não encontrada.',
        });
      // Efí lists every change of the charge up to the one the token stands for, oldest first.
      const upTo = charge.history.findIndex((h) => h.token === token);
      return send(200, {
        code: 200,
        data: charge.history.slice(0, upTo + 1).map((h, i) => ({
          id: i + 1,
          type: 'charge',
          custom_id: charge.customId,
          status: { current: h.status, previous: h.previous },
          identifiers: { charge_id: charge.chargeId },
          created_at: h.at,
        })),
      });
    }
    if (req.method === 'GET' && url.pathname === '/v1/installments') {
      const brand = url.searchParams.get('brand');
      const total = Number(url.searchParams.get('total'));
      if (!brand || !Number.isInteger(total) || total < 1)
        return send(400, efiValidation('/total', 'Informe brand e total em centavos.'));
      return send(200, { code: 200, data: { rate: 0, name: brand, installments: listInstallments(total) } });
    }
    return send(404, { code: 404, error: 'not_found', error_description: 'Rota não encontrada.' });
  }

  const matches = (route: string, req: FakeRequest) => `${req.method} ${req.path}`.startsWith(route);

  function serve(api: 'pix' | 'charges') {
    return (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'https://efi.invalid');
        let body: Json = {};
        try {
          body = chunks.length ? obj(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : {};
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ nome: 'json_invalido', mensagem: 'Corpo da requisição inválido.' }));
          return;
        }
        const peer = (req.socket as TLSSocket).getPeerCertificate?.();
        const cn = peer?.subject?.CN;
        const seen: FakeRequest = {
          api,
          method: req.method ?? 'GET',
          path: url.pathname,
          ...(typeof cn === 'string' ? { clientCert: cn } : {}),
          headers: req.headers,
          body,
        };
        requests.push(seen);
        const write = ({ status, body: answer }: Answer) => {
          if (res.destroyed) return;
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer));
        };
        const failure = failures.findIndex((f) => matches(f.route, seen));
        if (failure >= 0) {
          const [f] = failures.splice(failure, 1);
          const status = f?.status ?? 500;
          return write(
            send(
              status,
              status === 401
                ? { nome: 'nao_autorizado', mensagem: 'Requisição não autorizada.' }
                : { nome: 'erro_interno', mensagem: 'Erro interno do servidor.' },
            ),
          );
        }
        const answer = api === 'pix' ? pixRoute(seen, url) : chargesRoute(seen, url);
        const delay = delays.find((d) => d.times > 0 && matches(d.route, seen));
        if (!delay) return write(answer);
        delay.times--;
        const timer = setTimeout(() => {
          timers.delete(timer);
          write(answer);
        }, delay.ms);
        timers.add(timer);
      });
    };
  }

  // API Pix demands the account certificate at the TLS handshake, token call included.
  const pixServer = https.createServer(
    { ...options.server, ca: options.accountCert, requestCert: true, rejectUnauthorized: true },
    serve('pix'),
  );
  // The charges API never asks for a client certificate.
  const chargesServer = https.createServer({ ...options.server }, serve('charges'));
  const listen = (srv: https.Server) =>
    new Promise<string>((resolve) =>
      srv.listen(0, '127.0.0.1', () => resolve(`https://127.0.0.1:${(srv.address() as AddressInfo).port}`)),
    );
  const [pixUrl, chargesUrl] = await Promise.all([listen(pixServer), listen(chargesServer)]);

  return {
    pixUrl,
    chargesUrl,
    cobs,
    charges,
    webhooks,
    refunds,
    requests,
    calls: () => requests.map((r) => `${r.method} ${r.path}`),
    cardToken(outcome) {
      const token = randomBytes(20).toString('hex');
      cardTokens.set(token, outcome);
      return token;
    },
    delay(route, ms, times = 1) {
      delays.push({ route, ms, times });
    },
    failOnce(route, status) {
      failures.push({ route, status });
    },
    ignoreNextWebhookRegistration() {
      ignoreWebhook = true;
    },
    revokeTokens() {
      validTokens.pix.clear();
      validTokens.charges.clear();
    },
    async payCob(txid, { afterExpiry = false, amountCents } = {}) {
      const cob = cobs.get(txid);
      if (cob?.status !== 'ATIVA') throw new Error(`cobrança ${txid} não está ativa`);
      const expiresAt = Date.parse(cob.calendario.criacao) + cob.calendario.expiracao * 1000;
      if (expiresAt <= Date.now() && !afterExpiry) throw new Error(`cobrança ${txid} expirada`);
      const endToEndId = `E${randomBytes(15).toString('hex')}`.slice(0, 32);
      const valor = amountCents === undefined ? cob.valor.original : (amountCents / 100).toFixed(2);
      const paid = { endToEndId, txid, valor, chave: options.pixKey, horario: new Date().toISOString() };
      cob.status = 'CONCLUIDA';
      cob.pix = [paid];
      const hook = webhooks.get(options.pixKey);
      if (hook) await deliver({ kind: 'pix', url: `${hook.webhookUrl}/pix`, body: { pix: [paid] } });
      return endToEndId;
    },
    async settleRefund(refundId, outcome = 'DEVOLVIDO', motivo = 'Conta do pagador encerrada.') {
      const refund = [...refunds.values()].find((r) => r.id === refundId);
      if (refund?.status !== 'EM_PROCESSAMENTO')
        throw new Error(`devolução ${refundId} não está em processamento`);
      refund.status = outcome;
      refund.horario = { ...obj(refund.horario), liquidacao: new Date().toISOString() };
      if (outcome === 'NAO_REALIZADO') refund.motivo = motivo;
      const paid = [...cobs.values()].flatMap((c) => c.pix ?? []).find((p) => p.endToEndId === refund.e2eId);
      const hook = webhooks.get(options.pixKey);
      if (!paid || !hook) return;
      const devolucoes = [...refunds.values()].filter((r) => r.e2eId === refund.e2eId).map(refundAnswer);
      paid.devolucoes = devolucoes;
      await deliver({ kind: 'pix', url: `${hook.webhookUrl}/pix`, body: { pix: [{ ...paid, devolucoes }] } });
    },
    async setCardStatus(chargeId, status) {
      const charge = charges.get(chargeId);
      if (!charge) throw new Error(`cobrança de cartão ${chargeId} não existe`);
      const token = moveCharge(charge, status);
      if (charge.notificationUrl) await deliver({ kind: 'card', url: charge.notificationUrl, token });
      return token;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(
        [pixServer, chargesServer].map(
          (srv) =>
            new Promise<void>((resolve) => {
              srv.closeAllConnections();
              srv.close(() => resolve());
            }),
        ),
      );
    },
  };
}

export interface FakeEfiAccount {
  fake: FakeEfi;
  /** The certificate the fake serves with: the provider's `ca`. */
  serverCert: TestCertificate;
  /** Folder of the certificates (client.crt, client.key, conta.pem); `close` removes it. */
  dir: string;
  /** Settings that point PAYMENTS=efi at the fake with the account's certificate. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** The fake Efí with a Passada account on it: certificates made, servers up, settings ready. */
export async function startFakeEfiAccount(
  options: Omit<FakeEfiOptions, 'server' | 'accountCert'> & { webhookSecret: string },
): Promise<FakeEfiAccount> {
  const { webhookSecret, ...fakeOptions } = options;
  const dir = mkdtempSync(path.join(tmpdir(), 'passada-efi-'));
  const serverCert = makeTestCertificate(dir, 'server', '127.0.0.1');
  const client = makeTestCertificate(dir, 'client', 'conta-passada');
  // Efí's .p12 converted to PEM: certificate and key in one file.
  const certPath = path.join(dir, 'conta.pem');
  writeFileSync(certPath, Buffer.concat([client.cert, client.key]));
  const fake = await startFakeEfi({ ...fakeOptions, server: serverCert, accountCert: client.cert });
  return {
    fake,
    serverCert,
    dir,
    env: {
      PAYMENTS: 'efi',
      EFI_CLIENT_ID: options.clientId,
      EFI_CLIENT_SECRET: options.clientSecret,
      EFI_CERTIFICATE_PATH: certPath,
      EFI_ACCOUNT_ID: 'a'.repeat(32),
      EFI_PIX_URL: fake.pixUrl,
      EFI_CHARGES_URL: fake.chargesUrl,
      EFI_WEBHOOK_SECRET: webhookSecret,
      PIX_KEY: options.pixKey,
    },
    async close() {
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
