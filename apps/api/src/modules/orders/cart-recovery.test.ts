import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { carts, products, recoveryOptOuts, recoveryReminders } from '../../db/schema/index.ts';
import { createUserAndToken, readOutbox } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createOrderPix, draftTotalCents, makeBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participant, registrationPix } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';
import { cartsToRemind } from './cart-recovery.read-model.ts';

const START = new Date('2026-11-30T12:00:00Z');

/** A folder's files in name order, none when it does not exist yet. */
const readdirSafe = (dir: string) => {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
};
const MINUTE = 60_000;

/**
 * The cart kept on the server and the reminders of carts and registrations left unpaid (decision
 * 0072), through HTTP and the job queue with the clock moved: one reminder after staff's delay, never
 * twice for the same cart, none after a purchase, none after an opt-out.
 */
describe('cart recovery', () => {
  const t = useClockedTestApp(START, { env: { PIX_EXPIRATION_SECONDS: '1800' } });
  const at = (minutes: number) => {
    t.clock = new Date(START.getTime() + minutes * MINUTE);
  };
  /** The sweep as the schedule runs it, and the e-mails it queued. */
  const sweep = async () => {
    await t.app.jobs.send('orders.cart-recovery', {});
    await untilJobsDone(t.app.db, 'orders.cart-recovery', 'mail.cart-recovery');
  };
  const remindersTo = (email: string, needle: string) =>
    readOutbox(t.dataDir).filter((m) => m.includes(`To: ${email}`) && m.includes(needle));
  const line = (p: MadeProduct, quantidade: number, stockIndex = 0) => ({
    produto: p.id,
    cor: p.stock[stockIndex]!.colorId,
    tamanho: p.stock[stockIndex]!.sizeId,
    quantidade,
  });
  const saveCart = (headers: Record<string, string>, itens: unknown[]) =>
    t.app.inject({ method: 'PUT', url: '/api/carrinho/', headers, payload: { itens } });

  it('keeps the cart on the server, rebuilt with today’s price and stock, and joins the browser’s on signing in', async () => {
    at(0);
    const user = await createUserAndToken(t.app);
    const shirt = await makeProduct(t.app.db, { name: 'Camiseta Jangada', priceCents: 8990 });
    const cap = await makeProduct(t.app.db, { name: 'Boné Maré', priceCents: 4990 });
    expect((await t.app.inject({ method: 'GET', url: '/api/carrinho/' })).statusCode).toBe(401);

    const saved = await saveCart(user.headers, [line(shirt, 1), line(shirt, 1)]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().itens).toEqual([
      expect.objectContaining({ id: shirt.id, name: 'Camiseta Jangada', price: 89.9, quantity: 2 }),
    ]);
    expect(saved.json().itens[0].disponivel).toBe(shirt.stock[0]!.quantity);

    // The phone's cart had the shirt once and a cap: the larger quantity stays, the cap joins.
    const merged = await t.app.inject({
      method: 'POST',
      url: '/api/carrinho/mesclar/',
      headers: user.headers,
      payload: { itens: [line(shirt, 1), line(cap, 3)] },
    });
    expect(merged.statusCode).toBe(200);
    const byId = new Map(
      merged.json().itens.map((l: { id: number; quantity: number }) => [l.id, l.quantity]),
    );
    expect(Object.fromEntries(byId)).toEqual({ [shirt.id]: 2, [cap.id]: 3 });
    const read = await t.app.inject({ method: 'GET', url: '/api/carrinho/', headers: user.headers });
    expect(read.json()).toMatchObject({ lembretes: true, itens: merged.json().itens });

    // A price the back office changes shows on the next read: the cart keeps lines, not prices.
    await t.app.db.update(products).set({ priceCents: 3990 }).where(eq(products.id, cap.id));
    const later = await t.app.inject({ method: 'GET', url: '/api/carrinho/', headers: user.headers });
    expect(later.json().itens.find((l: { id: number }) => l.id === cap.id).price).toBe(39.9);
  });

  it('refuses a cart past the cap and a line of zero units, keeping the cart as it was', async () => {
    at(0);
    const user = await createUserAndToken(t.app);
    const shirt = await makeProduct(t.app.db);
    expect((await saveCart(user.headers, [line(shirt, 1)])).statusCode).toBe(200);
    const zero = await saveCart(user.headers, [line(shirt, 0)]);
    expect(zero.statusCode).toBe(400);
    const many = Array.from({ length: t.env.SERVER_CART_MAX_LINES + 1 }, (_, i) => ({
      ...line(shirt, 1),
      produto: shirt.id + 10_000 + i,
    }));
    const full = await saveCart(user.headers, many);
    expect(full.statusCode).toBe(400);
    expect(full.json().code).toBe('carrinho_cheio');
    const read = await t.app.inject({ method: 'GET', url: '/api/carrinho/', headers: user.headers });
    expect(read.json().itens).toHaveLength(1);
  });

  it('reminds a cart once after the delay; none after a purchase or an opt-out', async () => {
    at(0);
    const shirt = await makeProduct(t.app.db, { name: 'Regata Caatinga', priceCents: 7990 });
    const left = await makeBuyer(t.app);
    const bought = await makeBuyer(t.app);
    const optedOut = await makeBuyer(t.app);
    for (const b of [left, bought, optedOut])
      expect((await saveCart(b.headers, [line(shirt, 1)])).statusCode).toBe(200);
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/carrinho/lembretes/',
      headers: optedOut.headers,
      payload: { ativos: false },
    });
    expect(off.statusCode).toBe(200);
    // The second buyer pays for the cart.
    const draft = orderDraft(bought, [{ product: shirt }]);
    const total = await draftTotalCents(t.app, bought.zipCode, draft, [shirt]);
    const pix = await createOrderPix(t.app, bought.headers, draft, total);
    expect(pix.statusCode).toBe(201);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    // What was bought left the kept cart, even if the browser never said so.
    const after = await t.app.inject({ method: 'GET', url: '/api/carrinho/', headers: bought.headers });
    expect(after.json().itens).toEqual([]);

    // Before staff's delay (an hour by default): nothing.
    at(59);
    await sweep();
    expect(remindersTo(left.email, 'seu carrinho está guardado')).toHaveLength(0);

    at(61);
    await sweep();
    const [mail, ...more] = remindersTo(left.email, 'seu carrinho está guardado');
    expect(more).toHaveLength(0);
    expect(mail).toContain('Regata Caatinga');
    expect(mail).toMatch(/R\$\s79,90/);
    expect(mail).toContain('/revisar-pedido');
    expect(remindersTo(bought.email, 'seu carrinho está guardado')).toHaveLength(0);
    // A reminded cart leaves the sweep's list (not only the unique key refusing it again), so carts
    // reminded earlier never crowd out new ones.
    const due = await cartsToRemind(t.app.db, t.clock, new Date(START.getTime() - 3_600_000));
    expect(due.map((c) => c.userId)).not.toContain(left.id);
    expect(remindersTo(optedOut.email, 'seu carrinho está guardado')).toHaveLength(0);

    // The same cart changed and left again is still the same cart: never a second reminder.
    expect((await saveCart(left.headers, [line(shirt, 2)])).statusCode).toBe(200);
    at(200);
    await sweep();
    expect(remindersTo(left.email, 'seu carrinho está guardado')).toHaveLength(1);

    // Emptied (bought elsewhere, or cleared) and filled again: a new cart, its own reminder.
    expect((await saveCart(left.headers, [])).statusCode).toBe(200);
    expect((await saveCart(left.headers, [line(shirt, 1)])).statusCode).toBe(200);
    at(270);
    await sweep();
    expect(remindersTo(left.email, 'seu carrinho está guardado')).toHaveLength(2);
  });

  it('also reminds by WhatsApp the accounts that asked for it, once; none without that opt-in, none after PARAR (decision 0084)', async () => {
    at(0);
    const shorts = await makeProduct(t.app.db, { name: 'Short Sertão', priceCents: 6990 });
    const [asked, mailOnly, stopped] = await Promise.all([
      makeBuyer(t.app),
      makeBuyer(t.app),
      makeBuyer(t.app),
    ]);
    const phones = { asked: '(85) 98123-4001', stopped: '(85) 98123-4003' };
    for (const b of [asked, mailOnly, stopped])
      expect((await saveCart(b.headers, [line(shorts, 1)])).statusCode).toBe(200);
    const optIn = (who: { headers: Record<string, string> }, telefone: string | null) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/carrinho/lembretes/whatsapp/',
        headers: who.headers,
        payload: { telefone },
      });
    // A bad number is refused in Portuguese; the account's own choice is then kept and shown.
    const bad = await optIn(asked, '123');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Digite um telefone válido com DDD.');
    expect((await optIn(asked, phones.asked)).json()).toEqual({ whatsapp: '(85) 98123-4001' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/carrinho/', headers: asked.headers })).json().whatsapp,
    ).toBe('(85) 98123-4001');
    expect((await optIn(stopped, phones.stopped)).statusCode).toBe(200);
    // The second number asked the shop to stop (as a "PARAR" would): the opt-out wins.
    const admin = await createStaffAndLogin(t.app, 'admin');
    const revoked = await t.app.inject({
      method: 'POST',
      url: '/api/painel/mensagens/descadastros/',
      headers: admin.headers,
      payload: { telefone: phones.stopped, motivo: 'Pediu por telefone' },
    });
    expect(revoked.statusCode, revoked.body).toBe(201);

    at(61);
    await t.app.jobs.send('orders.cart-recovery', {});
    await untilJobsDone(t.app.db, 'orders.cart-recovery', 'mail.cart-recovery', 'whatsapp.cart-recovery');
    const whatsapp = () =>
      readdirSafe(path.join(t.dataDir, 'outbox', 'whatsapp'))
        .map((f) => JSON.parse(readFileSync(path.join(t.dataDir, 'outbox', 'whatsapp', f), 'utf8')))
        .filter((m: { template: string }) => m.template === 'lembrete_carrinho') as Array<{
        to: string;
        text: string;
      }>;
    const sent = whatsapp();
    expect(sent.map((m) => m.to)).toEqual(['5585981234001']);
    expect(sent[0]!.text).toContain('1 × Short Sertão');
    expect(sent[0]!.text).toContain('/revisar-pedido');
    // Every one of them still got the e-mail.
    for (const b of [asked, mailOnly, stopped])
      expect(remindersTo(b.email, 'seu carrinho está guardado')).toHaveLength(1);

    // Never twice for the same cart; and withdrawing the opt-in stops the next one.
    at(200);
    await sweep();
    expect(whatsapp()).toHaveLength(1);
    // The opt-in is the person's data: in their download, with when they gave it.
    const own = await t.app.inject({
      method: 'GET',
      url: '/api/users/profile/dados/',
      headers: asked.headers,
    });
    expect(own.json().lembretes_por_whatsapp).toEqual({
      telefone: '85981234001',
      consentimento_em: new Date(START.getTime()).toISOString(),
    });
    expect((await optIn(asked, null)).json()).toEqual({ whatsapp: null });
  });

  it('reminds a registration whose Pix expired, once; not one paid afterwards', async () => {
    at(0);
    // The first lot ends today: the reminder says what the race costs today and after.
    const event = await makeEvent(t.app.db, {
      name: 'Corrida das Dunas',
      today: '2026-11-30',
      days: [
        [
          {
            name: '5 km',
            priceCents: 8990,
            lots: [{ name: '1º lote', priceCents: 6990, untilDate: '2026-11-30' }],
          },
        ],
      ],
    });
    const category = event.days[0]!.categories[0]!;
    const lapsed = await createUserAndToken(t.app);
    const retried = await createUserAndToken(t.app);
    const first = await registrationPix(t.app, participant(event, [category.id]), 69.9, lapsed.headers);
    expect(first.statusCode, first.body).toBe(201);
    const other = await registrationPix(
      t.app,
      participant(event, [category.id], { cpf: '529.982.247-25', email: 'outra@example.com' }),
      69.9,
      retried.headers,
    );
    expect(other.statusCode, other.body).toBe(201);
    at(31);
    for (const [pix, who] of [
      [first, lapsed],
      [other, retried],
    ] as const) {
      const status = await t.app.inject({
        method: 'GET',
        url: `/api/status-pix/${pix.json().txid}/`,
        headers: who.headers,
      });
      expect(status.json().status).toBe('EXPIRADA');
    }
    // The second runner tried again and paid.
    const again = await registrationPix(
      t.app,
      participant(event, [category.id], { cpf: '529.982.247-25', email: 'outra@example.com' }),
      69.9,
      retried.headers,
    );
    expect(again.statusCode).toBe(201);
    expect((await simulatePixPaid(t.app, again.json().txid)).statusCode).toBe(200);

    at(65);
    await sweep();
    at(130);
    await sweep();
    const mails = remindersTo(lapsed.email, 'não foi concluída');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Corrida das Dunas');
    expect(mails[0]).toContain(`/eventos/register/${event.id}`);
    expect(mails[0]).toMatch(/Hoje, 5 km custa R\$\s69,90 no 1º lote até 30\/11; depois, R\$\s89,90\./);
    expect(remindersTo(retried.email, 'não foi concluída')).toHaveLength(0);
  });

  it('lets staff turn the reminders off and change the delay, refusing a stale save', async () => {
    const staff = await createStaffAndLogin(t.app, 'admin');
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/painel/recuperacao/',
      headers: staff.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ ativa: true, atraso_minutos: 60 });
    expect(read.json().ultimos_30_dias.lembretes_carrinho).toBeGreaterThan(0);
    const body = { ativa: false, atraso_minutos: 120, lockVersion: read.json().lockVersion };
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/painel/recuperacao/',
      headers: staff.headers,
      payload: body,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ ativa: false, atraso_minutos: 120 });
    const stale = await t.app.inject({
      method: 'PUT',
      url: '/api/painel/recuperacao/',
      headers: staff.headers,
      payload: body,
    });
    expect(stale.statusCode).toBe(409);

    // Off: a cart left long ago gets nothing.
    const user = await makeBuyer(t.app);
    const shirt = await makeProduct(t.app.db);
    at(300);
    expect((await saveCart(user.headers, [line(shirt, 1)])).statusCode).toBe(200);
    at(600);
    await sweep();
    expect(remindersTo(user.email, 'seu carrinho está guardado')).toHaveLength(0);
  });

  it('forgets an erased account’s cart, reminders and choice', async () => {
    at(0);
    const user = await createUserAndToken(t.app);
    const shirt = await makeProduct(t.app.db);
    expect((await saveCart(user.headers, [line(shirt, 1)])).statusCode).toBe(200);
    const off = { ativos: false };
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/carrinho/lembretes/',
          headers: user.headers,
          payload: off,
        })
      ).statusCode,
    ).toBe(200);
    const erased = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/profile/',
      headers: user.headers,
      payload: { password: user.password },
    });
    expect(erased.statusCode, erased.body).toBeLessThan(300);
    for (const table of [carts, recoveryOptOuts, recoveryReminders]) {
      expect(await t.app.db.select().from(table).where(eq(table.userId, user.id))).toEqual([]);
    }
  });
});
