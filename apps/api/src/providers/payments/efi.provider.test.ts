import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { buildPixPayload, parsePixPayload } from '@passada/core/pix-br-code';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.ts';
import { makeFakePurpose, makeUser } from '../../test/factories/payments.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createEfiProvider } from './efi.provider.ts';
import { PaymentProviderError } from './payments.provider.ts';

const CLIENT_ID = 'Client_Id_teste';
const CLIENT_SECRET = 'Client_Secret_teste';
const PIX_KEY = 'contato@passada.com.br';
const WEBHOOK_SECRET = 'segredo-efi';

/** Self-signed certificate and key made by the openssl CLI (nothing is checked in). */
function makeCert(dir: string, name: string, cn: string) {
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

/**
 * A stand-in for Efí on 127.0.0.1 that answers in its documented shapes (API Pix and charges API),
 * demands the account's client certificate (mTLS) and an OAuth token, and answers errors as Efí does.
 */
function startFakeEfi(server: { key: Buffer; cert: Buffer }, clientCa: Buffer) {
  const cobs = new Map<string, Json>();
  const seen = { clientCerts: [] as string[], requests: [] as string[], bodies: [] as Json[] };
  const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
  const srv = https.createServer(
    { ...server, ca: clientCa, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Json) : {};
        const url = new URL(req.url ?? '/', 'https://x');
        const send = (status: number, answer: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer));
        };
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        seen.clientCerts.push(String(peer.subject?.CN));
        seen.requests.push(`${req.method} ${url.pathname}`);
        seen.bodies.push(body);
        if (url.pathname === '/oauth/token' || url.pathname === '/v1/authorize') {
          if (req.headers.authorization !== basic || body.grant_type !== 'client_credentials')
            return send(401, { error: 'invalid_client', error_description: 'Credenciais inválidas' });
          return send(200, {
            access_token: 'tok-efi',
            token_type: 'Bearer',
            expires_in: 3600,
            scope: 'cob.write',
          });
        }
        if (req.headers.authorization !== 'Bearer tok-efi')
          return send(401, { nome: 'nao_autorizado', mensagem: 'Requisição não autorizada.' });
        let m = /^\/v2\/cob\/([a-zA-Z0-9]{26,35})$/.exec(url.pathname);
        if (m && req.method === 'PUT') {
          const txid = m[1]!;
          const valor = (body.valor as Json | undefined)?.original;
          if (typeof valor !== 'string' || !/^\d{1,10}\.\d{2}$/.test(valor))
            return send(400, { nome: 'valor_invalido', mensagem: 'Campo valor.original inválido.' });
          if (cobs.has(txid))
            return send(400, {
              nome: 'txid_duplicado',
              mensagem: 'Campo txid informado já foi utilizado em outra cobrança.',
            });
          const cob = {
            calendario: { criacao: new Date().toISOString(), expiracao: (body.calendario as Json).expiracao },
            txid,
            revisao: 0,
            loc: { id: 789, location: `pix.example.com/qr/v2/${txid}`, tipoCob: 'cob' },
            location: `pix.example.com/qr/v2/${txid}`,
            status: 'ATIVA',
            valor: { original: valor },
            chave: body.chave,
            solicitacaoPagador: body.solicitacaoPagador,
          };
          cobs.set(txid, cob);
          return send(201, cob);
        }
        if (m && req.method === 'GET') {
          const cob = cobs.get(m[1]!);
          if (!cob)
            return send(404, {
              nome: 'cobranca_nao_encontrada',
              mensagem: 'Nenhuma cobrança encontrada para o txid informado.',
            });
          return send(200, cob);
        }
        m = /^\/v2\/loc\/(\d+)\/qrcode$/.exec(url.pathname);
        if (m && req.method === 'GET') {
          const cob = [...cobs.values()].at(-1)!;
          const qrcode = buildPixPayload({
            url: String(cob.location),
            amountCents: Math.round(Number((cob.valor as Json).original) * 100),
            merchantName: 'PASSADA',
            merchantCity: 'FORTALEZA',
          });
          return send(200, {
            qrcode,
            imagemQrcode: 'data:image/png;base64,iVBORw0KGgo=',
            linkVisualizacao: 'https://x',
          });
        }
        if (url.pathname === '/v1/charge/one-step' && req.method === 'POST') {
          const card = ((body.payment as Json).credit_card ?? {}) as Json;
          const items = body.items as Array<{ value: number; amount: number }>;
          const base = items.reduce((s, i) => s + i.value * i.amount, 0);
          if (card.payment_token === 'tok-invalido')
            return send(400, {
              code: 3500034,
              error: 'validation_error',
              error_description: {
                property: '/payment/credit_card/payment_token',
                message: 'Token de pagamento inválido',
              },
            });
          const n = Number(card.installments);
          const each = n > 3 ? Math.round((base * 1.08) / n) : Math.round(base / n);
          return send(200, {
            code: 200,
            data: {
              installments: n,
              installment_value: each,
              charge_id: 4242,
              status: card.payment_token === 'tok-aprovado' ? 'approved' : 'unpaid',
              total: n > 3 ? each * n : base,
              payment: 'credit_card',
            },
          });
        }
        if (url.pathname === '/v1/installments' && req.method === 'GET') {
          const total = Number(url.searchParams.get('total'));
          return send(200, {
            code: 200,
            data: {
              rate: 0,
              name: url.searchParams.get('brand'),
              installments: [
                {
                  installment: 1,
                  has_interest: false,
                  value: total,
                  currency: '100,00',
                  interest_percentage: 0,
                },
                {
                  installment: 4,
                  has_interest: true,
                  value: 2700,
                  currency: '27,00',
                  interest_percentage: 199,
                },
              ],
            },
          });
        }
        m = /^\/v2\/webhook\/(.+)$/.exec(url.pathname);
        if (m && req.method === 'PUT')
          return send(200, { webhookUrl: body.webhookUrl, chave: decodeURIComponent(m[1]!) });
        return send(404, { nome: 'nao_encontrado', mensagem: 'Rota não encontrada.' });
      });
    },
  );
  return new Promise<{ url: string; cobs: Map<string, Json>; seen: typeof seen; close: () => Promise<void> }>(
    (resolve) => {
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as AddressInfo;
        resolve({
          url: `https://127.0.0.1:${port}`,
          cobs,
          seen,
          close: () => new Promise((r) => srv.close(() => r())),
        });
      });
    },
  );
}

describe('Efí provider against a local fake Efí (mTLS + OAuth2)', () => {
  let dir: string;
  let fake: Awaited<ReturnType<typeof startFakeEfi>>;
  let serverCert: { key: Buffer; cert: Buffer };
  let certPath: string;
  let envVars: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'passada-efi-'));
    serverCert = makeCert(dir, 'server', '127.0.0.1');
    const client = makeCert(dir, 'client', 'conta-passada');
    // Efí's .p12 converted to PEM: certificate and key in one file.
    certPath = path.join(dir, 'conta.pem');
    writeFileSync(certPath, Buffer.concat([client.cert, client.key]));
    fake = await startFakeEfi(serverCert, client.cert);
    envVars = {
      NODE_ENV: 'test',
      PAYMENTS: 'efi',
      EFI_CLIENT_ID: CLIENT_ID,
      EFI_CLIENT_SECRET: CLIENT_SECRET,
      EFI_CERTIFICATE_PATH: certPath,
      EFI_ACCOUNT_ID: 'a'.repeat(32),
      EFI_PIX_URL: fake.url,
      EFI_CHARGES_URL: fake.url,
      EFI_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PIX_KEY,
    };
  });
  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const provider = (over: Record<string, string> = {}) =>
    createEfiProvider(loadEnv({ ...envVars, ...over }), { ca: serverCert.cert, timeoutMs: 5000 });

  it('creates a Pix charge with PUT /v2/cob/{txid} over mTLS, then reads its QR Code and status', async () => {
    const p = provider();
    const txid = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
    const pix = await p.createPix({
      txid,
      amountCents: 12990,
      expiresInSeconds: 1800,
      createdAt: new Date(),
      description: 'Pedido Passada',
    });
    expect(parsePixPayload(pix.pixCopiaECola)).toMatchObject({ dynamic: true, amountCents: 12990 });
    expect(pix.qrCodeDataUri).toMatch(/^data:image\/png;base64,/);
    expect(fake.cobs.get(txid)).toMatchObject({
      valor: { original: '129.90' },
      chave: PIX_KEY,
      calendario: { expiracao: 1800 },
      solicitacaoPagador: 'Pedido Passada',
    });
    expect(fake.seen.requests).toEqual(
      expect.arrayContaining(['POST /oauth/token', `PUT /v2/cob/${txid}`, 'GET /v2/loc/789/qrcode']),
    );
    expect(fake.seen.clientCerts.every((cn) => cn === 'conta-passada')).toBe(true);

    expect(await p.getPix(txid)).toEqual({ txid, status: 'ATIVA', amountCents: 12990 });
    Object.assign(fake.cobs.get(txid)!, {
      status: 'CONCLUIDA',
      pix: [
        {
          endToEndId: 'E18236120202611221200s0123456789',
          txid,
          valor: '129.90',
          horario: new Date().toISOString(),
        },
      ],
    });
    expect(await p.getPix(txid)).toEqual({
      txid,
      status: 'CONCLUIDA',
      amountCents: 12990,
      endToEndId: 'E18236120202611221200s0123456789',
    });
  });

  it('reuses the OAuth token instead of asking for one per call', async () => {
    const p = provider();
    const before = fake.seen.requests.filter((r) => r === 'POST /oauth/token').length;
    await p.registerPixWebhook('https://loja.example/api/webhooks/pix/?hmac=x&ignorar=');
    await p.registerPixWebhook('https://loja.example/api/webhooks/pix/?hmac=x&ignorar=');
    expect(fake.seen.requests.filter((r) => r === 'POST /oauth/token').length).toBe(before + 1);
    expect(fake.seen.requests).toContain(`PUT /v2/webhook/${encodeURIComponent(PIX_KEY)}`);
    expect(fake.seen.bodies.at(-1)).toEqual({
      webhookUrl: 'https://loja.example/api/webhooks/pix/?hmac=x&ignorar=',
    });
  });

  it('reports Efí errors with their name and status', async () => {
    const err = await provider()
      .getPix('naoexiste0000000000000000000')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err).toMatchObject({ status: 404, providerCode: 'cobranca_nao_encontrada' });
    const auth = await provider({ EFI_CLIENT_SECRET: 'errado' })
      .getPix('a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6')
      .catch((e: unknown) => e);
    expect(auth).toMatchObject({ status: 401, providerCode: 'invalid_client' });
  });

  it('cannot reach Efí without the account certificate (mTLS is required)', async () => {
    const noCert = path.join(dir, 'outra.pem');
    const other = makeCert(dir, 'outra', 'outra-conta');
    writeFileSync(noCert, Buffer.concat([other.cert, other.key]));
    const err = await provider({ EFI_CERTIFICATE_PATH: noCert })
      .getPix('a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect((err as PaymentProviderError).status).toBe(502);
  });

  it('charges a card with /v1/authorize and /v1/charge/one-step; lists installments', async () => {
    const p = provider();
    const approved = await p.chargeCard({
      paymentToken: 'tok-aprovado',
      installments: 4,
      amountCents: 10000,
      itemName: 'Camiseta',
      customer: {
        name: 'Maria da Silva',
        cpf: '403.644.788-29',
        email: 'maria@example.com',
        phone: '(85) 99999-9999',
      },
    });
    expect(approved).toEqual({
      chargeId: '4242',
      status: 'approved',
      installments: 4,
      installmentValueCents: 2700,
      totalCents: 10800,
    });
    const sent = fake.seen.bodies.at(-1)!;
    expect(sent).toMatchObject({
      items: [{ name: 'Camiseta', value: 10000, amount: 1 }],
      payment: {
        credit_card: {
          installments: 4,
          payment_token: 'tok-aprovado',
          customer: { cpf: '40364478829', phone_number: '85999999999' },
        },
      },
    });
    expect(fake.seen.requests).toContain('POST /v1/authorize');
    const refused = await p.chargeCard({
      paymentToken: 'tok-recusado',
      installments: 1,
      amountCents: 10000,
      itemName: 'Camiseta',
      customer: { name: 'Maria da Silva', cpf: '40364478829', email: 'maria@example.com', phone: '' },
    });
    expect(refused.status).toBe('unpaid');
    const invalid = await p
      .chargeCard({
        paymentToken: 'tok-invalido',
        installments: 1,
        amountCents: 10000,
        itemName: 'Camiseta',
        customer: { name: 'Maria da Silva', cpf: '40364478829', email: 'maria@example.com', phone: '' },
      })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({
      status: 400,
      providerCode: 'validation_error',
      message: 'Token de pagamento inválido',
    });
    const list = await p.installments('visa', 10000);
    expect(list[1]).toEqual({
      installment: 4,
      has_interest: true,
      value: 2700,
      currency: '27,00',
      interest_percentage: 199,
    });
  });

  describe('through the API with PAYMENTS=efi', () => {
    let t: TestApp;
    beforeAll(async () => {
      const { NODE_ENV: _, ...env } = envVars;
      t = await createTestApp({ env, providers: { payments: provider() } });
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

      const notify = (query: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/webhooks/pix/pix${query}`,
          payload: { pix: [{ endToEndId: 'E0000000000000000000000000000001', txid, valor: '50.00' }] },
        });
      expect((await notify('')).statusCode).toBe(401);
      // Efí has not been paid yet: a notification alone changes nothing.
      expect((await notify(`?hmac=${WEBHOOK_SECRET}&ignorar=`)).statusCode).toBe(200);
      expect(order.state.fulfilCalls).toBe(0);

      Object.assign(fake.cobs.get(txid)!, {
        status: 'CONCLUIDA',
        pix: [{ endToEndId: 'E0000000000000000000000000000001', txid, valor: '50.00' }],
      });
      const all = await Promise.all(
        Array.from({ length: 5 }, () => notify(`?hmac=${WEBHOOK_SECRET}&ignorar=`)),
      );
      expect(all.every((r) => r.statusCode === 200)).toBe(true);
      expect(order.state.fulfilCalls).toBe(1);
      const status = await t.app.inject({
        method: 'GET',
        url: `/api/status-pix/${txid}/`,
        headers: buyer.headers,
      });
      expect(status.json()).toEqual({ status: 'CONCLUIDA', pedido_id: 1000 });

      expect(
        (await t.app.inject({ method: 'POST', url: `/api/simulador/pix/${txid}/pagar` })).statusCode,
      ).toBe(404);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/simulador/cartao/token', payload: {} })).statusCode,
      ).toBe(404);
    });

    it('a paid amount that differs from the charge is not accepted', async () => {
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
      Object.assign(fake.cobs.get(txid)!, {
        status: 'CONCLUIDA',
        valor: { original: '0.50' },
        pix: [{ endToEndId: 'E2', txid }],
      });
      await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/pix/?hmac=${WEBHOOK_SECRET}`,
        payload: { pix: [{ endToEndId: 'E2', txid }] },
      });
      expect(order.state.fulfilCalls).toBe(0);
    });
  });
});
