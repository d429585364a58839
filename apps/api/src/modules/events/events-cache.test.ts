import { gunzipSync } from 'node:zlib';
import { type EventCategory, EventListSchema, EventSchema } from '@passada/core/contracts/events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { waitForMail } from '../../test/factories/accounts.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import {
  cpfFrom,
  participant,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * The event list and each event are kept serialized (answer-cache.ts); these prove a kept answer never
 * shows places, lots or prices older than the last committed sale, refusal or edit.
 */
describe('cached event answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const categoryIn = async (eventId: number, categoryId: number): Promise<EventCategory> => {
    const event = EventSchema.parse((await get(`/api/events/${eventId}/`)).json());
    return event.dias_evento.flatMap((d) => d.categorias).find((c) => c.id === categoryId)!;
  };
  const listedCategory = async (eventId: number, categoryId: number): Promise<EventCategory> => {
    const list = EventListSchema.parse((await get('/api/events/')).json());
    const event = list.find((e) => e.id === eventId)!;
    return event.dias_evento.flatMap((d) => d.categorias).find((c) => c.id === categoryId)!;
  };

  it('answers 304 to the current ETag and the same bytes gzip-compressed', async () => {
    const event = await makeEvent(t.app.db, { name: 'Corrida da Ponte Velha' });
    const first = await get(`/api/events/${event.id}/`);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect((await get(`/api/events/${event.id}/`, { 'if-none-match': etag })).statusCode).toBe(304);
    const gz = await get(`/api/events/${event.id}/`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(first.body);
    expect((await get('/api/events/999999/')).statusCode).toBe(404);
  });

  it('shows a place taken at once in the list and in the event, and a new event in the list', async () => {
    const event = await makeEvent(t.app.db, {
      name: 'Corrida do Farol',
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 3 }]],
    });
    const category = event.days[0]!.categories[0]!.id;
    // Both answers are kept now.
    expect((await categoryIn(event.id, category)).quantidade_disponivel).toBe(3);
    expect((await listedCategory(event.id, category)).quantidade_disponivel).toBe(3);
    const etag = (await get('/api/events/')).headers.etag as string;

    const buyer = await makeUser(t.app);
    const draft = participant(event, [category]);
    expect((await registrationPix(t.app, draft, 50, buyer.headers)).statusCode).toBe(201);
    expect((await categoryIn(event.id, category)).quantidade_disponivel).toBe(2);
    expect((await listedCategory(event.id, category)).quantidade_disponivel).toBe(2);
    expect((await get('/api/events/', { 'if-none-match': etag })).statusCode).toBe(200);

    // Made straight in the database: its change notification reaches the cache on its own time (on
    // PostgreSQL it arrives through LISTEN, after the insert's commit), so the list is read until it does.
    const added = await makeEvent(t.app.db, { name: 'Corrida Nova' });
    await vi.waitFor(
      async () => {
        const list = EventListSchema.parse((await get('/api/events/')).json());
        expect(list.some((e) => e.id === added.id)).toBe(true);
      },
      { timeout: 45_000, interval: 50 },
    );
  });

  it('gives a refused payment place back at once', async () => {
    const event = await makeEvent(t.app.db, {
      name: 'Corrida da Lagoa',
      days: [[{ name: '10 km', priceCents: 5000, placesLeft: 5 }]],
    });
    const category = event.days[0]!.categories[0]!.id;
    expect((await categoryIn(event.id, category)).quantidade_disponivel).toBe(5);
    const buyer = await makeUser(t.app);
    const refused = await registrationCard(t.app, {
      number: '4000000000000002',
      draft: participant(event, [category]),
      total: 50,
      user: { email: 'lagoa@example.com', headers: buyer.headers },
      key: 'recusado-lagoa',
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect((await categoryIn(event.id, category)).quantidade_disponivel).toBe(5);
  });

  it('turns the lot and its price the moment its last place is taken', async () => {
    const event = await makeEvent(t.app.db, {
      name: 'Corrida dos Lotes',
      days: [
        [
          {
            name: '21 km',
            priceCents: 12000,
            placesLeft: 50,
            lots: [{ name: '1º lote', priceCents: 8000, untilCount: 1 }],
          },
        ],
      ],
    });
    const category = event.days[0]!.categories[0]!.id;
    const before = await categoryIn(event.id, category);
    expect(before.lote_atual?.nome).toBe('1º lote');
    expect(before.preco_inscricao).toBe(80);
    expect((await listedCategory(event.id, category)).preco_inscricao).toBe(80);

    const buyer = await makeUser(t.app);
    expect((await registrationPix(t.app, participant(event, [category]), 80, buyer.headers)).statusCode).toBe(
      201,
    );
    const after = await categoryIn(event.id, category);
    expect(after.lote_atual).toBeNull();
    expect(after.preco_inscricao).toBe(120);
    expect((await listedCategory(event.id, category)).preco_inscricao).toBe(120);
  });

  it('closes registrations in the kept answers when staff close them by hand', async () => {
    const event = await makeEvent(t.app.db, { name: 'Corrida Fechada' });
    expect(EventSchema.parse((await get(`/api/events/${event.id}/`)).json()).inscricoes_abertas).toBe(true);
    await t.app.db.transaction((tx) => t.app.events.admin.setRegistrationsOpen(tx, event.id, false));
    // Changed straight through the service: on PostgreSQL the kept answer is dropped when the change's
    // notification arrives through LISTEN, just after the commit, so the event is read until it has.
    await expect
      .poll(async () => EventSchema.parse((await get(`/api/events/${event.id}/`)).json()).inscricoes_abertas)
      .toBe(false);
  });

  it('leaves out the places a waitlist holds, in the event and the list, the moment they change', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const event = await makeEvent(t.app.db, {
      name: 'Corrida da Fila Guardada',
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 2 }]],
    });
    const category = event.days[0]!.categories[0]!.id;
    const rulesUrl = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...rules } = (await get(rulesUrl, admin.headers)).json();
    const saved = await t.app.inject({
      method: 'PUT',
      url: rulesUrl,
      headers: admin.headers,
      payload: { ...rules, lista_espera_categorias: [category] },
    });
    expect(saved.statusCode).toBe(200);
    const buyer = await makeUser(t.app);
    const ids: number[] = [];
    for (const n of [1, 2]) {
      const paid = await registrationCard(t.app, {
        number: '4111111111111111',
        draft: participant(event, [category], { cpf: cpfFrom(770_000_000 + n) }),
        total: 50,
        user: { email: 'fila.guardada@example.com', headers: buyer.headers },
        key: `fila-guardada-${n}`,
      });
      expect(paid.statusCode).toBe(200);
      ids.push(paid.json().inscricao_id as number);
    }
    const both = async () => [
      (await categoryIn(event.id, category)).quantidade_disponivel,
      (await listedCategory(event.id, category)).quantidade_disponivel,
    ];
    expect(await both()).toEqual([0, 0]);
    const email = 'bia.guardada@example.com';
    const joined = await t.app.inject({
      method: 'POST',
      url: `/api/events/${event.id}/lista-espera/`,
      payload: { categoria: category, nome_completo: 'Bia Guardada', cpf: '529.982.247-25', email },
    });
    expect(joined.statusCode).toBe(201);
    const cancel = (id: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/painel/registrations/${id}/cancel/`,
        headers: admin.headers,
        payload: { motivo: 'desistiu' },
      });

    // A place freed while Bia waits is hers: offered to her and held, never the public's.
    expect((await cancel(ids[0]!)).statusCode).toBe(200);
    const offer = await waitForMail(t.dataDir, email, 'está reservada para você');
    expect(await both()).toEqual([0, 0]);
    // A second one with nobody else in line is the public's at once.
    expect((await cancel(ids[1]!)).statusCode).toBe(200);
    await expect.poll(both, { timeout: 45_000, interval: 100 }).toEqual([1, 1]);
    // Bia leaves with her offer: its place is the public's too.
    const token = /lista-espera\/(\d+-[0-9a-f]{32}-[A-Za-z0-9_-]{22})/.exec(offer)![1]!;
    const left = await t.app.inject({ method: 'POST', url: `/api/lista-espera/${token}/sair/` });
    expect(left.statusCode).toBe(200);
    await expect.poll(both, { timeout: 45_000, interval: 100 }).toEqual([2, 2]);
  });
});
