import type { PainelEvent } from '@passada/core/contracts/painel';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCategories, eventKitSizes, events } from '../../db/schema/index.ts';
import { eventFormBody as formBody, type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const TODAY = '2026-11-24';

describe('painel: editing an event while it sells (versions and capacity)', () => {
  let t: TestApp;
  let admin: TestStaff;
  let other: TestStaff;
  let cpfSeq = 640_000_000;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-24T13:00:00Z') });
    admin = await createStaffAndLogin(t.app, 'admin');
    other = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(() => t.close());

  const read = async (id: number) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/painel/events/${id}/`, headers: admin.headers })
    ).json() as PainelEvent;
  const save = (who: TestStaff, id: number, body: object) =>
    t.app.inject({ method: 'PUT', url: `/api/painel/events/${id}/`, headers: who.headers, payload: body });
  const stored = async (e: MadeEvent) => ({
    places: (
      await t.app.db
        .select()
        .from(eventCategories)
        .where(eq(eventCategories.id, e.days[0]!.categories[0]!.id))
    )[0]!.placesLeft,
    shirts: (await t.app.db.select().from(eventKitSizes).where(eq(eventKitSizes.eventId, e.id)))[0]!.left,
    event: (await t.app.db.select().from(events).where(eq(events.id, e.id)))[0]!,
  });

  /** A race with 195 places in its one category and 144 shirts of size M. */
  const race = () =>
    makeEvent(t.app.db, {
      today: TODAY,
      days: [[{ name: '10 km', priceCents: 3990, placesLeft: 195 }]],
      kitSizes: [{ size: 'M', left: 144 }],
    });

  async function paidRunner(e: MadeEvent) {
    const user = await makeUser(t.app);
    const draft = participant(e, [e.days[0]!.categories[0]!.id], { cpf: cpfFrom(cpfSeq++) });
    const pix = await registrationPix(t.app, draft, 39.9, user.headers);
    expect(pix.statusCode).toBe(201);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
  }

  it('a form opened before two sales, saved after them, does not give the sold places and shirts back', async () => {
    const e = await race();
    const opened = await read(e.id);
    expect(opened.dias_evento[0]!.categorias[0]).toMatchObject({
      capacidade: 195,
      vendidas: 0,
      restantes: 195,
    });
    expect(opened.kit_tamanhos[0]).toMatchObject({ capacidade: 144, vendidas: 0, restantes: 144 });

    await paidRunner(e);
    await paidRunner(e);
    expect(await stored(e)).toMatchObject({ places: 193, shirts: 142 });
    // Sales are not edits: the version the form holds is still current.
    expect((await read(e.id)).versao).toBe(opened.versao);

    const res = await save(admin, e.id, { ...formBody(opened), descricao_evento: 'Largada na Beira-Mar.' });
    expect(res.statusCode).toBe(200);
    // Before: the stale form wrote 195 and 144 back over 193 and 142.
    expect(await stored(e)).toMatchObject({
      places: 193,
      shirts: 142,
      event: { description: 'Largada na Beira-Mar.' },
    });
    const saved = res.json() as PainelEvent;
    expect(saved.versao).toBe(opened.versao + 1);
    expect(saved.dias_evento[0]!.categorias[0]).toMatchObject({
      capacidade: 195,
      vendidas: 2,
      restantes: 193,
    });
    expect(saved.kit_tamanhos[0]).toMatchObject({ capacidade: 144, vendidas: 2, restantes: 142 });
  });

  it('a capacity change counts the sales made after the form was opened', async () => {
    const e = await race();
    const opened = await read(e.id);
    await paidRunner(e);
    await paidRunner(e);
    const body = formBody(opened);
    body.dias_evento[0]!.categorias[0]!.capacidade = 200;
    body.kit_tamanhos[0]!.capacidade = 150;
    const res = await save(admin, e.id, body);
    expect(res.statusCode).toBe(200);
    expect(await stored(e)).toMatchObject({ places: 198, shirts: 148 });
    const shop = (await t.app.inject({ method: 'GET', url: `/api/events/${e.id}/` })).json();
    expect(shop.dias_evento[0].categorias[0].quantidade_disponivel).toBe(198);
    expect(shop.kit.tamanhos[0].quantidade_disponivel).toBe(148);
  });

  it('refuses a total below what is already sold, on its field, and writes nothing', async () => {
    const e = await race();
    await paidRunner(e);
    await paidRunner(e);
    const opened = await read(e.id);
    const body = formBody(opened);
    body.nome_evento = 'Nome que não deve ficar';
    body.dias_evento[0]!.categorias[0]!.capacidade = 1;
    const places = await save(admin, e.id, body);
    expect(places.statusCode).toBe(409);
    expect(places.json()).toMatchObject({
      code: 'capacidade_abaixo_do_vendido',
      detail: 'A categoria 10 km já tem 2 vendidas ou reservadas: o total não pode ser menor que isso.',
      errors: {
        'dias_evento.0.categorias.0.capacidade':
          'A categoria 10 km já tem 2 vendidas ou reservadas: o total não pode ser menor que isso.',
      },
    });
    body.dias_evento[0]!.categorias[0]!.capacidade = 2;
    body.kit_tamanhos[0]!.capacidade = 0;
    const shirts = await save(admin, e.id, body);
    expect(shirts.statusCode).toBe(409);
    expect(shirts.json().errors).toEqual({
      'kit_tamanhos.0.capacidade':
        'O tamanho M já tem 2 vendidas ou reservadas: o total não pode ser menor que isso.',
    });
    const after = await stored(e);
    expect(after).toMatchObject({ places: 193, shirts: 142 });
    expect(after.event.name).not.toBe('Nome que não deve ficar');
    expect(after.event.version).toBe(opened.versao);
    // Exactly what is sold is allowed: nothing left, nothing given back.
    body.kit_tamanhos[0]!.capacidade = 2;
    expect((await save(admin, e.id, body)).statusCode).toBe(200);
    expect(await stored(e)).toMatchObject({ places: 0, shirts: 0 });
  });

  it('refuses (409) a save from a form opened before another person saved, and writes nothing', async () => {
    const e = await race();
    const mine = await read(e.id);
    const theirs = await read(e.id);
    const first = await save(other, e.id, { ...formBody(theirs), nome_evento: 'Corrida da Outra Pessoa' });
    expect(first.statusCode).toBe(200);

    const body = formBody(mine);
    body.nome_evento = 'Corrida Minha';
    body.dias_evento[0]!.categorias[0]!.capacidade = 300;
    const stale = await save(admin, e.id, body);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      code: 'versao_desatualizada',
      detail:
        'Este evento foi alterado por outra pessoa depois que você abriu o formulário. Recarregue a página para ver a versão atual; suas alterações não foram salvas.',
    });
    const after = await stored(e);
    expect(after.event).toMatchObject({ name: 'Corrida da Outra Pessoa', version: mine.versao + 1 });
    expect(after.places).toBe(195);

    // Reloaded, the same change goes through.
    const reloaded = formBody(await read(e.id));
    reloaded.dias_evento[0]!.categorias[0]!.capacidade = 300;
    expect((await save(admin, e.id, reloaded)).statusCode).toBe(200);
    expect((await stored(e)).places).toBe(300);

    const { versao: _v, ...withoutVersion } = reloaded;
    const missing = await save(admin, e.id, withoutVersion);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.versao).toBe(
      'Recarregue a página: falta a versão do registro que você abriu.',
    );
  });
});
