import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { addDays } from '@passada/core/calendar';
import { WHATSAPP_CONSENT } from '@passada/core/contracts/consents';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messageLog, registrations } from '../../db/schema/index.ts';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createOrderPix, draftTotalCents, makeBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationPix } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

// 09:00 in Fortaleza on 22 November 2026.
const START = new Date('2026-11-22T12:00:00Z');
const TODAY = '2026-11-22';

interface OutboxMessage {
  to: string;
  template: string;
  parameters: string[];
  text: string;
}

describe('WhatsApp to people who opted in, through the offline provider and the message log', () => {
  const t = useClockedTestApp(START, { env: { WHATSAPP_KIT_REMINDER_DAYS: '2' } });
  const person = participantsFrom(930_000_000);

  const outbox = (): OutboxMessage[] => {
    const dir = path.join(t.dataDir, 'outbox', 'whatsapp');
    let files: string[] = [];
    try {
      files = readdirSync(dir).sort();
    } catch {
      return [];
    }
    return files.map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as OutboxMessage);
  };
  const sent = (template: string) => outbox().filter((m) => m.template === template);

  const drain = (name: string) => untilJobsDone(t.app.db, name);

  it('confirms on WhatsApp only the registration that opted in, recording the consent, then reminds of the kit pickup once', async () => {
    const user = await createUserAndToken(t.app);
    const event = await makeEvent(t.app.db, {
      today: TODAY,
      startDate: addDays(TODAY, 5),
      name: 'Corrida do Farol',
    });
    const category = event.days[0]!.categories[0]!.id;

    const optedIn = person(event, 'Ana Opt In', category);
    const pix = await registrationPix(
      t.app,
      { ...optedIn, whatsapp: true, numero_contato: '(85) 98877-6655' },
      89.9,
      user.headers,
    );
    expect(pix.statusCode, pix.body).toBe(201);
    // The Pix code goes on WhatsApp while the charge is open.
    await drain('whatsapp.pix-code');
    expect(sent('pix_codigo')).toHaveLength(1);
    expect(sent('pix_codigo')[0]).toMatchObject({
      to: '5585988776655',
      parameters: ['Ana', 'R$\u00a089,90', 'a sua inscrição', expect.any(String), pix.json().pix_copiaecola],
    });
    const id = (await simulatePixPaid(t.app, pix.json().txid)).json().inscricao_id as number;
    const silent = person(event, 'Bruno Sem WhatsApp', category);
    const pix2 = await registrationPix(t.app, silent, 89.9, user.headers);
    const id2 = (await simulatePixPaid(t.app, pix2.json().txid)).json().inscricao_id as number;

    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.id, id));
    expect(row).toMatchObject({ whatsappConsentVersion: WHATSAPP_CONSENT.version, whatsappConsentAt: START });
    const [row2] = await t.app.db.select().from(registrations).where(eq(registrations.id, id2));
    expect(row2).toMatchObject({ whatsappConsentVersion: null, whatsappConsentAt: null });

    await drain('whatsapp.registration-confirmed');
    const [confirmation] = sent('inscricao_confirmada');
    expect(sent('inscricao_confirmada')).toHaveLength(1);
    expect(confirmation).toMatchObject({
      to: '5585988776655',
      parameters: [
        'Ana',
        String(id),
        'Corrida do Farol',
        expect.stringMatching(/^27\/11\/2026 às /),
        `${t.env.publicUrl}/eventos/register/${event.id}/ja-me-inscrevi`,
      ],
    });
    expect(confirmation!.text).toContain(`Sua inscrição nº ${id} em Corrida do Farol`);
    const logged = await t.app.db
      .select()
      .from(messageLog)
      .where(and(eq(messageLog.channel, 'whatsapp'), eq(messageLog.kind, 'whatsapp.registration-confirmed')));
    expect(logged.map((l) => [l.recipient, l.status, l.attempts])).toEqual([['5585988776655', 'sent', 1]]);

    // Three days before the event: nothing yet. Two days before: the reminder, once.
    t.clock = new Date(`${addDays(TODAY, 2)}T12:00:00Z`);
    await t.app.jobs.send('whatsapp.kit-reminders', {});
    await drain('whatsapp.kit-reminders');
    expect(sent('retirada_kit_lembrete')).toHaveLength(0);
    t.clock = new Date(`${addDays(TODAY, 3)}T12:00:00Z`);
    await t.app.jobs.send('whatsapp.kit-reminders', {});
    await drain('whatsapp.kit-reminders');
    await t.app.jobs.send('whatsapp.kit-reminders', {});
    await drain('whatsapp.kit-reminders');
    await drain('whatsapp.kit-reminder');
    const reminders = sent('retirada_kit_lembrete');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ to: '5585988776655' });
    expect(reminders[0]!.parameters[0]).toBe('Ana');
    expect(reminders[0]!.parameters[5]).toBe(String(id));
  });

  it('sends order updates to a buyer who opted in at checkout, from the status change and from notifyUpdate', async () => {
    const product = await makeProduct(t.app.db);
    const buyer = await makeBuyer(t.app);
    const draft = { ...orderDraft(buyer, [{ product }]), whatsapp: true };
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const pix = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(pix.statusCode, pix.body).toBe(201);
    await drain('whatsapp.pix-code');
    expect(sent('pix_codigo').at(-1)).toMatchObject({
      to: '5585999999999',
      parameters: [
        expect.any(String),
        expect.stringMatching(/^R\$/),
        'o seu pedido',
        expect.any(String),
        pix.json().pix_copiaecola,
      ],
    });
    const orderId = (await simulatePixPaid(t.app, pix.json().txid)).json().pedido_id as number;
    expect(orderId).toBeGreaterThan(0);

    const admin = await createStaffAndLogin(t.app, 'admin');
    const packed = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${orderId}/status/`,
      headers: admin.headers,
      payload: { status: 'em separação' },
    });
    expect(packed.statusCode, packed.body).toBeLessThan(300);
    const shipped = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${orderId}/status/`,
      headers: admin.headers,
      payload: { status: 'enviado', codigo_rastreio: 'AA123456785BR' },
    });
    expect(shipped.statusCode, shipped.body).toBeLessThan(300);
    // Another module (shipping tracking) tells the buyer about a delivery event.
    await t.app.db.transaction(async (tx) => {
      expect(await t.app.orders.whatsapp.notifyUpdate(orderId, 'saiu para entrega', tx)).toBe(true);
    });
    await drain('whatsapp.order-update');
    const updates = sent('pedido_atualizado').filter((m) => m.parameters[1] === String(orderId));
    // The payment confirmed, then each status change: all to the delivery phone, with the order's page.
    expect(updates.map((m) => m.parameters[2]).sort()).toEqual([
      'está sendo separado e embalado',
      'foi enviado pelos Correios, código de rastreio AA123456785BR',
      'pagamento confirmado',
      'saiu para entrega',
    ]);
    expect(updates[0]!.parameters[3]).toBe(`${t.env.publicUrl}/user/pedidos/${orderId}`);
  });
});
