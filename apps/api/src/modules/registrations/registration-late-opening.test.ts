import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, registrations, users } from '../../db/schema/index.ts';
import { readOutbox } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { refundMail, standingRegistrations, waitingRoomEvent } from '../../test/factories/opening.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { chargeByTxid, makeUser, removalRacingAPayment } from '../../test/factories/payments.ts';
import {
  cpfFrom,
  participant,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;
const T0 = new Date('2026-12-02T15:00:00Z');
const APPROVED_CARD = '4111111111111111';
/** The Pix's deadline: five minutes, well inside the waiting room's 30-minute turn. */
const PIX_SECONDS = 300;
const SECRET = 'segredo-pix-tardio';
let clock = new Date(T0.getTime() - 5 * MINUTE);

type User = { id: number; email: string; headers: Record<string, string> };

/**
 * A Pix paid after its deadline on an event with an opening (docs/decisions/0060, later): its places
 * went back when it expired, so the CPF's or the account's limit may have been used by another payment
 * meanwhile. The late payment runs the opening's gate again; over a limit it is returned in full, with
 * its refund record and the payer's e-mail naming the limit, and no registration is created.
 */
describe('a late Pix on an event with a waiting room runs its limits', () => {
  let t: TestApp;
  let admin: TestStaff;
  let seq = 736_500_000;

  beforeAll(async () => {
    t = await createTestApp({
      now: () => clock,
      env: {
        PIX_EXPIRATION_SECONDS: String(PIX_SECONDS),
        EFI_WEBHOOK_SECRET: SECRET,
        EFI_WEBHOOK_ALLOWED_IPS: '*',
      },
    });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(() => t.close());

  const sim = () => t.app.providers.payments.simulator!;
  const newUser = async (): Promise<User> => {
    const u = await makeUser(t.app);
    return { ...u, email: `conta.${u.id}@example.com` };
  };

  /** An event (5 km, 10 km) whose waiting room admits `buyers` at once, with its limits. */
  function openedEvent(name: string, buyers: User[], perBuyer: number, perCpf: number) {
    return waitingRoomEvent(t.app, admin, {
      name,
      opensAt: T0,
      setClock: (at) => {
        clock = at;
      },
      categories: [
        { name: '5 km', priceCents: 5000 },
        { name: '10 km', priceCents: 8000 },
      ],
      buyers,
      perBuyer,
      perCpf,
      transferFee: 10,
    });
  }

  type Cat = 0 | 1;
  const PRICE = [50, 80];
  const draftFor = (event: MadeEvent, cat: Cat, cpf: string, email = `tardio.${seq++}@example.com`) =>
    participant(event, [event.days[0]!.categories[cat]!.id], { cpf, email });

  async function buy(event: MadeEvent, who: User, cat: Cat, cpf: string) {
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: draftFor(event, cat, cpf),
      total: PRICE[cat]!,
      user: who,
      key: randomUUID(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return paid.json().inscricao_id as number;
  }

  /**
   * The Pix's deadline passes: our expiry asks the provider to remove it and is told it was, yet the
   * payer's bank still takes the payment later (a removal racing a payment). Its places go back now.
   */
  async function expire(txid: string) {
    await removalRacingAPayment(t.app, () => {
      clock = new Date(clock.getTime() + (PIX_SECONDS + 60) * 1000);
      return t.app.payments.reconcileAll();
    });
    expect((await chargeByTxid(t.app, txid))!.status).toBe('EXPIRADA');
  }

  /** The late payment lands and the bank's webhook tells us: settled on the one reconciliation path. */
  async function payLate(txid: string, who: User) {
    expect(sim().payPix(txid, clock, { afterExpiry: true })).not.toBeNull();
    const hook = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/pix/pix?hmac=${SECRET}&ignorar=`,
      payload: { pix: [{ endToEndId: `E${txid}`, txid }] },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const polled = await t.app.inject({
      method: 'GET',
      url: `/api/status-pix/${txid}/`,
      headers: who.headers,
    });
    expect(polled.statusCode, polled.body).toBe(200);
    return polled.json();
  }

  /** The whole payment returned: refund row, the provider's devolução, the payer's e-mail naming why. */
  async function expectReturned(txid: string, cents: number, payerEmail: string, reason: RegExp) {
    const charge = (await chargeByTxid(t.app, txid))!;
    expect(charge.status).toBe('DEVOLVIDA');
    expect(charge.reason).toMatch(reason);
    const rows = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge.id));
    expect(rows).toEqual([expect.objectContaining({ amountCents: cents })]);
    expect(
      sim()
        .refunds()
        .filter((r) => r.endToEndId === charge.endToEndId),
    ).toEqual([expect.objectContaining({ amountCents: cents })]);
    expect(await refundMail(t.dataDir, payerEmail)).toMatch(reason);
  }

  const standing = (eventId: number, where: { cpf?: string; userId?: number }) =>
    standingRegistrations(t.app.db, eventId, where);

  it('per CPF: the first Pix expires, the runner buys again and pays, then pays the first late: returned', async () => {
    const buyer = await newUser();
    const event = await openedEvent('Corrida do Pix Tardio por CPF', [buyer], 2, 1);
    const cpf = cpfFrom(seq++);
    const email = `runner.${seq++}@example.com`;
    const pix = await registrationPix(t.app, draftFor(event, 0, cpf, email), PRICE[0]!, buyer.headers);
    expect(pix.statusCode, pix.body).toBe(201);
    const txid = pix.json().txid as string;
    await expire(txid);
    // The places went back with the Pix: the same CPF in the 10 km passes its one registration.
    await buy(event, buyer, 1, cpf);

    expect((await payLate(txid, buyer)).status).toBe('DEVOLVIDA');
    await expectReturned(txid, 5000, email, /Este CPF já tem uma inscrição/);
    expect(await standing(event.id, { cpf })).toHaveLength(1);
  });

  it('per buyer: the account bought its one registration meanwhile; its late Pix for another CPF is returned', async () => {
    const buyer = await newUser();
    const event = await openedEvent('Corrida do Pix Tardio por Comprador', [buyer], 1, 1);
    const email = `runner.${seq++}@example.com`;
    const pix = await registrationPix(
      t.app,
      draftFor(event, 1, cpfFrom(seq++), email),
      PRICE[1]!,
      buyer.headers,
    );
    expect(pix.statusCode, pix.body).toBe(201);
    const txid = pix.json().txid as string;
    await expire(txid);
    await buy(event, buyer, 0, cpfFrom(seq++));

    expect((await payLate(txid, buyer)).status).toBe('DEVOLVIDA');
    await expectReturned(txid, 8000, email, /Esta conta já fez 1 inscrição/);
    expect(await standing(event.id, { userId: buyer.id })).toHaveLength(1);
  });

  it('a cart: its Pix for two expires, the account buys one, then the cart paid late would pass its two: returned', async () => {
    const buyer = await newUser();
    const event = await openedEvent('Corrida do Carrinho Tardio', [buyer], 2, 1);
    const pix = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: {
        total: 2 * PRICE[0]!,
        finalidade: 'pedido',
        pedido: {
          metodo_pagamento: 'pix',
          inscricoes: [draftFor(event, 0, cpfFrom(seq++)), draftFor(event, 0, cpfFrom(seq++))],
        },
      },
    });
    expect(pix.statusCode, pix.body).toBe(201);
    const txid = pix.json().txid as string;
    await expire(txid);
    await buy(event, buyer, 1, cpfFrom(seq++));

    expect((await payLate(txid, buyer)).status).toBe('DEVOLVIDA');
    const [account] = await t.app.db.select().from(users).where(eq(users.id, buyer.id));
    await expectReturned(txid, 10_000, account!.email, /Esta conta já fez 2 inscrições/);
    expect(await standing(event.id, { userId: buyer.id })).toHaveLength(1);
  });

  it('a transfer: its Pix expires, the new runner’s CPF is sold a place, then the late Pix is returned', async () => {
    const owner = await newUser();
    const other = await newUser();
    const event = await openedEvent('Corrida da Transferência Tardia', [owner, other], 2, 1);
    const handed = await buy(event, owner, 0, cpfFrom(seq++));
    const to = { nome_completo: 'Nina Nova', cpf: cpfFrom(seq++), email: `nova.${seq++}@example.com` };
    const asked = await t.app.inject({
      method: 'POST',
      url: `/api/inscricoes/${handed}/transferir/`,
      headers: owner.headers,
      payload: to,
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const token = readOutbox(t.dataDir)
      .filter((m) => m.includes(to.email))
      .at(-1)
      ?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    const friend = await newUser();
    const pix = await registrationPix(
      t.app,
      {
        ...participant(event, [event.days[0]!.categories[0]!.id], { ...to, data_nascimento: '1992-03-04' }),
        transferencia: token,
      },
      10,
      friend.headers,
    );
    expect(pix.statusCode, pix.body).toBe(201);
    const txid = pix.json().txid as string;
    await expire(txid);
    // The transfer's Pix no longer counts for her CPF: another account buys her the 10 km.
    await buy(event, other, 1, to.cpf);

    expect((await payLate(txid, friend)).status).toBe('DEVOLVIDA');
    await expectReturned(txid, 1000, to.email, /Este CPF já tem uma inscrição/);
    expect(await standing(event.id, { cpf: to.cpf })).toHaveLength(1);
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.id, handed));
    expect(row!.cpf).not.toBe(to.cpf);
  });
});
