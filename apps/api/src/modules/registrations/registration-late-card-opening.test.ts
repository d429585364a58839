import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chargeRefunds } from '../../db/schema/index.ts';
import { SIMULATED_TIMEOUT_CARD } from '../../providers/payments/simulado.provider.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import {
  joinWaitingRoom,
  refundMail,
  standingRegistrations,
  waitingRoomEvent,
} from '../../test/factories/opening.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { chargeByTxid, makeUser } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = new Date('2026-12-02T15:00:00Z');
const APPROVED_CARD = '4111111111111111';
let clock = new Date(T0.getTime() - 5 * MINUTE);

type User = { id: number; email: string; headers: Record<string, string> };

/**
 * A card the bank approves after we gave it up, on an event with an opening (docs/decisions/0060,
 * later): its answer never came, so after a day it was ended and its places went back; meanwhile the
 * CPF's or the account's limit was used by another sale. The approval runs the opening's gate again
 * (the same `holdAgain` as a late Pix); over a limit all that was charged goes back, with its refund
 * record and the payer's e-mail naming the limit, and no registration is created.
 */
describe('a late card approval on an event with a waiting room runs its limits', () => {
  let t: TestApp;
  let admin: TestStaff;
  let seq = 736_600_000;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(() => t.close());

  const sim = () => t.app.providers.payments.simulator!;
  const newUser = async (): Promise<User> => {
    const u = await makeUser(t.app);
    return { ...u, email: `conta.${u.id}@example.com` };
  };

  const join = (eventId: number, buyer: User) => joinWaitingRoom(t.app, eventId, buyer);

  /** An event (5 km, 10 km) whose waiting room admits `buyer` at once, with its limits. */
  function openedEvent(name: string, buyer: User, perBuyer: number, perCpf: number) {
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
      buyers: [buyer],
      perBuyer,
      perCpf,
    });
  }

  type Cat = 0 | 1;
  const PRICE = [50, 80];
  const draftFor = (event: MadeEvent, cat: Cat, cpf: string, email = `cartao.${seq++}@example.com`) =>
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
   * The card's answer never arrives (the call times out): the charge waits in review holding its
   * places, and a day later we give it up; its places go back.
   */
  async function cardGivenUp(
    event: MadeEvent,
    who: User,
    cat: Cat,
    cpf: string,
    email: string,
    installments = 1,
  ) {
    const pending = await registrationCard(t.app, {
      number: SIMULATED_TIMEOUT_CARD,
      draft: draftFor(event, cat, cpf, email),
      total: PRICE[cat]!,
      user: who,
      key: randomUUID(),
      installments,
    });
    expect(pending.statusCode, pending.body).toBe(202);
    const txid = pending.json().txid as string;
    expect(await chargeByTxid(t.app, txid)).toMatchObject({ status: 'EM_ANALISE' });
    clock = new Date(clock.getTime() + 25 * HOUR);
    await t.app.payments.reconcileAll();
    expect(await chargeByTxid(t.app, txid)).toMatchObject({ status: 'FALHOU' });
    return txid;
  }

  /** The bank approves the card after all and its notification reaches us. */
  async function approveLate(txid: string) {
    const charge = (await chargeByTxid(t.app, txid))!;
    const atProvider = sim().findCardCharge(String(charge.id))!;
    const { notificationToken } = sim().settleCard(atProvider.chargeId, 'paid');
    const note = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/cartao/',
      payload: { notification: notificationToken },
    });
    expect(note.statusCode, note.body).toBe(200);
    return atProvider.chargeId;
  }

  /** All that was charged returned: refund row, the provider's refund, the payer's e-mail naming why. */
  async function expectReturned(txid: string, cardId: string, cents: number, email: string, reason: RegExp) {
    const charge = (await chargeByTxid(t.app, txid))!;
    expect(charge.status).toBe('DEVOLVIDA');
    expect(charge.reason).toMatch(reason);
    const rows = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge.id));
    expect(rows).toEqual([expect.objectContaining({ amountCents: cents })]);
    await vi.waitFor(
      () =>
        expect(
          sim()
            .refunds()
            .filter((r) => r.cardChargeId === cardId),
        ).toEqual([expect.objectContaining({ amountCents: cents })]),
      { timeout: 60_000, interval: 200 },
    );
    expect(await refundMail(t.dataDir, email)).toMatch(reason);
  }

  const standing = (eventId: number, where: { cpf?: string; userId?: number }) =>
    standingRegistrations(t.app.db, eventId, where);

  it('per CPF: the card is given up, the runner buys again and pays, then the bank approves the first: returned', async () => {
    const buyer = await newUser();
    const event = await openedEvent('Corrida do Cartão Tardio por CPF', buyer, 2, 1);
    const cpf = cpfFrom(seq++);
    const email = `runner.${seq++}@example.com`;
    const txid = await cardGivenUp(event, buyer, 0, cpf, email);
    // The places went back with the card: another account, in the waiting room a day later, buys the
    // same CPF the 10 km, its one registration.
    const other = await newUser();
    await join(event.id, other);
    await t.app.opening.refresh();
    await buy(event, other, 1, cpf);

    const cardId = await approveLate(txid);
    await expectReturned(txid, cardId, 5000, email, /Este CPF já tem uma inscrição/);
    expect(await standing(event.id, { cpf })).toHaveLength(1);
  });

  it('in instalments with interest: what goes back is all the bank charged, interest included', async () => {
    const buyer = await newUser();
    const event = await openedEvent('Corrida do Cartão Parcelado Tardio', buyer, 2, 1);
    const cpf = cpfFrom(seq++);
    const email = `runner.${seq++}@example.com`;
    const txid = await cardGivenUp(event, buyer, 1, cpf, email, 4);
    const other = await newUser();
    await join(event.id, other);
    await t.app.opening.refresh();
    await buy(event, other, 0, cpf);

    const cardId = await approveLate(txid);
    // What the bank itself says it charged: the 10 km's R$ 80,00 in 4× with the shop's interest.
    const charged = (await t.app.providers.payments.getCardCharge(cardId)).totalCents!;
    expect(charged).toBeGreaterThan(8000);
    await expectReturned(txid, cardId, charged, email, /Este CPF já tem uma inscrição/);
    expect(await standing(event.id, { cpf })).toHaveLength(1);
  });
});
