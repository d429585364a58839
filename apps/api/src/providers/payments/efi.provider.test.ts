import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parsePixPayload } from '@passada/core/pix-br-code';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.ts';
import { makeFakePurpose, makeUser } from '../../test/factories/payments.ts';
import {
  type FakeEfi,
  type FakeEfiAccount,
  makeTestCertificate,
  startFakeEfiAccount,
  type TestCertificate,
} from '../../test/mocks/fake-efi.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createEfiProvider } from './efi.provider.ts';
import {
  type CardChargeInput,
  PaymentProviderError,
  PaymentProviderTimeout,
  type PaymentsProvider,
} from './payments.provider.ts';
import { redactProviderPayload } from './redact-provider-payload.ts';

const CLIENT_ID = 'Client_Id_teste';
const CLIENT_SECRET = 'Client_Secret_teste';
const PIX_KEY = 'contato@passada.com.br';
const WEBHOOK_SECRET = 'segredo-efi';
const WEBHOOK_URL = `https://loja.example/api/webhooks/pix/?hmac=${WEBHOOK_SECRET}&ignorar=`;

let dir: string;
let fake: FakeEfi;
let serverCert: TestCertificate;
let envVars: Record<string, string>;
let txidSeq = 0;
/** A fresh txid per test: the fake, like Efí, refuses a txid used before. */
const newTxid = () => `passada${String(++txidSeq).padStart(4, '0')}${'a'.repeat(21)}`;

let account: FakeEfiAccount;
beforeAll(async () => {
  account = await startFakeEfiAccount({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    pixKey: PIX_KEY,
    webhookSecret: WEBHOOK_SECRET,
  });
  ({ dir, fake, serverCert } = account);
  envVars = { NODE_ENV: 'test', ...account.env, EFI_TIMEOUT_MS: '1000' };
});
afterAll(() => account.close());

const provider = (over: Record<string, string> = {}, now?: () => number) =>
  createEfiProvider(loadEnv({ ...envVars, ...over }), { ca: serverCert.cert, ...(now ? { now } : {}) });
const count = (call: string) => fake.calls().filter((c) => c === call).length;
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('deveria ter falhado');
    },
    (e: unknown) => e,
  );

/** An R$ 50,00 charge at the fake, for tests about what happens after it exists. */
async function newCob(p: PaymentsProvider) {
  const txid = newTxid();
  await p.createPix({
    txid,
    amountCents: 5000,
    expiresInSeconds: 1800,
    createdAt: new Date(),
    description: 'x',
  });
  return txid;
}

const cardInput = (over: Partial<CardChargeInput> = {}): CardChargeInput => ({
  paymentToken: fake.cardToken('approved'),
  installments: 1,
  amountCents: 10000,
  itemName: 'Camiseta Passada',
  customer: {
    name: 'Maria da Silva',
    cpf: '403.644.788-29',
    email: 'maria@example.com',
    phone: '+55 (85) 99999-9999',
    birth: '1990-05-10',
  },
  billingAddress: {
    street: 'Rua das Flores',
    number: '100',
    neighborhood: 'Centro',
    zipcode: '60165-121',
    city: 'Fortaleza',
    state: 'CE',
  },
  customId: 'cobranca-1',
  notificationUrl: 'https://loja.example/api/webhooks/cartao/',
  ...over,
});

describe('Pix charges', () => {
  it('creates with PUT /v2/cob/{txid} over mTLS and takes the expiry from the charge Efí created', async () => {
    const txid = newTxid();
    // The caller's clock is an hour behind: the expiry must still come from Efí's own `criacao`.
    const pix = await provider().createPix({
      txid,
      amountCents: 12990,
      expiresInSeconds: 1800,
      createdAt: new Date(Date.now() - 3_600_000),
      description: 'Pedido Passada',
    });
    const cob = fake.cobs.get(txid);
    expect(cob).toMatchObject({
      valor: { original: '129.90' },
      chave: PIX_KEY,
      calendario: { expiracao: 1800 },
      solicitacaoPagador: 'Pedido Passada',
    });
    expect(pix.expiresAt.getTime()).toBe(Date.parse(cob?.calendario.criacao ?? '') + 1_800_000);
    expect(parsePixPayload(pix.pixCopiaECola)).toMatchObject({ dynamic: true, amountCents: 12990 });
    expect(pix.qrCodeDataUri).toMatch(/^data:image\/png;base64,/);
    expect(fake.calls()).toContain(`GET /v2/loc/${cob?.loc.id}/qrcode`);
    const pixCalls = fake.requests.filter((r) => r.api === 'pix');
    expect(pixCalls.length).toBeGreaterThan(0);
    expect(pixCalls.every((r) => r.clientCert === 'conta-passada')).toBe(true);
  });

  it('when PUT /v2/cob times out, asks GET /v2/cob/{txid} and carries on with the charge Efí did create', async () => {
    const txid = newTxid();
    fake.delay('PUT /v2/cob/', 1500);
    const pix = await provider().createPix({
      txid,
      amountCents: 5000,
      expiresInSeconds: 900,
      createdAt: new Date(),
      description: 'Pedido',
    });
    expect(count(`PUT /v2/cob/${txid}`)).toBe(1);
    expect(count(`GET /v2/cob/${txid}`)).toBe(1);
    expect(pix.expiresAt.getTime()).toBe(Date.parse(fake.cobs.get(txid)?.calendario.criacao ?? '') + 900_000);
  });

  it('reads status, amount, endToEndId, paidAt, expiresAt and the raw answer', async () => {
    const p = provider();
    const txid = newTxid();
    const created = await p.createPix({
      txid,
      amountCents: 4990,
      expiresInSeconds: 1800,
      createdAt: new Date(),
      description: 'Pedido',
    });
    expect(await p.getPix(txid)).toMatchObject({ txid, status: 'ATIVA', amountCents: 4990 });
    const endToEndId = await fake.payCob(txid);
    const state = await p.getPix(txid);
    expect(state).toMatchObject({
      txid,
      status: 'CONCLUIDA',
      amountCents: 4990,
      paidCents: 4990,
      endToEndId,
      expiresAt: created.expiresAt,
    });
    expect(state.paidAt?.toISOString()).toBe(fake.cobs.get(txid)?.pix?.[0]?.horario);
    expect(state.raw).toEqual(fake.cobs.get(txid));
  });

  it('refunds with PUT /v2/pix/{e2eId}/devolucao/{id}; the same refund id twice returns money once', async () => {
    const p = provider();
    const txid = await newCob(p);
    const endToEndId = await fake.payCob(txid);
    const first = await p.refundPix({ endToEndId, refundId: 'devolucao1', amountCents: 1234 });
    expect(first).toMatchObject({ refundId: 'devolucao1', status: 'EM_PROCESSAMENTO', amountCents: 1234 });
    expect(fake.requests.at(-1)?.body).toEqual({ valor: '12.34' });
    const again = await p.refundPix({ endToEndId, refundId: 'devolucao1', amountCents: 1234 });
    expect(again.refundId).toBe('devolucao1');
    expect([...fake.refunds.values()].filter((r) => r.e2eId === endToEndId)).toHaveLength(1);
    const tooMuch = await errorOf(p.refundPix({ endToEndId, refundId: 'devolucao2', amountCents: 4000 }));
    expect(tooMuch).toMatchObject({ status: 400, providerCode: 'valor_devolucao_acima_do_permitido' });
  });

  it('cancels with PATCH /v2/cob/{txid}; a charge paid meanwhile comes back as paid instead of failing', async () => {
    const p = provider();
    const txid = await newCob(p);
    expect((await p.cancelPix(txid)).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'PATCH',
      body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    });
    await expect(fake.payCob(txid)).rejects.toThrow();

    const paidTxid = await newCob(p);
    const endToEndId = await fake.payCob(paidTxid);
    expect(await p.cancelPix(paidTxid)).toMatchObject({ status: 'CONCLUIDA', endToEndId });
  });

  it('reports Efí errors with their name and status', async () => {
    const err = await errorOf(provider().getPix('naoexiste0000000000000000000'));
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err).toMatchObject({ status: 404, providerCode: 'cobranca_nao_encontrada' });
    const auth = await errorOf(provider({ EFI_CLIENT_SECRET: 'errado' }).getPix(newTxid()));
    expect(auth).toMatchObject({ status: 401, providerCode: 'invalid_client' });
  });
});

describe('retries and timeouts', () => {
  it('repeats a GET once after a 5xx, after a 401 (with a new token) and after a timeout', async () => {
    const p = provider();
    const txid = await newCob(p);
    const gets = () => count(`GET /v2/cob/${txid}`);

    fake.failOnce(`GET /v2/cob/${txid}`, 503);
    expect((await p.getPix(txid)).status).toBe('ATIVA');
    expect(gets()).toBe(2);

    const tokens = count('POST /oauth/token');
    fake.revokeTokens();
    expect((await p.getPix(txid)).status).toBe('ATIVA');
    expect(count('POST /oauth/token')).toBe(tokens + 1);
    expect(gets()).toBe(4);

    fake.delay(`GET /v2/cob/${txid}`, 1500);
    expect((await p.getPix(txid)).status).toBe('ATIVA');
    expect(gets()).toBe(6);

    fake.failOnce(`GET /v2/cob/${txid}`, 502);
    fake.failOnce(`GET /v2/cob/${txid}`, 502);
    expect(await errorOf(p.getPix(txid))).toMatchObject({ status: 502 });
  });

  it('repeats a token request once after a 5xx, and renews a token once per hour, not per call', async () => {
    const p = provider();
    fake.failOnce('POST /v1/authorize', 503);
    const before = count('POST /v1/authorize');
    await p.installments('visa', 12345);
    await p.installments('visa', 12346);
    expect(count('POST /v1/authorize')).toBe(before + 2);
  });

  it('gives up after EFI_TIMEOUT_MS with PaymentProviderTimeout, which is not a refusal', async () => {
    fake.delay('GET /v2/webhook/', 1500, 2);
    const started = Date.now();
    const err = await errorOf(provider().getPixWebhook());
    expect(err).toBeInstanceOf(PaymentProviderTimeout);
    // Two tries of one second each, not the 15 s default.
    expect(Date.now() - started).toBeLessThan(4000);
  });
});

describe('cards (charges API)', () => {
  it('gets its token from /v1/authorize with Basic auth and no client certificate, even with no certificate configured', async () => {
    const p = provider({ EFI_CERTIFICATE_PATH: path.join(dir, 'nao-existe.p12') });
    const before = fake.requests.length;
    const result = await p.chargeCard(cardInput());
    expect(result.status).toBe('approved');
    const sent = fake.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/authorize',
      'POST /v1/charge/one-step',
    ]);
    expect(sent.every((r) => r.api === 'charges' && r.clientCert === undefined)).toBe(true);
    // API Pix, on the other hand, cannot work without it.
    expect(await errorOf(p.getPix(newTxid()))).toMatchObject({ providerCode: 'certificado' });
  });

  it('sends the one-step body exactly as Efí documents it', async () => {
    const input = cardInput({ installments: 4, itemName: 'x'.repeat(300) });
    const result = await provider().chargeCard(input);
    expect(fake.requests.at(-1)?.body).toEqual({
      items: [{ name: 'x'.repeat(255), value: 10000, amount: 1 }],
      payment: {
        credit_card: {
          customer: {
            name: 'Maria da Silva',
            cpf: '40364478829',
            email: 'maria@example.com',
            phone_number: '85999999999',
            birth: '1990-05-10',
          },
          installments: 4,
          billing_address: {
            street: 'Rua das Flores',
            number: '100',
            neighborhood: 'Centro',
            zipcode: '60165121',
            city: 'Fortaleza',
            state: 'CE',
          },
          payment_token: input.paymentToken,
        },
      },
      metadata: { custom_id: 'cobranca-1', notification_url: 'https://loja.example/api/webhooks/cartao/' },
    });
    const charge = fake.charges.get(Number(result.chargeId));
    expect(result).toMatchObject({
      status: 'approved',
      customId: 'cobranca-1',
      installments: 4,
      installmentValueCents: charge?.installmentValue,
      totalCents: charge?.total,
    });
    expect(result.totalCents).toBeGreaterThan(10000);
  });

  it('leaves out a phone Efí would refuse, and refuses locally what Efí requires', async () => {
    const p = provider();
    await p.chargeCard(cardInput({ customer: { ...cardInput().customer, phone: '(85) 3222-333' } }));
    const sent = fake.requests.at(-1)?.body;
    expect(sent).toHaveProperty('payment.credit_card.customer.birth', '1990-05-10');
    expect(sent).not.toHaveProperty('payment.credit_card.customer.phone_number');

    const before = count('POST /v1/charge/one-step');
    const { billingAddress: _, ...noAddress } = cardInput();
    expect(await errorOf(p.chargeCard(noAddress))).toMatchObject({
      status: 400,
      providerCode: 'billing_address',
    });
    const noBirth = cardInput({ customer: { ...cardInput().customer, birth: '10/05/1990' } });
    expect(await errorOf(p.chargeCard(noBirth))).toMatchObject({
      status: 400,
      providerCode: 'customer_birth',
    });
    expect(count('POST /v1/charge/one-step')).toBe(before);

    // What only Efí knows comes back in its own words.
    const tooMany = await errorOf(p.chargeCard(cardInput({ installments: 25 })));
    expect(tooMany).toMatchObject({
      status: 400,
      providerCode: 'validation_error',
      message: 'O número de parcelas deve estar entre 1 e 24.',
    });
  });

  it('normalises each outcome: approved, waiting, unpaid with the reason', async () => {
    const p = provider();
    expect((await p.chargeCard(cardInput({ paymentToken: fake.cardToken('waiting') }))).status).toBe(
      'waiting',
    );
    const refused = await p.chargeCard(cardInput({ paymentToken: fake.cardToken('unpaid') }));
    expect(refused).toMatchObject({
      status: 'unpaid',
      refusalReason: 'Transação não autorizada pelo banco emissor.',
    });
  });

  it('never repeats POST /v1/charge/one-step: a 5xx is an error, a lost answer is PaymentProviderTimeout', async () => {
    const p = provider();
    const before = count('POST /v1/charge/one-step');
    fake.failOnce('POST /v1/charge/one-step', 503);
    const failed = await errorOf(p.chargeCard(cardInput()));
    expect(failed).toBeInstanceOf(PaymentProviderError);
    expect(failed).not.toBeInstanceOf(PaymentProviderTimeout);
    expect(count('POST /v1/charge/one-step')).toBe(before + 1);

    fake.delay('POST /v1/charge/one-step', 1500);
    const lost = await errorOf(p.chargeCard(cardInput({ customId: 'cobranca-perdida' })));
    expect(lost).toBeInstanceOf(PaymentProviderTimeout);
    expect(count('POST /v1/charge/one-step')).toBe(before + 2);
    // Efí did create it: the notification (or a read) finds it by our id.
    const charge = [...fake.charges.values()].find((c) => c.customId === 'cobranca-perdida');
    expect(charge).toBeDefined();
    const read = await p.getCardCharge(String(charge?.chargeId));
    expect(read).toMatchObject({ status: 'approved', customId: 'cobranca-perdida' });
  });

  it('reads a charge and a notification, taking the last status.current', async () => {
    const p = provider();
    const result = await p.chargeCard(
      cardInput({ paymentToken: fake.cardToken('waiting'), customId: 'cobranca-7' }),
    );
    const id = Number(result.chargeId);
    const approvedToken = await fake.setCardStatus(id, 'approved');
    const paidToken = await fake.setCardStatus(id, 'paid');
    const paid = await p.cardNotification(paidToken);
    expect(paid).toMatchObject({ chargeId: result.chargeId, customId: 'cobranca-7', status: 'paid' });
    expect((paid.raw as { data: unknown[] }).data.length).toBeGreaterThan(2);
    expect((await p.cardNotification(approvedToken)).status).toBe('approved');
    expect(await p.getCardCharge(result.chargeId)).toMatchObject({
      chargeId: result.chargeId,
      status: 'paid',
    });
  });

  it('refunds a paid card with POST /v1/charge/{id}/refund; asking again does not call the refund twice', async () => {
    const p = provider();
    const waiting = await p.chargeCard(cardInput({ paymentToken: fake.cardToken('waiting') }));
    // Not paid yet: Efí refuses, and so does the provider.
    expect(
      await errorOf(p.refundCard({ providerChargeId: waiting.chargeId, amountCents: 100 })),
    ).toBeInstanceOf(PaymentProviderError);
    await fake.setCardStatus(Number(waiting.chargeId), 'paid');
    const refundCall = `POST /v1/charge/${waiting.chargeId}/refund`;
    const before = count(refundCall);
    const refund = await p.refundCard({
      providerChargeId: waiting.chargeId,
      amountCents: waiting.totalCents,
    });
    expect(refund.status).toBe('DEVOLVIDO');
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/v1/charge/${waiting.chargeId}/refund`,
      body: { amount: waiting.totalCents },
    });
    expect((await p.getCardCharge(waiting.chargeId)).status).toBe('refunded');
    const again = await p.refundCard({ providerChargeId: waiting.chargeId, amountCents: waiting.totalCents });
    expect(again.status).toBe('DEVOLVIDO');
    expect(count(refundCall) - before).toBe(1);
  });

  it('returns parts (docs/decisions/0036): Pix devoluções up to the Pix, card refunds up to the charge, errors above', async () => {
    const p = provider();
    const txid = await newCob(p);
    const endToEndId = await fake.payCob(txid);
    const paidCents = (await p.getPix(txid)).amountCents;
    await p.refundPix({ endToEndId, refundId: 'parte1', amountCents: 1000 });
    await p.refundPix({ endToEndId, refundId: 'parte2', amountCents: paidCents - 1000 });
    expect([...fake.refunds.values()].filter((r) => r.e2eId === endToEndId)).toHaveLength(2);
    expect(await errorOf(p.refundPix({ endToEndId, refundId: 'parte3', amountCents: 1 }))).toMatchObject({
      status: 400,
      providerCode: 'valor_devolucao_acima_do_permitido',
    });

    const card = await p.chargeCard(cardInput({ paymentToken: fake.cardToken('waiting') }));
    await fake.setCardStatus(Number(card.chargeId), 'paid');
    await p.refundCard({ providerChargeId: card.chargeId, amountCents: 500 });
    expect(fake.requests.at(-1)).toMatchObject({ body: { amount: 500 } });
    // A part leaves the charge paid at Efí.
    expect((await p.getCardCharge(card.chargeId)).status).toBe('paid');
    expect(
      await errorOf(p.refundCard({ providerChargeId: card.chargeId, amountCents: card.totalCents })),
    ).toMatchObject({ status: 400, providerCode: 'refund_amount_invalid' });
    await p.refundCard({ providerChargeId: card.chargeId, amountCents: card.totalCents - 500 });
    expect((await p.getCardCharge(card.chargeId)).status).toBe('refunded');
  });

  it('caches installments per brand and total for an hour; 199 is 1.99% a month', async () => {
    let now = 1_000_000;
    const p = provider({}, () => now);
    const before = count('GET /v1/installments');
    const list = await p.installments('visa', 20000);
    await p.installments('visa', 20000);
    expect(count('GET /v1/installments')).toBe(before + 1);
    await p.installments('mastercard', 20000);
    await p.installments('visa', 20001);
    expect(count('GET /v1/installments')).toBe(before + 3);
    now += 60 * 60 * 1000 + 1;
    await p.installments('visa', 20000);
    expect(count('GET /v1/installments')).toBe(before + 4);
    expect(list.find((o) => o.installment === 4)).toMatchObject({
      has_interest: true,
      interest_percentage: 199,
    });
  });
});

describe('Pix webhook registration', () => {
  it('registers with x-skip-mtls-checking and the secret in the URL, then reads it back', async () => {
    const p = provider();
    await p.registerPixWebhook(WEBHOOK_URL);
    const put = fake.requests.findLast((r) => r.method === 'PUT' && r.path.startsWith('/v2/webhook/'));
    expect(put?.headers['x-skip-mtls-checking']).toBe('true');
    expect(put?.body).toEqual({ webhookUrl: WEBHOOK_URL });
    expect(fake.calls().at(-1)).toBe(`GET /v2/webhook/${encodeURIComponent(PIX_KEY)}`);
    expect(await p.getPixWebhook()).toMatchObject({ url: WEBHOOK_URL });
  });

  it('refuses a URL without the secret, and a registration Efí did not keep or keeps elsewhere', async () => {
    const p = provider();
    const before = fake.requests.length;
    expect(await errorOf(p.registerPixWebhook('https://loja.example/api/webhooks/pix/'))).toMatchObject({
      providerCode: 'webhook_sem_segredo',
    });
    expect(fake.requests.length).toBe(before);

    fake.webhooks.delete(PIX_KEY);
    fake.ignoreNextWebhookRegistration();
    expect(await errorOf(p.registerPixWebhook(WEBHOOK_URL))).toMatchObject({
      providerCode: 'webhook_ausente',
    });
    expect(await p.getPixWebhook()).toBeNull();

    fake.webhooks.set(PIX_KEY, { webhookUrl: 'https://outra.example/?hmac=x', chave: PIX_KEY, criacao: '' });
    fake.ignoreNextWebhookRegistration();
    expect(await errorOf(p.registerPixWebhook(WEBHOOK_URL))).toMatchObject({
      providerCode: 'webhook_divergente',
    });
  });
});

describe('account certificate', () => {
  const pixWorks = async (over: Record<string, string>) => {
    const before = fake.requests.length;
    await provider(over).getPixWebhook();
    return fake.requests.slice(before).every((r) => r.clientCert === 'conta-passada');
  };

  it('accepts the .p12, a combined PEM, separate PEM files, and base64 of either', async () => {
    const crt = path.join(dir, 'client.crt');
    const key = path.join(dir, 'client.key');
    const p12 = path.join(dir, 'conta.p12');
    execFileSync(
      'openssl',
      ['pkcs12', '-export', '-in', crt, '-inkey', key, '-out', p12, '-passout', 'pass:'],
      {
        stdio: 'ignore',
      },
    );
    const b64 = (file: string) => readFileSync(file).toString('base64');
    expect(await pixWorks({ EFI_CERTIFICATE_PATH: p12 })).toBe(true);
    expect(await pixWorks({})).toBe(true);
    expect(await pixWorks({ EFI_CERTIFICATE_PATH: crt, EFI_CERTIFICATE_KEY_PATH: key })).toBe(true);
    expect(await pixWorks({ EFI_CERTIFICATE_PATH: '', EFI_CERTIFICATE_BASE64: b64(p12) })).toBe(true);
    expect(
      await pixWorks({
        EFI_CERTIFICATE_PATH: '',
        EFI_CERTIFICATE_BASE64: b64(crt),
        EFI_CERTIFICATE_KEY_BASE64: b64(key),
      }),
    ).toBe(true);
    expect(await errorOf(provider({ EFI_CERTIFICATE_PATH: crt }).getPixWebhook())).toMatchObject({
      providerCode: 'certificado',
      message: expect.stringContaining('EFI_CERTIFICATE_KEY_PATH'),
    });
  });

  it('cannot reach API Pix with another certificate', async () => {
    const other = makeTestCertificate(dir, 'outra', 'outra-conta');
    const otherPath = path.join(dir, 'outra.pem');
    writeFileSync(otherPath, Buffer.concat([other.cert, other.key]));
    const err = await errorOf(provider({ EFI_CERTIFICATE_PATH: otherPath }).getPix(newTxid()));
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err).not.toBeInstanceOf(PaymentProviderTimeout);
    expect((err as PaymentProviderError).status).toBe(502);
  });
});

it('redacts personal data from provider answers for the event log', async () => {
  const p = provider();
  const result = await p.chargeCard(cardInput());
  const raw = (await p.getCardCharge(result.chargeId)).raw;
  const text = JSON.stringify(raw);
  expect(text).toContain('40364478829');
  const redacted = JSON.stringify(redactProviderPayload(raw));
  for (const personal of [
    '40364478829',
    'maria@example.com',
    'Maria da Silva',
    'Rua das Flores',
    '1990-05-10',
  ])
    expect(redacted).not.toContain(personal);
  expect(redactProviderPayload(raw)).toMatchObject({
    charge_id: Number(result.chargeId),
    status: 'approved',
  });
  expect(
    redactProviderPayload({
      pix: [{ endToEndId: 'E1', pagador: { cpf: '1' }, infoPagador: 'oi', valor: '1.00' }],
    }),
  ).toEqual({ pix: [{ endToEndId: 'E1', valor: '1.00' }] });
});

describe('through the API with PAYMENTS=efi', () => {
  let t: TestApp;
  beforeAll(async () => {
    const { NODE_ENV: _, ...env } = envVars;
    t = await createTestApp({
      env: { ...env, EFI_WEBHOOK_ALLOWED_IPS: '127.0.0.1' },
      providers: { payments: provider() },
    });
  });
  afterAll(() => t.close());

  it('Pix create → Efí webhook (secret) → the service asks Efí → paid once; the simulator does not exist', async () => {
    const order = makeFakePurpose({ unitCents: 5000, stock: 3 });
    t.app.payments.registerPurpose('order', order.handler);
    const buyer = await makeUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: { total: 50, finalidade: 'pedido', pedido: { quantity: 1 } },
    });
    expect(res.statusCode).toBe(201);
    const { txid } = res.json();
    expect(fake.cobs.get(txid)).toMatchObject({ valor: { original: '50.00' } });

    const notify = (query: string, endToEndId = 'E0000000000000000000000000000001') =>
      t.app.inject({
        method: 'POST',
        url: `/api/webhooks/pix/pix${query}`,
        payload: { pix: [{ endToEndId, txid, valor: '50.00' }] },
      });
    expect((await notify('')).statusCode).toBe(401);
    // Efí has not been paid yet: a notification alone changes nothing.
    expect((await notify(`?hmac=${WEBHOOK_SECRET}&ignorar=`)).statusCode).toBe(200);
    expect(order.state.fulfilCalls).toBe(0);

    const endToEndId = await fake.payCob(txid);
    const all = await Promise.all(
      Array.from({ length: 5 }, () => notify(`?hmac=${WEBHOOK_SECRET}&ignorar=`, endToEndId)),
    );
    expect(all.every((r) => r.statusCode === 200)).toBe(true);
    expect(order.state.fulfilCalls).toBe(1);
    const status = await t.app.inject({
      method: 'GET',
      url: `/api/status-pix/${txid}/`,
      headers: buyer.headers,
    });
    expect(status.json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: 1000 });

    expect((await t.app.inject({ method: 'POST', url: `/api/simulador/pix/${txid}/pagar` })).statusCode).toBe(
      404,
    );
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/simulador/cartao/token', payload: {} })).statusCode,
    ).toBe(404);
  });

  it('a charge whose amount at Efí differs from ours is not accepted', async () => {
    const order = makeFakePurpose({ unitCents: 5000, stock: 3 });
    t.app.payments.registerPurpose('order', order.handler);
    const buyer = await makeUser(t.app);
    const { txid } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/pagar-pix/',
        headers: buyer.headers,
        payload: { total: 50, finalidade: 'pedido', pedido: { quantity: 1 } },
      })
    ).json();
    const cob = fake.cobs.get(txid);
    if (cob) cob.valor.original = '0.50';
    const endToEndId = await fake.payCob(txid);
    await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/pix/?hmac=${WEBHOOK_SECRET}`,
      payload: { pix: [{ endToEndId, txid }] },
    });
    expect(order.state.fulfilCalls).toBe(0);
  });
});
