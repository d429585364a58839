import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../config/env.ts';
import { authTokens, chargeRefunds, charges } from '../../db/schema/index.ts';
import { hashToken } from '../../plugins/auth.ts';
import { createEfiProvider } from '../../providers/payments/efi.provider.ts';
import { waitForMailContaining } from '../../test/factories/accounts.ts';
import { chargeByTxid, makeFakePurpose, makeUser, orderPix } from '../../test/factories/payments.ts';
import {
  type FakeDelivery,
  type FakeEfi,
  type FakeEfiAccount,
  startFakeEfiAccount,
  type TestCertificate,
} from '../../test/mocks/fake-efi.ts';
import { createTestApp, type TestApp, useClockedTestApp } from '../../test/test-app.ts';
import { CannotFulfil } from './payments.service.ts';

const CLIENT_ID = 'Client_Id_loja';
const CLIENT_SECRET = 'Client_Secret_loja';
const PIX_KEY = 'contato@passada.com.br';
const SECRET = 'segredo-webhook-efi';
const CPF = '40364478829';

let account: FakeEfiAccount;
let fake: FakeEfi;
let serverCert: TestCertificate;
let envVars: Record<string, string>;
const deliveries: FakeDelivery[] = [];

beforeAll(async () => {
  account = await startFakeEfiAccount({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    pixKey: PIX_KEY,
    webhookSecret: SECRET,
    deliver: (d) => {
      deliveries.push(d);
    },
  });
  ({ fake, serverCert } = account);
  envVars = {
    ...account.env,
    PUBLIC_URL: 'https://loja.example',
    EFI_WEBHOOK_ALLOWED_IPS: '127.0.0.1',
  };
});
afterAll(() => account.close());

async function efiApp(timeoutMs: number): Promise<TestApp> {
  const env = { ...envVars, EFI_TIMEOUT_MS: String(timeoutMs) };
  const provider = createEfiProvider(loadEnv({ NODE_ENV: 'test', ...env }), { ca: serverCert.cert });
  return createTestApp({ env, providers: { payments: provider } });
}

const health = async (t: TestApp) => {
  await vi.waitFor(() => expect(t.app.payments.webhookState()).not.toBe('pendente'), { timeout: 45_000 });
  return t.app.inject({ method: 'GET', url: '/api/health' });
};

const payCard = (t: TestApp, headers: Record<string, string>, token: string, key = randomUUID()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pagar-cartao/',
    headers: { ...headers, 'idempotency-key': key },
    payload: {
      payment_token: token,
      name: 'Maria da Silva',
      cpf: CPF,
      phone: '(85) 99999-9999',
      email: 'maria@example.com',
      birth: '1990-05-17',
      total: 50,
      installments: 1,
      finalidade: 'pedido',
      pedido: { quantity: 1 },
    },
  });

/** A purpose as the orders module gives it: Efí refuses a card charge without a billing address. */
function purposeWithAddress(stock: number) {
  const purpose = makeFakePurpose({ unitCents: 5000, stock });
  const handler: typeof purpose.handler = {
    ...purpose.handler,
    prepare: async (tx, input) => ({
      ...(await purpose.handler.prepare(tx, input)),
      billingAddress: {
        street: 'Av. Beira Mar',
        number: '100',
        neighborhood: 'Meireles',
        zipcode: '60165121',
        city: 'Fortaleza',
        state: 'CE',
      },
    }),
  };
  return { handler, state: purpose.state };
}

/** Hands the shop what Efí POSTed to the card notification URL. */
const deliverCardNotification = async (t: TestApp, token: string) => {
  const delivered = deliveries.find((d) => d.kind === 'card' && d.token === token);
  expect(delivered?.url).toBe('https://loja.example/api/webhooks/cartao/');
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/cartao/',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `notification=${token}`,
  });
};

describe('payments against a strict fake Efí', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await efiApp(15_000);
  });
  afterAll(() => t.close());

  it('registers the Pix webhook with the skip-mTLS header and the secret in the URL; health shows it', async () => {
    const res = await health(t);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', pix_webhook: 'ok' });
    const registration = fake.requests.find((r) => r.method === 'PUT' && r.path.startsWith('/v2/webhook/'));
    expect(registration?.headers['x-skip-mtls-checking']).toBe('true');
    expect(fake.webhooks.get(PIX_KEY)?.webhookUrl).toBe(
      `https://loja.example/api/webhooks/pix/?hmac=${SECRET}&ignorar=`,
    );
  });

  it('a slow Efí (10 s to create a Pix) holds no transaction: other requests are answered while it waits', async () => {
    const order = purposeWithAddress(3);
    t.app.payments.registerPurpose('order', order.handler);
    const buyer = await makeUser(t.app);
    fake.delay('PUT /v2/cob/', 10_000);
    let slowDone = false;
    const slow = t.app
      .inject({
        method: 'POST',
        url: '/api/pagar-pix/',
        headers: buyer.headers,
        payload: { total: 50, finalidade: 'pedido', pedido: { quantity: 1 } },
      })
      .finally(() => {
        slowDone = true;
      });
    // Let the charge be reserved and the call to Efí be under way.
    await vi.waitFor(
      () => expect(fake.requests.some((r) => r.method === 'PUT' && r.path.startsWith('/v2/cob/'))).toBe(true),
      {
        timeout: 45_000,
        interval: 20,
      },
    );
    // A transaction held across the call would make these wait for Efí's 10 s: each is answered while
    // the slow charge is still waiting (an order of events, not a time limit, so a loaded machine
    // cannot fail it).
    for (let i = 0; i < 6; i++) {
      const url = i % 2 === 0 ? '/api/health' : '/api/products/';
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(slowDone).toBe(false);
    }
    const created = await slow;
    expect(created.statusCode).toBe(201);
    // The deadline is the one Efí recorded.
    const cob = fake.cobs.get(created.json().txid)!;
    expect(created.json().expira_em).toBe(
      new Date(new Date(cob.calendario.criacao).getTime() + cob.calendario.expiracao * 1000).toISOString(),
    );
  }, 30_000);

  it('card: custom_id, notification_url and birth go to Efí; waiting → 202, then the notification settles it', async () => {
    const order = purposeWithAddress(3);
    t.app.payments.registerPurpose('order', order.handler);
    const buyer = await makeUser(t.app);
    const res = await payCard(t, buyer.headers, fake.cardToken('waiting'));
    expect(res.statusCode).toBe(202);
    const { txid } = res.json();
    const charge = (await chargeByTxid(t.app, txid))!;
    const atEfi = [...fake.charges.values()].find((c) => c.customId === String(charge.id))!;
    expect(atEfi.notificationUrl).toBe('https://loja.example/api/webhooks/cartao/');
    expect(JSON.stringify(atEfi.body)).toContain('"birth":"1990-05-17"');
    expect(order.state.stock).toBe(2);

    const token = await fake.setCardStatus(atEfi.chargeId, 'paid');
    expect((await deliverCardNotification(t, token)).statusCode).toBe(200);
    expect((await chargeByTxid(t.app, txid))!.status).toBe('CONCLUIDA');
    expect(order.state.fulfilCalls).toBe(1);
  });
});

describe('payments against a fake Efí that fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    // What the first app registered is gone; this one's registration Efí answers but does not keep.
    fake.webhooks.clear();
    fake.ignoreNextWebhookRegistration();
    t = await efiApp(1_000);
  });
  afterAll(() => t.close());

  it('a webhook registration Efí did not keep shows in the health check, not only in a log', async () => {
    const res = await health(t);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'erro', pix_webhook: 'erro' });
  });

  it('card: Efí answers after our timeout → em análise, units held; its notification later makes one order', async () => {
    const order = purposeWithAddress(3);
    t.app.payments.registerPurpose('order', order.handler);
    const buyer = await makeUser(t.app);
    fake.delay('POST /v1/charge/one-step', 1_500);
    const key = randomUUID();
    const token = fake.cardToken('approved');
    const res = await payCard(t, buyer.headers, token, key);
    expect(res.statusCode).toBe(202);
    expect(res.json().detalhes.data.status).toBe('em_analise');
    const { txid } = res.json();
    const charge = (await chargeByTxid(t.app, txid))!;
    expect(charge.status).toBe('EM_ANALISE');
    expect(order.state.stock).toBe(2);
    // Retried by the browser: the first attempt's answer, and no second charge at Efí.
    const before = fake.calls().filter((c) => c === 'POST /v1/charge/one-step').length;
    expect((await payCard(t, buyer.headers, token, key)).json().txid).toBe(txid);
    expect(fake.calls().filter((c) => c === 'POST /v1/charge/one-step').length).toBe(before);

    const atEfi = await vi.waitFor(
      () => {
        const found = [...fake.charges.values()].find((c) => c.customId === String(charge.id));
        if (!found) throw new Error('ainda não criada');
        return found;
      },
      { timeout: 45_000, interval: 100 },
    );
    const notification = await fake.setCardStatus(atEfi.chargeId, 'paid');
    expect((await deliverCardNotification(t, notification)).statusCode).toBe(200);
    expect((await chargeByTxid(t.app, txid))!).toMatchObject({
      status: 'CONCLUIDA',
      providerChargeId: String(atEfi.chargeId),
    });
    expect(order.state.fulfilCalls).toBe(1);
  });

  it('Pix: Efí creates the charge but neither its answer nor the read-back arrive in time → FALHOU, units back, removed at Efí', async () => {
    const order = purposeWithAddress(3);
    t.app.payments.registerPurpose('order', order.handler);
    const buyer = await makeUser(t.app);
    // The creation is late, and so is asking Efí for it (the read is asked twice).
    fake.delay('PUT /v2/cob/', 1_500);
    fake.delay('GET /v2/cob/', 1_500, 2);
    // And so is the first removal: the `charges.remove` job tries again until Efí answers.
    fake.delay('PATCH /v2/cob/', 1_500);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: { total: 50, finalidade: 'pedido', pedido: { quantity: 1 } },
    });
    expect(res.statusCode).toBe(502);
    const [row] = await t.app.db.select().from(charges).where(eq(charges.userId, buyer.id));
    expect(row).toMatchObject({ status: 'FALHOU' });
    expect(order.state.stock).toBe(3);
    // The late creation happened at Efí; the shop removed it there, so its location can never be paid.
    await vi.waitFor(() => expect(fake.cobs.get(row!.txid)?.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR'), {
      timeout: 45_000,
    });
    // The first removal's answer came after our timeout, so the job asked again.
    const removals = () =>
      fake.requests.filter((r) => r.method === 'PATCH' && r.path === `/v2/cob/${row!.txid}`);
    await vi.waitFor(() => expect(removals().length).toBeGreaterThanOrEqual(2), { timeout: 45_000 });
  });
});

/** Hands the shop the Pix webhook Efí POSTed last (to the registered URL + "/pix"). */
const deliverLastPix = async (t: TestApp) => {
  const delivered = deliveries.filter((d) => d.kind === 'pix').at(-1);
  if (delivered?.kind !== 'pix') throw new Error('a Efí não enviou nenhum Pix');
  const url = new URL(delivered.url);
  return {
    body: delivered.body,
    res: await t.app.inject({ method: 'POST', url: url.pathname + url.search, payload: delivered.body }),
  };
};

describe('Pix refunds (devolução) read back from a strict fake Efí', () => {
  let t: TestApp;
  beforeAll(async () => {
    fake.webhooks.clear();
    t = await efiApp(15_000);
    await vi.waitFor(() => expect(t.app.payments.webhookState()).toBe('ok'), { timeout: 45_000 });
  });
  afterAll(() => t.close());

  /** A Pix paid for a place that went to someone else: the money goes back, Efí answers EM_PROCESSAMENTO. */
  async function paidAndReturned() {
    const purpose = purposeWithAddress(3);
    t.app.payments.registerPurpose('order', {
      ...purpose.handler,
      fulfil: async () => {
        throw new CannotFulfil('A vaga já estava ocupada.');
      },
    });
    const buyer = await makeUser(t.app);
    const res = await orderPix(t.app, buyer.headers, 1);
    expect(res.statusCode).toBe(201);
    const { txid } = res.json();
    await fake.payCob(txid);
    expect((await deliverLastPix(t)).res.statusCode).toBe(200);
    const charge = (await chargeByTxid(t.app, txid))!;
    expect(charge.status).toBe('DEVOLVIDA');
    const [refund] = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge.id));
    expect(refund).toMatchObject({ status: 'EM_PROCESSAMENTO', amountCents: 5000 });
    const listed = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/pagamentos/', headers: buyer.headers })).json()[0];
    // Requested is not returned: the buyer's page does not say "Devolvido" yet.
    expect(await listed()).toMatchObject({ status: 'DEVOLVIDA', devolucao: { status: 'EM_PROCESSAMENTO' } });
    return { charge, refund: refund!, listed };
  }

  const refundOf = async (chargeId: number) =>
    (await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, chargeId)))[0]!;

  it('reconciliation reads the refund back (GET /v2/pix/:e2eId/devolucao/:id) and records DEVOLVIDO', async () => {
    const { charge, refund, listed } = await paidAndReturned();
    // Still under way at the payer's bank: asked, logged, unchanged.
    await t.app.payments.reconcileAll();
    expect((await refundOf(charge.id)).status).toBe('EM_PROCESSAMENTO');
    const readPath = `GET /v2/pix/${charge.endToEndId}/devolucao/${refund.refundId}`;
    expect(fake.calls()).toContain(readPath);

    await fake.settleRefund(refund.refundId, 'DEVOLVIDO');
    await t.app.payments.reconcileAll();
    expect((await refundOf(charge.id)).status).toBe('DEVOLVIDO');
    const events = (await t.app.payments.events(charge.id)).filter((e) => e.source === 'refund');
    expect(events.map((e) => e.kind)).toEqual(['EM_PROCESSAMENTO', 'EM_PROCESSAMENTO', 'DEVOLVIDO']);
    expect(events.at(-1)?.raw).toMatchObject({ id: refund.refundId, status: 'DEVOLVIDO' });
    expect(await listed()).toMatchObject({
      status: 'DEVOLVIDA',
      devolucao: { status: 'DEVOLVIDO', valor: 50 },
    });
    // Settled refunds are not asked about again.
    const reads = fake.calls().filter((c) => c === readPath).length;
    await t.app.payments.reconcileAll();
    expect(fake.calls().filter((c) => c === readPath).length).toBe(reads);
    expect((await t.app.payments.needingAttention()).some((c) => c.id === charge.id)).toBe(false);
  });

  it('a refund the payer’s bank did not take (NAO_REALIZADO) is recorded with its reason and flagged for staff', async () => {
    const { charge, refund, listed } = await paidAndReturned();
    await fake.settleRefund(refund.refundId, 'NAO_REALIZADO', 'Conta do pagador encerrada.');
    await t.app.payments.reconcileAll();
    expect((await refundOf(charge.id)).status).toBe('NAO_REALIZADO');
    const [row] = await t.app.db.select().from(charges).where(eq(charges.id, charge.id));
    expect(row).toMatchObject({ status: 'DEVOLVIDA', attention: 'devolucao_nao_realizada' });
    expect((await t.app.payments.needingAttention()).map((c) => c.id)).toContain(charge.id);
    const last = (await t.app.payments.events(charge.id)).at(-1);
    expect(last).toMatchObject({ source: 'refund', kind: 'NAO_REALIZADO' });
    expect(last?.raw).toMatchObject({ motivo: 'Conta do pagador encerrada.' });
    expect(await listed()).toMatchObject({ devolucao: { status: 'NAO_REALIZADO' } });
  });

  it('the Pix webhook carrying the refund (devolucoes) updates it at once, read back from Efí', async () => {
    const { charge, refund, listed } = await paidAndReturned();
    await fake.settleRefund(refund.refundId, 'DEVOLVIDO');
    const { body, res } = await deliverLastPix(t);
    expect(body.pix[0]).toMatchObject({ devolucoes: [{ id: refund.refundId, status: 'DEVOLVIDO' }] });
    expect(res.statusCode).toBe(200);
    expect((await refundOf(charge.id)).status).toBe('DEVOLVIDO');
    expect(fake.calls()).toContain(`GET /v2/pix/${charge.endToEndId}/devolucao/${refund.refundId}`);
    expect(await listed()).toMatchObject({ devolucao: { status: 'DEVOLVIDO' } });
  });

  it('a webhook naming a refund it cannot back up changes nothing (the body is never taken at its word)', async () => {
    const { charge, listed } = await paidAndReturned();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/pix/pix?hmac=${SECRET}&ignorar=`,
      payload: {
        pix: [
          {
            endToEndId: charge.endToEndId,
            valor: '50.00',
            devolucoes: [{ id: 'falsa', status: 'DEVOLVIDO' }],
          },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect((await refundOf(charge.id)).status).toBe('EM_PROCESSAMENTO');
    expect(await listed()).toMatchObject({ devolucao: { status: 'EM_PROCESSAMENTO' } });
  });
});

describe('a card approved after its units went back (clocked, strict fake Efí)', () => {
  const START = new Date('2026-11-23T12:00:00Z');
  // Filled once the fake is up (this hook runs before the clocked app boots).
  const options: {
    env: Record<string, string>;
    providers: { payments?: ReturnType<typeof createEfiProvider> };
  } = { env: {}, providers: {} };
  beforeAll(() => {
    fake.webhooks.clear();
    Object.assign(options.env, { ...envVars, EFI_TIMEOUT_MS: '1000' });
    options.providers.payments = createEfiProvider(loadEnv({ NODE_ENV: 'test', ...options.env }), {
      ca: serverCert.cert,
    });
  });
  const t = useClockedTestApp(START, options as Parameters<typeof useClockedTestApp>[1]);

  /**
   * Efí's answer to the card call is lost (em análise, units held); a day later reconciliation gives it
   * up (FALHOU, units back, listed for staff). Answers the charge as stored and as Efí has it.
   */
  async function givenUp(order: ReturnType<typeof purposeWithAddress>) {
    t.app.payments.registerPurpose('order', order.handler);
    const buyer = await makeUser(t.app);
    fake.delay('POST /v1/charge/one-step', 1_500);
    const res = await payCard(t, buyer.headers, fake.cardToken('waiting'));
    expect(res.statusCode).toBe(202);
    const { txid } = res.json();
    const charge = (await chargeByTxid(t.app, txid))!;
    expect(charge).toMatchObject({ status: 'EM_ANALISE', providerChargeId: null });
    const atEfi = await vi.waitFor(
      () => {
        const found = [...fake.charges.values()].find((c) => c.customId === String(charge.id));
        if (!found) throw new Error('ainda não criada');
        return found;
      },
      { timeout: 45_000, interval: 100 },
    );
    t.clock = new Date(START.getTime() + 25 * 3600_000);
    await t.app.payments.reconcileAll();
    expect(await chargeByTxid(t.app, txid)).toMatchObject({
      status: 'FALHOU',
      attention: 'resultado_desconhecido',
    });
    expect(order.state.stock).toBe(1);
    // FALHOU with the card possibly charged: staff see it.
    expect((await t.app.payments.needingAttention()).map((c) => c.id)).toContain(charge.id);
    // A day went by: the buyer signs in again to follow the payment.
    const token = randomUUID();
    await t.app.db.insert(authTokens).values({
      userId: buyer.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(t.clock.getTime() + 86_400_000),
    });
    return { buyer: { ...buyer, headers: { authorization: `Token ${token}` } }, txid, charge, atEfi };
  }

  it('fulfils when the units are still there', async () => {
    const order = purposeWithAddress(1);
    const { buyer, txid, atEfi } = await givenUp(order);
    const token = await fake.setCardStatus(atEfi.chargeId, 'paid');
    expect((await deliverCardNotification(t, token)).statusCode).toBe(200);
    expect(await chargeByTxid(t.app, txid)).toMatchObject({
      status: 'CONCLUIDA',
      attention: 'resultado_desconhecido',
    });
    expect(order.state.fulfilCalls).toBe(1);
    expect(order.state.stock).toBe(0);
    const status = await t.app.inject({
      method: 'GET',
      url: `/api/status-pix/${txid}/`,
      headers: buyer.headers,
    });
    expect(status.json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: 1000 });
    expect(fake.calls()).not.toContain(`POST /v1/charge/${atEfi.chargeId}/refund`);
  });

  it('refunds in full through Efí when the units went to someone else: refund row, e-mail, status shown', async () => {
    const order = purposeWithAddress(1);
    const { buyer, txid, charge, atEfi } = await givenUp(order);
    // Someone else holds the last unit now.
    const other = await makeUser(t.app);
    expect((await payCard(t, other.headers, fake.cardToken('approved'))).statusCode).toBe(202);
    expect(order.state.stock).toBe(0);

    const token = await fake.setCardStatus(atEfi.chargeId, 'paid');
    expect((await deliverCardNotification(t, token)).statusCode).toBe(200);
    const row = (await chargeByTxid(t.app, txid))!;
    expect(row).toMatchObject({
      status: 'DEVOLVIDA',
      reason: expect.stringContaining('aprovado depois do prazo'),
    });
    expect(order.state.fulfilCalls).toBe(0);
    expect(fake.calls()).toContain(`POST /v1/charge/${atEfi.chargeId}/refund`);
    expect(atEfi.history.at(-1)?.status).toBe('refunded');
    const [refund] = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge.id));
    expect(refund).toMatchObject({ status: 'DEVOLVIDO', amountCents: atEfi.total });

    const mail = await waitForMailContaining(t.dataDir, 'estamos devolvendo o seu pagamento');
    expect(mail).toContain('To: pagador.teste@example.com');
    expect(mail).toContain('estorno do valor integral de R$\u00a050,00 no mesmo cartão');

    const status = await t.app.inject({
      method: 'GET',
      url: `/api/status-pix/${txid}/`,
      headers: buyer.headers,
    });
    expect(status.json()).toMatchObject({ status: 'DEVOLVIDA', motivo: row.reason });
    const listed = await t.app.inject({ method: 'GET', url: '/api/pagamentos/', headers: buyer.headers });
    expect(listed.json()).toEqual([
      expect.objectContaining({
        txid,
        metodo: 'cartao',
        status: 'DEVOLVIDA',
        devolucao: expect.objectContaining({ status: 'DEVOLVIDO', valor: 50 }),
      }),
    ]);
    // The same notification again refunds nothing twice.
    expect((await deliverCardNotification(t, token)).statusCode).toBe(200);
    expect(fake.calls().filter((c) => c === `POST /v1/charge/${atEfi.chargeId}/refund`)).toHaveLength(1);
  });

  it('a card Efí failed on (5xx) after receiving it is FALHOU and listed for staff', async () => {
    const order = purposeWithAddress(1);
    t.app.payments.registerPurpose('order', order.handler);
    const buyer = await makeUser(t.app);
    fake.failOnce('POST /v1/charge/one-step', 502);
    const res = await payCard(t, buyer.headers, fake.cardToken('approved'));
    expect(res.statusCode).toBe(502);
    const charge = (await chargeByTxid(t.app, res.json().txid))!;
    expect(charge).toMatchObject({ status: 'FALHOU', attention: 'erro_na_operadora' });
    expect(order.state.stock).toBe(1);
    expect((await t.app.payments.needingAttention()).map((c) => c.id)).toContain(charge.id);
  });
});

/**
 * The simulated bank rebuilds what it forgot in a restart from our records (docs/decisions/0028); Efí
 * keeps its own charges, so one Efí does not know is something else and must stay an alarm.
 */
describe('a Pix Efí does not know', () => {
  it('is not expired on our word: reconciliation logs an error and keeps its units held', async () => {
    let clock = new Date();
    const lines: Array<{ level: number; msg: string }> = [];
    const logStream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const env = { ...envVars, EFI_TIMEOUT_MS: '15000', LOG_LEVEL: 'info' };
    const provider = createEfiProvider(loadEnv({ NODE_ENV: 'test', ...env }), { ca: serverCert.cert });
    const t = await createTestApp({
      env,
      providers: { payments: provider },
      now: () => clock,
      logger: true,
      logStream,
    });
    try {
      const order = purposeWithAddress(3);
      t.app.payments.registerPurpose('order', order.handler);
      const buyer = await makeUser(t.app);
      const res = await orderPix(t.app, buyer.headers, 1);
      expect(res.statusCode).toBe(201);
      const { txid } = res.json();
      expect(order.state.stock).toBe(2);
      fake.cobs.delete(txid);
      clock = new Date(clock.getTime() + 31 * 60_000);
      await t.app.payments.reconcileAll();
      expect((await chargeByTxid(t.app, txid))!.status).toBe('ATIVA');
      expect(order.state.stock).toBe(2);
      expect(lines.some((l) => l.level >= 50 && l.msg === 'charge reconciliation failed')).toBe(true);
    } finally {
      await t.close();
    }
  });
});
