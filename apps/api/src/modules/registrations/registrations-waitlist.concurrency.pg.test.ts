import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { placeReservations, waitlistEntries } from '../../db/schema/index.ts';
import { eventFormBody, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';
import { waitlistToken } from './registration-waitlist.ts';

// Offers accepted, places freed and capacity raised by connections that really race: PostgreSQL only.
requirePostgres();

const TODAY = '2026-11-22';
type User = Awaited<ReturnType<typeof makeUser>>;

describe('the waitlist on PostgreSQL, concurrently', () => {
  let t: TestApp;
  let admin: TestStaff;
  let cpfSeq = 950_000_000;

  beforeAll(async () => {
    t = await createTestApp({
      now: () => new Date('2026-11-22T12:00:00Z'),
      // Forty joins from the test's one address.
      env: { WAITLIST_JOIN_RATE_LIMIT_PER_IP: '1000', PAYMENTS_RATE_LIMIT_PER_IP: '100000' },
    });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(() => t.close());

  const db = () => t.app.db;

  async function waitlistedEvent(capacity: number) {
    const event = await makeEvent(db(), {
      today: TODAY,
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: capacity }]],
    });
    const category = event.days[0]!.categories[0]!.id;
    const url = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...rules } = (
      await t.app.inject({ method: 'GET', url, headers: admin.headers })
    ).json();
    const saved = await t.app.inject({
      method: 'PUT',
      url,
      headers: admin.headers,
      payload: { ...rules, lista_espera_categorias: [category] },
    });
    expect(saved.statusCode).toBe(200);
    return { event, category };
  }

  /** A Pix charge for one runner of the category (the place is held when it is created). */
  function charge(event: MadeEvent, category: number, user: User, cpf: string, offer?: string) {
    return registrationPix(
      t.app,
      participant(event, [category], {
        cpf,
        email: `r${cpf}@example.com`,
        ...(offer ? { oferta_espera: offer } : {}),
      }),
      50,
      user.headers,
    );
  }

  /** Registers and pays one runner on their own account; answers the account and the registration. */
  async function paidRunner(event: MadeEvent, category: number) {
    const user = await makeUser(t.app);
    const created = await charge(event, category, user, cpfFrom(cpfSeq++));
    expect(created.statusCode).toBe(201);
    const paid = await simulatePixPaid(t.app, created.json().txid);
    expect(paid.statusCode).toBe(200);
    return { user, id: paid.json().inscricao_id as number };
  }

  async function join(event: MadeEvent, category: number) {
    const cpf = cpfFrom(cpfSeq++);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/events/${event.id}/lista-espera/`,
      payload: { categoria: category, nome_completo: 'Pessoa na Fila', cpf, email: `w${cpf}@example.com` },
    });
    expect(res.statusCode).toBe(201);
    return cpf;
  }

  const entries = (category: number) =>
    db().select().from(waitlistEntries).where(eq(waitlistEntries.categoryId, category));

  /** Places held by charges (paid or open) and not given back. */
  async function sold(category: number) {
    const [row] = await db()
      .select({ n: count() })
      .from(placeReservations)
      .where(and(eq(placeReservations.categoryId, category), isNull(placeReservations.releasedAt)));
    return row!.n;
  }

  const cancelByRunner = (user: User, id: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/inscricoes/${id}/cancelar/`,
      headers: user.headers,
      payload: { valor_devolvido: 50 },
    });

  /** Waits until the sweeps queued by the freed places have run: `offers` offers outstanding. */
  async function offersSettle(category: number, offers: number) {
    await vi.waitFor(
      async () => {
        await t.app.jobs.send('waitlist.sweep', {}, { singletonKey: 'waitlist' });
        const rows = await entries(category);
        expect(rows.filter((r) => r.status === 'oferta')).toHaveLength(offers);
      },
      { timeout: 30_000, interval: 500 },
    );
  }

  /** Every count agrees: the category's capacity holds, and each outstanding offer holds exactly one place. */
  async function invariants(category: number, capacity: number) {
    const left = await placesLeft(db(), category);
    const held = await sold(category);
    const offers = (await entries(category)).filter((r) => r.status === 'oferta').length;
    expect(left).toBeGreaterThanOrEqual(0);
    expect(held).toBeLessThanOrEqual(capacity);
    expect(left + held).toBe(capacity);
    // What the public could take is left − offers: never negative, so no offer is left without its place.
    expect(left - offers).toBeGreaterThanOrEqual(0);
    return { left, held, offers };
  }

  it('an offer accepted while staff raise the capacity: the holder gets the place, the new ones go down the line', async () => {
    const { event, category } = await waitlistedEvent(1);
    const first = await paidRunner(event, category);
    const [bia, caio, dora] = [
      await join(event, category),
      await join(event, category),
      await join(event, category),
    ];
    expect((await cancelByRunner(first.user, first.id)).statusCode).toBe(200);
    await offersSettle(category, 1);
    const offered = (await entries(category)).find((r) => r.status === 'oferta')!;
    expect(offered.cpf).toBe(bia);

    const staffEvent = (
      await t.app.inject({ method: 'GET', url: `/api/painel/events/${event.id}/`, headers: admin.headers })
    ).json();
    const body = eventFormBody(staffEvent);
    const raised = {
      ...body,
      dias_evento: body.dias_evento.map((d) => ({
        ...d,
        categorias: d.categorias.map((c) => ({ ...c, capacidade: 3 })),
      })),
    };
    const biaUser = await makeUser(t.app);
    const [accepted, saved] = await Promise.all([
      charge(event, category, biaUser, bia, waitlistToken(t.env.CHECKIN_TOKEN_SECRET, offered)),
      t.app.inject({
        method: 'PUT',
        url: `/api/painel/events/${event.id}/`,
        headers: admin.headers,
        payload: raised,
      }),
    ]);
    expect(accepted.statusCode).toBe(201);
    expect(saved.statusCode).toBe(200);
    expect((await simulatePixPaid(t.app, accepted.json().txid)).statusCode).toBe(200);

    // The two new places go to Caio and Dora; Bia is registered.
    await offersSettle(category, 2);
    const rows = await entries(category);
    expect(rows.find((r) => r.cpf === bia)!.status).toBe('inscrita');
    expect(
      rows
        .filter((r) => r.status === 'oferta')
        .map((r) => r.cpf)
        .sort(),
    ).toEqual([caio, dora].sort());
    expect(await invariants(category, 3)).toEqual({ left: 2, held: 1, offers: 2 });
  });

  it('20 runners cancelling while 20 waitlisted accept their offers: places never negative, never oversold, one place per offer', async () => {
    const capacity = 40;
    const { event, category } = await waitlistedEvent(capacity);
    const early: Array<{ user: User; id: number }> = [];
    const runners: Array<{ user: User; id: number }> = [];
    for (let i = 0; i < 20; i++) early.push(await paidRunner(event, category));
    for (let i = 0; i < 20; i++) runners.push(await paidRunner(event, category));
    const waiting: string[] = [];
    for (let i = 0; i < 40; i++) waiting.push(await join(event, category));

    // Twenty places freed first: the first twenty in line get an offer each.
    for (const r of early) expect((await cancelByRunner(r.user, r.id)).statusCode).toBe(200);
    await offersSettle(category, 20);
    const offers = (await entries(category)).filter((r) => r.status === 'oferta');
    expect(offers.map((r) => r.cpf).sort()).toEqual(waiting.slice(0, 20).sort());
    await invariants(category, capacity);

    // Now twenty more cancel while the twenty offered accept, all at once.
    const accepters = await Promise.all(offers.map(() => makeUser(t.app)));
    const results = await Promise.all([
      ...runners.map((r) => cancelByRunner(r.user, r.id)),
      ...offers.map((o, i) =>
        charge(event, category, accepters[i]!, o.cpf, waitlistToken(t.env.CHECKIN_TOKEN_SECRET, o)),
      ),
    ]);
    expect(results.slice(0, 20).map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(results.slice(20).map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    await invariants(category, capacity);
    for (const created of results.slice(20))
      expect((await simulatePixPaid(t.app, created.json().txid)).statusCode).toBe(200);

    // The twenty places the runners freed went to the next twenty in line, one each.
    await offersSettle(category, 20);
    const rows = await entries(category);
    expect(
      rows
        .filter((r) => r.status === 'inscrita')
        .map((r) => r.cpf)
        .sort(),
    ).toEqual(waiting.slice(0, 20).sort());
    expect(
      rows
        .filter((r) => r.status === 'oferta')
        .map((r) => r.cpf)
        .sort(),
    ).toEqual(waiting.slice(20).sort());
    expect(await invariants(category, capacity)).toEqual({ left: 20, held: 20, offers: 20 });
    // Nobody outside the line can take one of them.
    const stranger = await charge(event, category, await makeUser(t.app), cpfFrom(cpfSeq++));
    expect(stranger.statusCode).toBe(409);
    expect(
      (
        await db()
          .select({ n: count() })
          .from(waitlistEntries)
          .where(and(eq(waitlistEntries.categoryId, category), inArray(waitlistEntries.status, ['aceita'])))
      )[0]!.n,
    ).toBe(0);
  });
});
