import type { PainelEvent } from '@passada/core/contracts/painel';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCategories, eventKitSizes, events, placeReservations } from '../../db/schema/index.ts';
import { eventFormBody, type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Saves and sales from connections that really race: PostgreSQL only (npm test provides one).
requirePostgres();

const TODAY = '2026-11-24';

describe('editing an event on PostgreSQL while others save and buy', () => {
  let t: TestApp;
  let ana: TestStaff;
  let bruno: TestStaff;
  let cpfSeq = 930_000_000;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-24T13:00:00Z') });
    ana = await createStaffAndLogin(t.app, 'admin');
    bruno = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(() => t.close());

  const race = () =>
    makeEvent(t.app.db, {
      today: TODAY,
      days: [[{ name: '10 km', priceCents: 3990, placesLeft: 195 }]],
      kitSizes: [{ size: 'M', left: 144 }],
    });
  const read = async (id: number) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/painel/events/${id}/`, headers: ana.headers })
    ).json() as PainelEvent;
  const save = (who: TestStaff, id: number, body: object) =>
    t.app.inject({ method: 'PUT', url: `/api/painel/events/${id}/`, headers: who.headers, payload: body });
  const stored = async (e: MadeEvent) => {
    const categoryId = e.days[0]!.categories[0]!.id;
    const [category] = await t.app.db
      .select()
      .from(eventCategories)
      .where(eq(eventCategories.id, categoryId));
    const held = await t.app.db
      .select()
      .from(placeReservations)
      .where(and(eq(placeReservations.categoryId, categoryId), isNull(placeReservations.releasedAt)));
    const [kit] = await t.app.db.select().from(eventKitSizes).where(eq(eventKitSizes.eventId, e.id));
    const [event] = await t.app.db.select().from(events).where(eq(events.id, e.id));
    return { places: category!.placesLeft, held: held.length, shirts: kit!.left, event: event! };
  };
  const runnerPix = async (e: MadeEvent) => {
    const user = await makeUser(t.app);
    const draft = participant(e, [e.days[0]!.categories[0]!.id], { cpf: cpfFrom(cpfSeq++) });
    return registrationPix(t.app, draft, 39.9, user.headers);
  };

  it('two saves of the same version at once: exactly one wins, the other is 409 and writes nothing', async () => {
    for (let round = 0; round < 6; round++) {
      const e = await race();
      const opened = await read(e.id);
      const mine = { ...eventFormBody(opened), nome_evento: `Corrida da Ana ${round}` };
      mine.dias_evento[0]!.categorias[0]!.capacidade = 210;
      const theirs = { ...eventFormBody(opened), nome_evento: `Corrida do Bruno ${round}` };
      theirs.dias_evento[0]!.categorias[0]!.capacidade = 180;
      theirs.kit_tamanhos[0]!.capacidade = 100;
      // Alternate who leaves first.
      const [a, b] =
        round % 2
          ? await Promise.all([save(ana, e.id, mine), save(bruno, e.id, theirs)])
          : (await Promise.all([save(bruno, e.id, theirs), save(ana, e.id, mine)])).reverse();
      expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
      const loser = a!.statusCode === 409 ? a! : b!;
      expect(loser.json().code).toBe('versao_desatualizada');
      const after = await stored(e);
      expect(after.event.version).toBe(opened.versao + 1);
      // All of the winner's form and nothing of the loser's.
      if (a!.statusCode === 200) {
        expect(after).toMatchObject({ places: 210, shirts: 144, event: { name: `Corrida da Ana ${round}` } });
      } else {
        expect(after).toMatchObject({
          places: 180,
          shirts: 100,
          event: { name: `Corrida do Bruno ${round}` },
        });
      }
    }
  });

  it('a sale between the form being opened and a stale save: places and shirts stay right', async () => {
    const e = await race();
    const opened = await read(e.id);
    for (let i = 0; i < 2; i++) {
      const pix = await runnerPix(e);
      expect(pix.statusCode).toBe(201);
      expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    }
    expect(await stored(e)).toMatchObject({ places: 193, shirts: 142 });
    const res = await save(ana, e.id, { ...eventFormBody(opened), hora_evento: '05:00' });
    expect(res.statusCode).toBe(200);
    expect(await stored(e)).toMatchObject({ places: 193, held: 2, shirts: 142, event: { time: '05:00' } });
  });

  it('a capacity change saved while sales run: what is left is always the total minus what is held', async () => {
    const e = await race();
    const opened = await read(e.id);
    const body = eventFormBody(opened);
    body.dias_evento[0]!.categorias[0]!.capacidade = 200;
    body.kit_tamanhos[0]!.capacidade = 150;
    const [sales, saved] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, () => runnerPix(e))),
      // Let a few sales start first, so the save lands among them.
      new Promise((r) => setTimeout(r, 30)).then(() => save(ana, e.id, body)),
    ]);
    expect(saved.statusCode).toBe(200);
    const sold = sales.filter((s) => s.statusCode === 201).length;
    expect(sold).toBe(12);
    const after = await stored(e);
    expect(after).toMatchObject({ places: 200 - 12, held: 12, shirts: 150 - 12 });
    expect((await read(e.id)).dias_evento[0]!.categorias[0]).toMatchObject({
      capacidade: 200,
      vendidas: 12,
      restantes: 188,
    });
  });
});
