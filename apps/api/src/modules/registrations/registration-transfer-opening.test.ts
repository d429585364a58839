import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrations } from '../../db/schema/index.ts';
import { SIMULATED_PENDING_CARD } from '../../providers/payments/simulado.provider.ts';
import { readOutbox } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { waitingRoomEvent } from '../../test/factories/opening.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import {
  chargeByTxid,
  makeUser,
  removalRacingAPayment,
  simulatePixPaid,
} from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 30 * MINUTE);
const APPROVED_CARD = '4111111111111111';
let clock = new Date(T0.getTime() - 5 * MINUTE);

type User = { id: number; email: string; headers: Record<string, string> };

/**
 * A transfer on an event with a waiting room (docs/decisions/0060): no turn is asked of the new runner,
 * but the opening's registrations per CPF and per buyer count her and the paying account like a new
 * sale (a transfer let a CPF or an account past the limits a purchase could not pass).
 */
describe('a transfer on an event with a waiting room runs its limits', () => {
  let t: TestApp;
  let admin: TestStaff;
  let seq = 736_400_000;

  beforeAll(async () => {
    // A Pix lasts five minutes: one can expire within a turn of the waiting room.
    t = await createTestApp({
      now: () => clock,
      env: { JOBS_ENABLED: 'false', PIX_EXPIRATION_SECONDS: '300' },
    });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  const newUser = async (): Promise<User> => {
    const u = await makeUser(t.app);
    return { ...u, email: `conta.${u.id}@example.com` };
  };
  afterAll(() => t.close());

  /**
   * An event (5 km, 10 km, 21 km) whose waiting room admits at once, `perCpf` registrations per CPF and
   * `perBuyer` per buyer (one each unless told).
   */
  function openedEvent(name: string, buyers: User[], perBuyer = 1, perCpf = 1) {
    return waitingRoomEvent(t.app, admin, {
      name,
      opensAt: T0,
      setClock: (at) => {
        clock = at;
      },
      categories: [
        { name: '5 km', priceCents: 5000 },
        { name: '10 km', priceCents: 8000 },
        { name: '21 km', priceCents: 12000 },
      ],
      buyers,
      perBuyer,
      perCpf,
      transferFee: 10,
    });
  }

  type Cat = 0 | 1 | 2;
  const PRICE = [50, 80, 120];

  const runner = (event: MadeEvent, cat: Cat, cpf = cpfFrom(seq++)) => ({
    draft: participant(event, [event.days[0]!.categories[cat]!.id], {
      cpf,
      email: `fila.transf.${seq++}@example.com`,
    }),
    cpf,
  });

  /** A registration of `cat` for `cpf` (a new one unless told), bought by `who` with a card. */
  function purchase(event: MadeEvent, who: User, cat: Cat, cpf?: string) {
    return registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: runner(event, cat, cpf).draft,
      total: PRICE[cat]!,
      user: who,
      key: randomUUID(),
    });
  }

  async function buy(event: MadeEvent, who: User, cat: Cat, cpf?: string) {
    const r = runner(event, cat, cpf);
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: r.draft,
      total: PRICE[cat]!,
      user: who,
      key: randomUUID(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return { id: paid.json().inscricao_id as number, cpf: r.cpf };
  }

  async function ask(id: number, owner: User, cpf: string) {
    const to = { nome_completo: 'Nina Nova', cpf, email: `nova.${seq++}@example.com` };
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/inscricoes/${id}/transferir/`,
      headers: owner.headers,
      payload: to,
    });
    const token = readOutbox(t.dataDir)
      .filter((m) => m.includes(to.email))
      .at(-1)
      ?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    return { res, to, token };
  }

  it('refuses a CPF that already holds the one registration its CPF may have, at the request', async () => {
    const first = await newUser();
    const second = await newUser();
    const event = await openedEvent('Corrida da Fila Transferida por CPF', [first, second]);
    const five = await buy(event, first, 0);
    const ten = await buy(event, second, 1);

    // The 10 km runner's CPF is not in the 5 km, but the opening allows one registration per CPF.
    const { res } = await ask(five.id, first, ten.cpf);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'limite_por_cpf' });
    expect(res.json().detail).toMatch(/Este CPF já tem uma inscrição/);
  });

  it('refuses an account paying past its one registration; another account, never in the line, completes it', async () => {
    const first = await newUser();
    const second = await newUser();
    const event = await openedEvent('Corrida da Fila Transferida por Comprador', [first, second]);
    const mine = await buy(event, first, 0);
    await buy(event, second, 1);

    const { res, to, token } = await ask(mine.id, first, cpfFrom(seq++));
    expect(res.statusCode, res.body).toBe(201);
    const draft = {
      ...participant(event, [event.days[0]!.categories[0]!.id], { ...to, data_nascimento: '1992-03-04' }),
      transferencia: token,
    };
    // The second account already bought its one registration of this event.
    const over = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: 10,
      user: second,
      key: randomUUID(),
    });
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json()).toMatchObject({ code: 'limite_por_comprador' });
    // A new account needs no turn of the waiting room: the place was sold already.
    const fresh = await newUser();
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: 10,
      user: fresh,
      key: randomUUID(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ inscricao_id: mine.id });
  });

  it('a transfer the account is still paying counts against its registrations per buyer', async () => {
    const first = await newUser();
    const second = await newUser();
    const event = await openedEvent('Corrida da Fila com Transferência em Pagamento', [first, second], 2);
    const mine = await buy(event, first, 0);
    // The second account holds one registration: one short of its two.
    await buy(event, second, 1);

    // It pays for a transfer of the first's registration with a card the provider is still analysing:
    // the charge is open and holds no place.
    const { res, to, token } = await ask(mine.id, first, cpfFrom(seq++));
    expect(res.statusCode, res.body).toBe(201);
    const pending = await registrationCard(t.app, {
      number: SIMULATED_PENDING_CARD,
      draft: {
        ...participant(event, [event.days[0]!.categories[0]!.id], { ...to, data_nascimento: '1992-03-04' }),
        transferencia: token,
      },
      total: 10,
      user: second,
      key: randomUUID(),
    });
    expect(pending.statusCode, pending.body).toBe(202);
    expect(await chargeByTxid(t.app, pending.json().txid)).toMatchObject({ status: 'EM_ANALISE' });

    // Paid, the transfer makes it two: a new registration now would make it three.
    const over = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: runner(event, 1).draft,
      total: 80,
      user: second,
      key: randomUUID(),
    });
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json()).toMatchObject({ code: 'limite_por_comprador' });
    // The account handing its place on is not counted for the transfer: it may still buy its second.
    await buy(event, first, 1);
  });

  /** A transfer of `id` to `cpf` paid by `payer` with a card the provider is still analysing. */
  async function transferBeingPaid(
    event: MadeEvent,
    id: number,
    cat: Cat,
    owner: User,
    payer: User,
    cpf: string,
  ) {
    const { res, to, token } = await ask(id, owner, cpf);
    expect(res.statusCode, res.body).toBe(201);
    const draft = {
      ...participant(event, [event.days[0]!.categories[cat]!.id], { ...to, data_nascimento: '1992-03-04' }),
      transferencia: token,
    };
    const pending = await registrationCard(t.app, {
      number: SIMULATED_PENDING_CARD,
      draft,
      total: 10,
      user: payer,
      key: randomUUID(),
    });
    expect(pending.statusCode, pending.body).toBe(202);
    expect(await chargeByTxid(t.app, pending.json().txid)).toMatchObject({ status: 'EM_ANALISE' });
    return { draft, txid: pending.json().txid as string };
  }

  it('a transfer being paid to a CPF counts against its registrations: no purchase, no other transfer to it', async () => {
    const first = await newUser();
    const second = await newUser();
    const payer = await newUser();
    const event = await openedEvent(
      'Corrida da Fila com Transferência por CPF em Pagamento',
      [first, second, payer],
      2,
    );
    const five = await buy(event, first, 0);
    const ten = await buy(event, second, 1);

    // The 5 km goes to a new CPF, whose payment is still being analysed: paid, the CPF holds its one.
    const cpf = cpfFrom(seq++);
    const { draft } = await transferBeingPaid(event, five.id, 0, first, payer, cpf);

    // A purchase for that CPF in another distance would make it two.
    const bought = await purchase(event, payer, 2, cpf);
    expect(bought.statusCode, bought.body).toBe(409);
    expect(bought.json()).toMatchObject({ code: 'limite_por_cpf' });
    expect(bought.json().detail).toMatch(/Este CPF já tem uma inscrição \(pagas ou em pagamento\)/);
    // And so would another registration handed to it.
    const other = await ask(ten.id, second, cpf);
    expect(other.res.statusCode, other.res.body).toBe(409);
    expect(other.res.json()).toMatchObject({ code: 'limite_por_cpf' });

    // The same invitation is the same handover, counted once: another account may still pay it.
    const fresh = await newUser();
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: 10,
      user: fresh,
      key: randomUUID(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ inscricao_id: five.id });
  });

  it('a CPF bought for, with a transfer to it being paid, holds its two registrations: no third by either path', async () => {
    const first = await newUser();
    const second = await newUser();
    const payer = await newUser();
    const event = await openedEvent(
      'Corrida da Fila com Compra e Transferência por CPF',
      [first, second, payer],
      3,
      2,
    );
    // The CPF's own purchase first: one of its two.
    const cpf = cpfFrom(seq++);
    await buy(event, first, 0, cpf);
    const ten = await buy(event, second, 1);
    const long = await buy(event, second, 2);

    // The 10 km handed to it, still being paid: its second.
    await transferBeingPaid(event, ten.id, 1, second, payer, cpf);

    // A third registration, handed over or bought, is past the opening's two per CPF.
    const other = await ask(long.id, second, cpf);
    expect(other.res.statusCode, other.res.body).toBe(409);
    expect(other.res.json()).toMatchObject({ code: 'limite_por_cpf' });
    expect(other.res.json().detail).toMatch(/Este CPF já tem 2 inscrições/);
    const bought = await purchase(event, payer, 2, cpf);
    expect(bought.statusCode, bought.body).toBe(409);
    expect(bought.json()).toMatchObject({ code: 'limite_por_cpf' });
  });
  it('a transfer Pix paid after its expiry, the CPF meanwhile sold another distance: returned whole, saying why', async () => {
    const first = await newUser();
    const payer = await newUser();
    const other = await newUser();
    const event = await openedEvent('Corrida da Fila com Transferência Paga Tarde', [first, payer, other]);
    const five = await buy(event, first, 0);
    const cpf = cpfFrom(seq++);
    const { res, to, token } = await ask(five.id, first, cpf);
    expect(res.statusCode, res.body).toBe(201);
    const pix = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: payer.headers,
      payload: {
        total: 10,
        finalidade: 'inscricao',
        inscricao: {
          ...participant(event, [event.days[0]!.categories[0]!.id], { ...to, data_nascimento: '1992-03-04' }),
          transferencia: token,
        },
      },
    });
    expect(pix.statusCode, pix.body).toBe(201);
    const { txid, expira_em } = pix.json() as { txid: string; expira_em: string };

    // The Pix's deadline passes while the payer's bank takes it anyway: our removal is answered as
    // done, the charge ends, and the CPF is free again, so another account buys it the 10 km.
    await removalRacingAPayment(t.app, () => {
      clock = new Date(new Date(expira_em).getTime() + MINUTE);
      return t.app.payments.reconcileAll();
    });
    expect(t.app.providers.payments.simulator!.payPix(txid, clock, { afterExpiry: true })).not.toBeNull();
    await buy(event, other, 1, cpf);

    // The late payment lands: the opening's one registration per CPF is taken, so it goes back whole.
    expect((await simulatePixPaid(t.app, txid)).statusCode).toBeLessThan(500);
    const charge = await chargeByTxid(t.app, txid);
    expect(charge).toMatchObject({ status: 'DEVOLVIDA' });
    expect(charge!.reason).toMatch(/Este CPF já tem uma inscrição/);
    expect(charge!.reason).not.toMatch(/vaga já estava ocupada/);
    // The 5 km stays with its runner; the CPF holds the one registration it bought.
    const held = await t.app.db
      .select({ id: registrations.id })
      .from(registrations)
      .where(and(eq(registrations.cpf, cpf), isNull(registrations.cancelledAt)));
    expect(held).toHaveLength(1);
    expect(held[0]!.id).not.toBe(five.id);
  });
});
