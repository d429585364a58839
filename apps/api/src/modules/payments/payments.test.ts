import { Writable } from 'node:stream';
import { parsePixPayload } from '@passada/core/pix-br-code';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { charges } from '../../db/schema/index.ts';
import {
  chargeByTxid,
  makeFakePurpose,
  makeUser,
  simulatePixPaid,
  tokenizeCard,
} from '../../test/factories/payments.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-22T12:00:00Z');
const WEBHOOK_SECRET = 'segredo-do-webhook-de-teste';
const CPF = '40364478829';
const CARD = { visa: '4111111111111111', visaRefused: '4000000000000002' };

describe('payments (simulado)', () => {
  let order: ReturnType<typeof makeFakePurpose>;
  let registration: ReturnType<typeof makeFakePurpose>;
  let buyer: Awaited<ReturnType<typeof makeUser>>;
  const logLines: string[] = [];
  const t = useClockedTestApp(START, {
    logger: true,
    logStream: new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
    env: {
      LOG_LEVEL: 'info',
      EFI_WEBHOOK_SECRET: WEBHOOK_SECRET,
      EFI_WEBHOOK_ALLOWED_IPS: '127.0.0.1',
      PIX_EXPIRATION_SECONDS: '900',
    },
  });

  beforeAll(async () => {
    buyer = await makeUser(t.app);
  });

  beforeEach(async () => {
    // A fresh account per test: a new charge settles or replaces the account's earlier open one.
    buyer = await makeUser(t.app);
    // Fresh handlers per test, so counts start at zero.
    order = makeFakePurpose({ unitCents: 4990, stock: 5 });
    registration = makeFakePurpose({ unitCents: 8000, stock: 5 });
    t.app.payments.registerPurpose('order', order.handler);
    t.app.payments.registerPurpose('registration', registration.handler);
  });

  const createPix = (quantity: number, total: number, headers = buyer.headers) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers,
      payload: { total, descricao: 'Camiseta Passada', finalidade: 'pedido', pedido: { quantity } },
    });
  const status = (txid: string, headers = buyer.headers) =>
    t.app.inject({ method: 'GET', url: `/api/status-pix/${txid}/`, headers });
  const simulatePay = (txid: string) => simulatePixPaid(t.app, txid);
  const webhook = (txid: string, query = `?hmac=${WEBHOOK_SECRET}`) =>
    t.app.inject({
      method: 'POST',
      url: `/api/webhooks/pix/${query}`,
      payload: {
        pix: [
          {
            endToEndId: 'E1234567820261122120000000000001',
            txid,
            valor: '99.80',
            horario: START.toISOString(),
          },
        ],
      },
    });
  const chargeRow = (txid: string) => chargeByTxid(t.app, txid);
  const countCharges = async () => (await t.app.db.select({ id: charges.id }).from(charges)).length;

  it('requires login to create a Pix charge', async () => {
    const res = await createPix(1, 49.9, { authorization: '' });
    expect(res.statusCode).toBe(401);
  });

  it('Pix: create → status ATIVA → simulated payment → status CONCLUIDA with the order id', async () => {
    const res = await createPix(2, 99.8);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(body.valor).toBe(99.8);
    expect(body.expira_em).toBe(new Date(START.getTime() + 900_000).toISOString());
    // A real dynamic BR Code with a valid CRC and the server's amount.
    const parsed = parsePixPayload(body.pix_copiaecola);
    expect(parsed).toMatchObject({
      dynamic: true,
      amountCents: 9980,
      merchantName: 'Passada',
      merchantCity: 'FORTALEZA',
    });
    expect(parsed.url).toContain(body.txid);
    // A real PNG image.
    expect(body.qrcode_base64).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(body.qrcode_base64.split(',')[1], 'base64');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(order.state.stock).toBe(3);

    expect((await status(body.txid)).json()).toEqual({ status: 'ATIVA', expira_em: body.expira_em });
    expect(order.state.fulfilCalls).toBe(0);

    const paid = await simulatePay(body.txid);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: 1000 });

    expect((await status(body.txid)).json()).toEqual({
      status: 'CONCLUIDA',
      pedido_id: 1000,
      expira_em: body.expira_em,
    });
    expect(order.state.fulfilled).toEqual([
      { id: 1000, chargeId: (await chargeRow(body.txid))!.id, amountCents: 9980, userId: buyer.id },
    ]);
    // It paid for an order only, and stays paid once: paying again changes nothing.
    expect(registration.state.fulfilCalls).toBe(0);
    expect((await simulatePay(body.txid)).json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: 1000 });
    expect(order.state.fulfilCalls).toBe(1);
  });

  it('a registration charge pays for one registration and no order', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: { total: 80, finalidade: 'inscricao', inscricao: { quantity: 1 }, pedido: { quantity: 5 } },
    });
    expect(res.statusCode).toBe(201);
    const { txid } = res.json();
    expect((await simulatePay(txid)).json()).toEqual({ txid, status: 'CONCLUIDA', inscricao_id: 1000 });
    expect((await status(txid)).json()).toMatchObject({ status: 'CONCLUIDA', inscricao_id: 1000 });
    expect(registration.state.fulfilCalls).toBe(1);
    expect(order.state.fulfilCalls).toBe(0);
    expect(order.state.stock).toBe(5);
    expect((await chargeRow(txid))!.purpose).toBe('registration');
  });

  it('charges the amount the server computed, never the browser’s: a different total is refused with 409', async () => {
    const before = await countCharges();
    const res = await createPix(2, 1.0);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'total_divergente', total_correto: 99.8 });
    expect(res.json().detail).toContain('R$\u00a099,80');
    expect(await countCharges()).toBe(before);
    expect(order.state.stock).toBe(5);
  });

  it('refuses a draft the purpose rejects, and a charge when units are unavailable (nothing stays held)', async () => {
    const bad = await createPix(0, 0.01);
    expect(bad.statusCode).toBe(400);
    const before = await countCharges();
    const tooMany = await createPix(6, 299.4);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toMatchObject({ code: 'esgotado' });
    expect(await countCharges()).toBe(before);
  });

  it('shows a charge only to its owner', async () => {
    const { txid } = (await createPix(1, 49.9)).json();
    const other = await makeUser(t.app);
    expect((await status(txid, other.headers)).statusCode).toBe(404);
    expect((await status('naoexiste1234567890123456789')).statusCode).toBe(404);
  });

  it('refuses an unauthenticated webhook and changes nothing', async () => {
    const { txid } = (await createPix(1, 49.9)).json();
    t.app.providers.payments.simulator!.payPix(txid, t.clock);
    expect((await webhook(txid, '')).statusCode).toBe(401);
    expect((await webhook(txid, '?hmac=errado')).statusCode).toBe(401);
    expect((await chargeRow(txid))!.status).toBe('ATIVA');
    expect(order.state.fulfilCalls).toBe(0);
  });

  it('does not take a webhook’s word: a notification for an unpaid charge changes nothing', async () => {
    const { txid } = (await createPix(1, 49.9)).json();
    const res = await webhook(txid);
    expect(res.statusCode).toBe(200);
    expect((await chargeRow(txid))!.status).toBe('ATIVA');
    expect(order.state.fulfilCalls).toBe(0);
  });

  it('the same webhook five times at once changes state once and fulfils once', async () => {
    const { txid } = (await createPix(1, 49.9)).json();
    t.app.providers.payments.simulator!.payPix(txid, t.clock);
    const results = await Promise.all(Array.from({ length: 5 }, () => webhook(txid)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(order.state.fulfilCalls).toBe(1);
    const row = await chargeRow(txid);
    expect(row).toMatchObject({ status: 'CONCLUIDA', endToEndId: expect.stringMatching(/^E/) });
    expect((await status(txid)).json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: 1000 });
    // Efí appends "/pix" to the registered URL; that path is served too, and still fulfils nothing new.
    const appended = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/pix/pix?hmac=${WEBHOOK_SECRET}`,
      payload: { pix: [{ endToEndId: 'E1', txid }] },
    });
    expect(appended.statusCode).toBe(200);
    expect(order.state.fulfilCalls).toBe(1);
  });

  it('refuses a webhook with the right secret from an address that is not Efí’s', async () => {
    const { txid } = (await createPix(1, 49.9)).json();
    t.app.providers.payments.simulator!.payPix(txid, t.clock);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/pix/?hmac=${WEBHOOK_SECRET}`,
      remoteAddress: '203.0.113.9',
      payload: { pix: [{ endToEndId: 'E1', txid }] },
    });
    expect(res.statusCode).toBe(401);
    expect((await chargeRow(txid))!.status).toBe('ATIVA');
  });

  it('settling is idempotent when webhook, polling and reconciliation run five times at once', async () => {
    const { txid } = (await createPix(1, 49.9)).json();
    t.app.providers.payments.simulator!.payPix(txid, t.clock);
    const id = (await chargeRow(txid))!.id;
    await Promise.all([
      ...Array.from({ length: 3 }, () => t.app.payments.reconcile(id, 'reconcile')),
      webhook(txid),
      status(txid),
    ]);
    expect(order.state.fulfilCalls).toBe(1);
    expect((await chargeRow(txid))!.status).toBe('CONCLUIDA');
  });

  it('an expired charge is removed at the provider, gives its units back once and cannot be paid', async () => {
    const { txid } = (await createPix(2, 99.8)).json();
    expect(order.state.stock).toBe(3);
    t.clock = new Date(START.getTime() + 900_000 + 1000);
    const pay = await simulatePay(txid);
    expect(pay.statusCode).toBe(409);
    expect(pay.json()).toMatchObject({ code: 'cobranca_expirada' });
    expect((await status(txid)).json()).toMatchObject({ status: 'EXPIRADA' });
    expect(order.state.stock).toBe(5);
    expect(order.state.releaseCalls).toBe(1);
    // The provider removed it too: the bank refuses it now.
    expect(t.app.providers.payments.simulator!.payPix(txid, t.clock)).toBeNull();
    await t.app.payments.reconcile((await chargeRow(txid))!.id, 'reconcile');
    await webhook(txid);
    expect((await chargeRow(txid))!.status).toBe('EXPIRADA');
    expect(order.state.fulfilCalls).toBe(0);
    expect(order.state.releaseCalls).toBe(1);
  });

  it('a new Pix for the same purpose replaces the account’s earlier one (removed at the provider, units back)', async () => {
    const first = (await createPix(5, 249.5)).json();
    expect(order.state.stock).toBe(0);
    const second = await createPix(5, 249.5);
    expect(second.statusCode).toBe(201);
    expect((await chargeRow(first.txid))!.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(t.app.providers.payments.simulator!.payPix(first.txid, t.clock)).toBeNull();
    expect(order.state.stock).toBe(0);
    expect(order.state.releaseCalls).toBe(1);
  });

  describe('card', () => {
    const tokenize = (number: string, extra: Record<string, unknown> = {}) =>
      tokenizeCard(
        t.app,
        { number, holderName: 'Maria da Silva', holderDocument: CPF },
        { expirationYear: '2028', ...extra },
      );
    const pay = (paymentToken: string, installments: number, total = 99.8) =>
      t.app.inject({
        method: 'POST',
        url: '/api/pagar-cartao/',
        headers: { ...buyer.headers, 'idempotency-key': `tentativa-${paymentToken}-${installments}` },
        payload: {
          birth: '1990-05-17',
          payment_token: paymentToken,
          name: 'Maria da Silva',
          cpf: CPF,
          phone: '85999999999',
          email: 'maria@example.com',
          produto: 'Camiseta Passada',
          total,
          installment: 1,
          installments,
          finalidade: 'pedido',
          pedido: { quantity: 2 },
        },
      });

    it('tokenizes like Efí: errors in the spec’s shape, a token without the card number', async () => {
      const bad = await tokenize(CARD.visa, { cvv: '12' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({
        code: 400,
        error: 'cvv_cartao_invalido',
        error_description: expect.any(String),
      });
      expect((await tokenize(CARD.visa, { expirationYear: '2025' })).json().error).toBe(
        'validade_cartao_invalida',
      );
      const ok = await tokenize(CARD.visa);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().card_mask).toBe('411111******1111');
      expect(ok.json().payment_token).not.toContain('1111111111');
    });

    it('approved: one charge, fulfilled once, server-side interest for 4 instalments', async () => {
      const { payment_token } = (await tokenize(CARD.visa)).json();
      const res = await pay(payment_token, 4);
      expect(res.statusCode).toBe(200);
      const data = res.json().detalhes.data;
      expect(res.json().txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
      // 99,80 in 4× at 1,99% a.m. (Price table): 26,20 each.
      expect(data).toMatchObject({
        status: 'paid',
        installments: 4,
        installment_value: 2620,
        total: 10480,
      });
      expect(data.preco_juros).toBe(104.8);
      expect(res.json().pedido_id).toBe(1000);
      expect(order.state.fulfilled).toEqual([expect.objectContaining({ amountCents: 10480 })]);
      expect(order.state.stock).toBe(3);
      // A single-use token cannot pay twice (a new attempt, a new key).
      const again = await pay(payment_token, 1);
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('pagamento_recusado');
      expect(order.state.fulfilCalls).toBe(1);
      expect(order.state.stock).toBe(3);
    });

    it('refused: 400 with the provider’s reason, nothing fulfilled, units given back', async () => {
      const { payment_token } = (await tokenize(CARD.visaRefused)).json();
      const res = await pay(payment_token, 1);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'pagamento_recusado', txid: expect.any(String) });
      expect(res.json().detail.length).toBeGreaterThan(5);
      expect((await status(res.json().txid)).json()).toEqual({
        status: 'RECUSADA',
        motivo: res.json().detail,
      });
      expect(order.state.fulfilCalls).toBe(0);
      expect(order.state.stock).toBe(5);
      const row = (await t.app.db.select().from(charges).where(eq(charges.status, 'RECUSADA')))[0];
      expect(row).toMatchObject({ method: 'cartao', purpose: 'order', amountCents: 9980 });
    });

    it('a refused card is listed with the amount the buyer chose, interest of the instalments included', async () => {
      const { payment_token } = (await tokenize(CARD.visaRefused)).json();
      const res = await pay(payment_token, 4);
      expect(res.statusCode).toBe(400);
      const listed = await t.app.inject({ method: 'GET', url: '/api/pagamentos/', headers: buyer.headers });
      // 99,80 in 4× at 1,99% a.m.: 26,20 each, 104,80 in all (not the 99,80 before interest).
      expect(listed.json()).toEqual([
        expect.objectContaining({ txid: res.json().txid, status: 'RECUSADA', valor: 104.8, parcelas: 4 }),
      ]);
    });

    it('charges the server’s total, not the browser’s', async () => {
      const { payment_token } = (await tokenize(CARD.visa)).json();
      const res = await pay(payment_token, 1, 9.98);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('total_divergente');
      expect(order.state.fulfilCalls).toBe(0);
    });

    it('lists instalments for a brand and a total in centavos', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/parcelas/?brand=visa&total=10000' });
      expect(res.statusCode).toBe(200);
      const list = res.json().installments;
      expect(list[0]).toEqual({
        installment: 1,
        has_interest: false,
        value: 10000,
        currency: '100,00',
        interest_percentage: 0,
      });
      expect(list[3]).toMatchObject({ installment: 4, has_interest: true, interest_percentage: 199 });
      expect(
        list.every((o: { installment: number; value: number }) => o.installment === 1 || o.value >= 500),
      ).toBe(true);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/parcelas/?brand=diners&total=10000' })).statusCode,
      ).toBe(400);
    });
  });

  it('keeps card numbers, CVV, CPF and tokens out of the logs', async () => {
    const tok = await t.app.inject({
      method: 'POST',
      url: '/api/simulador/cartao/token',
      payload: {
        brand: 'visa',
        number: CARD.visa,
        cvv: '987',
        expirationMonth: '12',
        expirationYear: '2028',
        holderDocument: CPF,
      },
    });
    const { payment_token } = tok.json();
    await t.app.inject({
      method: 'POST',
      url: '/api/pagar-cartao/',
      headers: { ...buyer.headers, 'idempotency-key': 'registro-de-log' },
      payload: {
        birth: '1990-05-17',
        payment_token,
        name: 'Maria da Silva',
        cpf: CPF,
        email: 'maria@example.com',
        total: 49.9,
        installments: 1,
        finalidade: 'pedido',
        pedido: { quantity: 1 },
      },
    });
    await createPix(1, 49.9);
    const logs = logLines.join('');
    expect(logs).toContain('card charge settled');
    expect(logs).toContain('pix charge created');
    for (const secret of [
      CARD.visa,
      '411111',
      CPF,
      '403.644',
      payment_token,
      buyer.headers.authorization.slice(6),
      WEBHOOK_SECRET,
    ])
      expect(logs).not.toContain(secret);
    // A 3-digit CVV could appear inside any number, so look for it as a value or a field.
    expect(logs).not.toMatch(/"987"|cvv/i);
  });
});
