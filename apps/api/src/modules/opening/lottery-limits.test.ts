import { type LotteryEntry, LotteryEntrySchema } from '@passada/core/contracts/lottery';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lotteryEntries, registrations, users } from '../../db/schema/index.ts';
import { readOutbox, waitForMail } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
let clock = T0;
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

type Account = { id: number; headers: Record<string, string>; email: string };

/**
 * A draw nobody can stuff (issue 39) and the opening's "inscrições por comprador" on the lottery: entries
 * per account, the entry's e-mail only to the account's own address, a squatted CPF that does not lock
 * its owner out and never gets two places, no answer telling whether a stranger entered a CPF, the
 * per-buyer limit on winners' payments, the entry route's rate limit per account, and the kit desk told
 * to check the CPF's photo ID.
 */
describe('the lottery’s limits', () => {
  let t: TestApp;
  let staff: TestStaff;
  let event: MadeEvent;
  let tenK: number;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { LOTTERY_ENTRY_RATE_LIMIT_PER_ACCOUNT: '4' } });
    staff = await createStaffAndLogin(t.app, 'admin');
    event = await makeEvent(t.app.db, {
      name: 'Corrida do Sorteio Limitado',
      days: [[{ name: '10 km', priceCents: 5000, placesLeft: 20 }]],
    });
    tenK = event.days[0]!.categories[0]!.id;
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${event.id}/abertura/`,
      headers: staff.headers,
      payload: {
        modo: 'sorteio',
        abre_em: at(10).toISOString(),
        pre_fila_minutos: 0,
        admitidos_por_minuto: null,
        minutos_da_vez: 15,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: 1,
        sorteio: {
          inscricoes_de: at(10).toISOString(),
          inscricoes_ate: at(60).toISOString(),
          vagas: 10,
          horas_para_pagar: 2,
        },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await t.app.opening.refresh();
    clock = at(10);
    expect((await staffPost('compromisso')).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const account = async (): Promise<Account> => {
    const user = await makeUser(t.app);
    const [row] = await t.app.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    return { ...user, email: row!.email };
  };
  const enter = (a: Account, cpf: string, overrides: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/events/${event.id}/sorteio/`,
      headers: a.headers,
      payload: {
        nome_completo: 'Pessoa Inscrita',
        cpf,
        data_nascimento: '1990-05-10',
        categoria: tenK,
        ...overrides,
      },
    });
  const staffPost = (path: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel/events/${event.id}/sorteio/${path}/`,
      headers: staff.headers,
    });
  const mine = async (a: Account): Promise<LotteryEntry[]> =>
    LotteryEntrySchema.array().parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/events/${event.id}/sorteio/minhas/`,
          headers: a.headers,
        })
      ).json(),
    );
  const entriesOf = (a: Account) =>
    t.app.db.select().from(lotteryEntries).where(eq(lotteryEntries.userId, a.id));
  const pay = (a: Account, cpf: string) =>
    registrationPix(
      t.app,
      participant(event, [tenK], { cpf, email: 'corredora@example.com' }),
      50,
      a.headers,
    );

  const stuffer = { account: undefined as unknown as Account };
  const owner = { account: undefined as unknown as Account, cpf: cpfFrom(737_100_000) };
  const friend = { account: undefined as unknown as Account, cpf: cpfFrom(737_100_001) };

  it('takes one entry per account under "1 inscrição por comprador"; the others are refused and not written', async () => {
    stuffer.account = await account();
    // The stuffer enters the owner's CPF first (a squatter), then tries invented people.
    expect((await enter(stuffer.account, owner.cpf)).statusCode).toBe(201);
    for (let i = 0; i < 3; i++) {
      const more = await enter(stuffer.account, cpfFrom(737_100_100 + i));
      expect(more.statusCode).toBe(409);
      expect(more.json().code).toBe('limite_por_comprador');
      expect(more.json().detail).toMatch(/limite por comprador/);
    }
    expect(await entriesOf(stuffer.account)).toHaveLength(1);
    // Attempts are limited per account too: the fifth in an hour is 429, whatever it carries.
    const limited = await enter(stuffer.account, cpfFrom(737_100_200));
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('lets the owner of a squatted CPF enter, answering as for any CPF, and mails only account addresses', async () => {
    owner.account = await account();
    const mineIn = await enter(owner.account, owner.cpf, { email: 'digitado@example.com' });
    expect(mineIn.statusCode, mineIn.body).toBe(201);
    // No oracle: a CPF someone else entered and one nobody entered get the same answer.
    friend.account = await account();
    const fresh = await enter(friend.account, friend.cpf);
    expect(fresh.statusCode).toBe(201);
    const shape = (r: { json(): Record<string, unknown> }) => Object.keys(r.json()).sort();
    expect(shape(mineIn)).toEqual(shape(fresh));
    expect(mineIn.json().estado).toBe(fresh.json().estado);
    // The same account entering the same CPF again is told so (its own entry, nobody else's).
    const again = await enter(owner.account, owner.cpf);
    expect(again.statusCode).toBe(409);
    expect(['cpf_ja_no_sorteio', 'limite_por_comprador']).toContain(again.json().code);

    await waitForMail(t.dataDir, owner.account.email, 'você está no sorteio');
    const [stored] = await entriesOf(owner.account);
    expect(stored!.email).toBe(owner.account.email);
    expect(readOutbox(t.dataDir).some((m) => m.toLowerCase().includes('to: digitado@example.com'))).toBe(
      false,
    );
  });

  it('never gives one CPF two places, and whoever entered it sees the place', async () => {
    clock = at(60);
    const drawn = await staffPost('sortear');
    expect(drawn.statusCode, drawn.body).toBe(200);
    const owned = await t.app.db
      .select()
      .from(lotteryEntries)
      .where(and(eq(lotteryEntries.eventId, event.id), eq(lotteryEntries.cpf, owner.cpf)));
    expect(owned).toHaveLength(2);
    // Ten places, three people: the owner's CPF drawn once, through one of its two entries.
    expect(owned.filter((e) => e.wonInDraw !== null)).toHaveLength(1);
    expect(drawn.json().sorteio).toMatchObject({ aguardando_pagamento: 2 });
    const [ownView] = await mine(owner.account);
    const [squatView] = await mine(stuffer.account);
    expect(ownView).toMatchObject({ estado: 'sorteado' });
    expect(squatView).toMatchObject({ estado: 'sorteado', pagar_ate: ownView!.pagar_ate });
    await waitForMail(t.dataDir, owner.account.email, 'foi sorteado');
  });

  it('lets the owner pay for the place, whichever entry was drawn, once', async () => {
    const paid = await pay(owner.account, owner.cpf);
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await simulatePixPaid(t.app, paid.json().txid)).statusCode).toBe(200);
    const squatter = await pay(stuffer.account, owner.cpf);
    expect(squatter.statusCode).toBe(409);
    expect(squatter.json().code).toBe('limite_por_cpf');
  });

  it('counts a winner’s payments against "inscrições por comprador"', async () => {
    // The owner's account already paid one; the friend's drawn place paid from it is one too many.
    const second = await pay(owner.account, friend.cpf);
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('limite_por_comprador');
    expect((await pay(friend.account, friend.cpf)).statusCode).toBe(201);
  });

  it('tells the kit desk to check a photo ID of the CPF of a lottery place', async () => {
    const [row] = await t.app.db
      .select({ id: registrations.id })
      .from(registrations)
      .where(and(eq(registrations.cpf, owner.cpf), isNull(registrations.cancelledAt)));
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/painel/checkin/preview/',
      headers: staff.headers,
      payload: { evento: event.id, inscricao: row!.id },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().confira_cpf).toBe(true);
  });
});
