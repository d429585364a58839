import { Writable } from 'node:stream';
import { MessageLogListSchema, WhatsAppOptOutListSchema } from '@passada/core/contracts/painel';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, messageLog, whatsappOptOuts } from '../../db/schema/index.ts';
import { WHATSAPP_TEMPLATES } from '../../providers/whatsapp/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { type FakeWhatsApp, signWebhook, startFakeWhatsApp } from '../../test/mocks/fake-whatsapp.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const MARIA = '5585999990000';
const JOAO = '5585988887777';
const VERIFY = 'token-de-verificacao-da-loja';

describe("Meta's WhatsApp webhook: verification, signature, delivery states and opt-out", () => {
  let fake: FakeWhatsApp;
  let t: TestApp;
  let admin: TestStaff;
  const logLines: string[] = [];

  beforeAll(async () => {
    fake = await startFakeWhatsApp({
      templates: Object.entries(WHATSAPP_TEMPLATES).map(([name, tpl]) => ({
        name,
        language: 'pt_BR',
        bodyParameters: tpl.parameters.length,
      })),
    });
    t = await createTestApp({
      logger: true,
      logStream: new Writable({
        write(chunk, _enc, done) {
          logLines.push(String(chunk));
          done();
        },
      }),
      env: {
        // Debug: every request's line too, where a URL would carry the verify token.
        LOG_LEVEL: 'debug',
        WHATSAPP_PROVIDER: 'cloud',
        WHATSAPP_API_URL: fake.url,
        WHATSAPP_API_VERSION: fake.version,
        WHATSAPP_PHONE_NUMBER_ID: fake.phoneNumberId,
        WHATSAPP_ACCESS_TOKEN: fake.token,
        WHATSAPP_WEBHOOK_VERIFY_TOKEN: VERIFY,
        WHATSAPP_APP_SECRET: fake.appSecret,
      },
    });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const send = (to: string) =>
    t.app.providers.whatsapp.send({
      to,
      template: 'pedido_atualizado',
      parameters: ['Maria', '1042', 'foi enviado', 'https://passada.com.br/user/pedidos/1042'],
    });
  const post = (delivery: { payload: string; headers: Record<string, string> }) =>
    t.app.inject({ method: 'POST', url: '/api/webhooks/whatsapp/', ...delivery });
  const row = async (wamid: string) => {
    const [r] = await t.database.db.select().from(messageLog).where(eq(messageLog.providerMessageId, wamid));
    return r!;
  };

  it('answers the subscription check with the challenge only for the right verify token', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: `/api/webhooks/whatsapp/?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${VERIFY}`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    for (const query of [
      'hub.mode=subscribe&hub.challenge=1&hub.verify_token=outro',
      'hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=' + VERIFY,
      'hub.challenge=1',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/webhooks/whatsapp/?${query}` });
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('1158201444');
    }
  });

  it('refuses a notification without a valid signature of its exact bytes, changing nothing', async () => {
    const { id } = await send(MARIA);
    const delivered = fake.statusNotification(id, 'delivered');
    const refused = [
      // No signature.
      { payload: delivered.payload, headers: { 'content-type': 'application/json' } },
      // Signed with another secret.
      {
        payload: delivered.payload,
        headers: { ...delivered.headers, 'x-hub-signature-256': signWebhook(delivered.payload, 'outro') },
      },
      // The same JSON written again (Meta's escapes undone): the signature no longer matches the bytes.
      {
        payload: JSON.stringify(JSON.parse(delivered.payload)).replace('"delivered"', '"read"'),
        headers: delivered.headers,
      },
      // A SHA-1 signature in the 256 header.
      { payload: delivered.payload, headers: { ...delivered.headers, 'x-hub-signature-256': 'sha1=abc' } },
      // The right signature with anything after it: the header must be the signature, exactly.
      ...['zz', '0', '00', 'g', '=', ', sha256=00'].map((tail) => ({
        payload: delivered.payload,
        headers: {
          ...delivered.headers,
          'x-hub-signature-256': `${signWebhook(delivered.payload, fake.appSecret)}${tail}`,
        },
      })),
    ];
    for (const attempt of refused) {
      const res = await post(attempt);
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toBe('Assinatura do webhook do WhatsApp inválida.');
    }
    expect((await row(id)).delivery).toBeNull();
    // The genuine one goes through.
    expect((await post(delivered)).json()).toEqual({ situacoes: 1, descadastros: 0 });
    expect((await row(id)).delivery).toBe('delivered');
  });

  it('moves a message forward only (sent, delivered, read), re-deliveries and late reports changing nothing', async () => {
    const { id } = await send(MARIA);
    const sent = fake.statusNotification(id, 'sent');
    expect((await post(sent)).json()).toEqual({ situacoes: 1, descadastros: 0 });
    expect((await row(id)).delivery).toBe('sent');
    const read = fake.statusNotification(id, 'read');
    expect((await post(read)).statusCode).toBe(200);
    // Meta sends the same notification again, and the `delivered` report arrives after `read`.
    expect((await post(read)).json()).toEqual({ situacoes: 0, descadastros: 0 });
    expect((await post(fake.statusNotification(id, 'delivered'))).json()).toEqual({
      situacoes: 0,
      descadastros: 0,
    });
    expect((await post(sent)).json().situacoes).toBe(0);
    const after = await row(id);
    expect([after.status, after.delivery, after.deliveryError]).toEqual(['sent', 'read', null]);
    expect(after.deliveryAt).toBeInstanceOf(Date);
  });

  it('keeps the error code of a failed delivery, and a report of an unknown message is answered 200', async () => {
    const { id } = await send(JOAO);
    const failed = fake.statusNotification(id, 'failed', { code: 131049, title: 'Message not delivered' });
    expect((await post(failed)).json()).toEqual({ situacoes: 1, descadastros: 0 });
    expect((await post(failed)).json()).toEqual({ situacoes: 0, descadastros: 0 });
    const r = await row(id);
    expect([r.delivery, r.deliveryError]).toEqual(['failed', '131049 Message not delivered']);
    // A message sent by another system on the same number: nothing to update, nothing to retry.
    const other = fake.statusNotification(id, 'read');
    const stranger = other.payload.replace(id, 'wamid.desconhecido');
    const res = await post({
      payload: stranger,
      headers: { ...other.headers, 'x-hub-signature-256': signWebhook(stranger, fake.appSecret) },
    });
    expect(res.json()).toEqual({ situacoes: 0, descadastros: 0 });
  });

  it('records "PARAR" as the revocation of that number, once, and sends it nothing more', async () => {
    // Words that only contain the request are not one.
    expect(
      (await post(fake.incomingText(MARIA, 'não é para parar a entrega, é para o outro endereço'))).json(),
    ).toEqual({ situacoes: 0, descadastros: 0 });
    expect(await t.database.db.select().from(whatsappOptOuts)).toEqual([]);

    const stop = fake.incomingText(MARIA, '  Parar. ');
    expect((await post(stop)).json()).toEqual({ situacoes: 0, descadastros: 1 });
    expect((await post(stop)).json()).toEqual({ situacoes: 0, descadastros: 0 });
    // One older than the recorded one changes nothing either.
    const earlier = new Date(Date.now() - 3_600_000);
    expect((await post(fake.incomingText(MARIA, 'STOP', earlier))).json().descadastros).toBe(0);
    const [revoked] = await t.database.db.select().from(whatsappOptOuts);
    expect(revoked).toMatchObject({ phone: MARIA, request: 'PARAR' });
    expect(revoked!.messageId).toMatch(/^wamid\./);

    const before = fake.accepted.length;
    expect(await send(MARIA)).toEqual({ id: '' });
    expect(fake.accepted.length).toBe(before);
    const [last] = await t.database.db
      .select()
      .from(messageLog)
      .where(eq(messageLog.recipient, MARIA))
      .orderBy(messageLog.id)
      .then((rows) => rows.slice(-1));
    expect([last!.status, last!.providerMessageId]).toEqual(['opted_out', null]);
    expect(last!.error).toContain('pediu para não receber');

    // "Sair" from another number stops that one too; João's other messages were already sent.
    expect((await post(fake.incomingText(JOAO, 'sair'))).json().descadastros).toBe(1);
    expect((await send(JOAO)).id).toBe('');
    expect(fake.accepted.length).toBe(before);
  });

  it('a consent given after the PARAR sends again, and a PARAR after that consent blocks again', async () => {
    const ANA = '5585977776666';
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const sendOn = (consentAt: Date) =>
      t.app.providers.whatsapp.send({
        to: ANA,
        template: 'pedido_atualizado',
        parameters: ['Ana', '1043', 'foi enviado', 'https://passada.com.br/user/pedidos/1043'],
        consentAt,
      });
    const firstConsent = at(60);
    expect((await sendOn(firstConsent)).id).toMatch(/^wamid\./);
    expect((await post(fake.incomingText(ANA, 'PARAR', at(50)))).json().descadastros).toBe(1);
    // The order she opted in on before asking to stop gets nothing more.
    expect(await sendOn(firstConsent)).toEqual({ id: '' });
    // She ticks the opt-in again at a later checkout: messages relying on that consent go.
    const renewed = at(40);
    const before = fake.accepted.length;
    expect((await sendOn(renewed)).id).toMatch(/^wamid\./);
    expect(fake.accepted.length).toBe(before + 1);
    // ...until she writes PARAR again: the later request replaces the first and blocks that consent too.
    const again = at(30);
    expect((await post(fake.incomingText(ANA, 'Sair', again))).json().descadastros).toBe(1);
    expect(await sendOn(renewed)).toEqual({ id: '' });
    const [kept] = await t.database.db.select().from(whatsappOptOuts).where(eq(whatsappOptOuts.phone, ANA));
    expect([kept!.request, kept!.requestedAt.getTime()]).toEqual([
      'SAIR',
      Math.floor(again.getTime() / 1000) * 1000,
    ]);
    // Without a consent time (a sender that has none) any opt-out blocks.
    expect(
      await t.app.providers.whatsapp.send({
        to: ANA,
        template: 'pedido_atualizado',
        parameters: ['Ana', '1043', 'foi enviado', 'https://passada.com.br/user/pedidos/1043'],
      }),
    ).toEqual({ id: '' });
    const statuses = await t.database.db
      .select({ status: messageLog.status })
      .from(messageLog)
      .where(eq(messageLog.recipient, ANA))
      .orderBy(messageLog.id);
    expect(statuses.map((r) => r.status)).toEqual(['sent', 'opted_out', 'sent', 'opted_out', 'opted_out']);
  });

  it("a Pix code sent by its job reaches the Cloud API as the approved template, and Meta's reports update its record", async () => {
    const product = await makeProduct(t.app.db);
    const buyer = await makeBuyer(t.app);
    const draft = { ...orderDraft(buyer, [{ product }]), whatsapp: true };
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const pix = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(pix.statusCode, pix.body).toBe(201);
    const sent = await vi.waitFor(
      () => {
        const m = fake.accepted.find((a) => a.template === 'pix_codigo');
        expect(m).toBeDefined();
        return m!;
      },
      { timeout: 45_000, interval: 100 },
    );
    expect(sent).toMatchObject({
      language: 'pt_BR',
      parameters: [
        expect.any(String),
        expect.stringMatching(/^R\$/),
        'o seu pedido',
        expect.any(String),
        pix.json().pix_copiaecola,
      ],
    });
    const logged = await vi.waitFor(
      async () => {
        const r = await row(sent.id);
        expect(r).toBeDefined();
        return r;
      },
      { timeout: 45_000, interval: 100 },
    );
    expect([logged.kind, logged.status, logged.recipient]).toEqual(['whatsapp.pix-code', 'sent', sent.to]);
    expect((await post(fake.statusNotification(sent.id, 'delivered'))).json().situacoes).toBe(1);
    expect((await row(sent.id)).delivery).toBe('delivered');
  });

  it('logs no verify token, app secret, phone number or words people wrote', async () => {
    const logs = logLines.join('');
    expect(logs).toContain('Webhook do WhatsApp recusado: assinatura inválida');
    expect(logs).toContain('hub.verify_token=[oculto]');
    for (const secret of [VERIFY, fake.appSecret, MARIA, JOAO, 'Parar', 'sair'])
      expect(logs).not.toContain(secret);
  });

  it('shows the delivery state in the back office, to staff only', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/painel/mensagens/registro/?canal=whatsapp',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const list = MessageLogListSchema.parse(res.json());
    expect(list.every((m) => m.canal === 'whatsapp')).toBe(true);
    expect(list.map((m) => [m.situacao, m.entrega])).toEqual(
      expect.arrayContaining([
        ['sent', 'read'],
        ['sent', 'failed'],
        ['opted_out', null],
      ]),
    );
    expect(list.find((m) => m.entrega === 'failed')!.erro_entrega).toBe('131049 Message not delivered');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/painel/mensagens/registro/?canal=sms',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/painel/mensagens/registro/' })).statusCode).toBe(
      401,
    );
  });
});

describe('an opt-out recorded by staff', () => {
  let fake: FakeWhatsApp;
  let t: TestApp;
  let admin: TestStaff;
  beforeAll(async () => {
    fake = await startFakeWhatsApp({
      templates: Object.entries(WHATSAPP_TEMPLATES).map(([name, tpl]) => ({
        name,
        language: 'pt_BR',
        bodyParameters: tpl.parameters.length,
      })),
    });
    t = await createTestApp({
      env: {
        WHATSAPP_PROVIDER: 'cloud',
        WHATSAPP_API_URL: fake.url,
        WHATSAPP_API_VERSION: fake.version,
        WHATSAPP_PHONE_NUMBER_ID: fake.phoneNumberId,
        WHATSAPP_ACCESS_TOKEN: fake.token,
        WHATSAPP_WEBHOOK_VERIFY_TOKEN: VERIFY,
        WHATSAPP_APP_SECRET: fake.appSecret,
      },
    });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const record = (body: object, headers: Record<string, string> = admin.headers) =>
    t.app.inject({ method: 'POST', url: '/api/painel/mensagens/descadastros/', headers, payload: body });

  it('stops every message to that number from then on, audited and listed beside the PARAR ones', async () => {
    const PEDRO = '5585966665555';
    const consentAt = new Date(Date.now() - 86_400_000);
    const update = () =>
      t.app.providers.whatsapp.send({
        to: PEDRO,
        template: 'pedido_atualizado',
        parameters: ['Pedro', '2001', 'foi enviado', 'https://passada.com.br/user/pedidos/2001'],
        consentAt,
      });
    expect((await update()).id).toMatch(/^wamid\./);
    await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/whatsapp/',
      ...fake.incomingText(MARIA, 'PARAR'),
    });

    const res = await record({ telefone: '(85) 96666-5555', motivo: 'Pediu por telefone ao atendimento' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      telefone: PEDRO,
      pedido: 'Pediu por telefone ao atendimento',
      origem: 'equipe',
      registrado_por: admin.email,
    });

    const before = fake.accepted.length;
    expect(await update()).toEqual({ id: '' });
    expect(fake.accepted.length).toBe(before);

    const list = WhatsAppOptOutListSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/painel/mensagens/descadastros/',
          headers: admin.headers,
        })
      ).json(),
    );
    expect(list.map((o) => [o.telefone, o.origem])).toEqual([
      [PEDRO, 'equipe'],
      [MARIA, 'whatsapp'],
    ]);

    const [line] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'descadastro_whatsapp'));
    expect(line).toMatchObject({ staffEmail: admin.email, entity: 'whatsapp', entityId: PEDRO });
  });

  it('refuses a bad number or no reason in Portuguese, writing nothing, and staff without the permission', async () => {
    const bad = await record({ telefone: '123', motivo: 'Pediu por e-mail' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Digite um telefone válido com DDD.');
    const noReason = await record({ telefone: '(85) 95555-4444', motivo: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('Informe como a pessoa pediu');
    const manager = await createStaffAndLogin(t.app, 'gerente');
    expect(
      (await record({ telefone: '(85) 95555-4444', motivo: 'Pediu no balcão' }, manager.headers)).statusCode,
    ).toBe(403);
    expect((await record({ telefone: '(85) 95555-4444', motivo: 'Pediu no balcão' }, {})).statusCode).toBe(
      401,
    );
    const rows = await t.database.db
      .select()
      .from(whatsappOptOuts)
      .where(eq(whatsappOptOuts.phone, '5585955554444'));
    expect(rows).toEqual([]);
  });
});

describe('the WhatsApp webhook without its settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('refuses the check and every notification while no verify token and app secret are set', async () => {
    const get = await t.app.inject({
      method: 'GET',
      url: '/api/webhooks/whatsapp/?hub.mode=subscribe&hub.challenge=1&hub.verify_token=',
    });
    expect(get.statusCode).toBe(403);
    const payload = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/whatsapp/',
      payload,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhook(payload, '') },
    });
    expect(res.statusCode).toBe(403);
  });
});
