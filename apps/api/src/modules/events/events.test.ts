import { addDays } from '@passada/core/calendar';
import {
  EventListSchema,
  EventPageSchema,
  EventSchema,
  type EventSummary,
} from '@passada/core/contracts/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEvents } from '../../db/seed/events.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

// A fixed clock: 2026-11-22 12:00 in Fortaleza (UTC−3).
let clock = new Date('2026-11-22T15:00:00Z');
const today = '2026-11-22';

describe('events API over the demo seed', () => {
  let t: TestApp;
  let all: EventSummary[];

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    await seedEvents(t.database.db, today);
    const res = await t.app.inject({ method: 'GET', url: '/api/events/' });
    expect(res.statusCode).toBe(200);
    all = EventListSchema.parse(res.json());
  });
  afterAll(() => t.close());

  it('lists every event as an array ordered by start date', () => {
    expect(all.length).toBeGreaterThanOrEqual(12);
    const starts = all.map((e) => e.start_data_evento);
    expect(starts).toEqual([...starts].sort());
  });

  it('seeds Nordeste events: a closed one, a multi-day one and a sold-out category', () => {
    const closed = all.filter((e) => !e.inscricoes_abertas);
    expect(closed.length).toBeGreaterThanOrEqual(1);
    for (const e of closed) expect(e.prazo_inscricao < today).toBe(true);
    expect(all.some((e) => e.dias_evento.length > 1 && e.end_data_evento > e.start_data_evento)).toBe(true);
    const soldOut = all.filter((e) =>
      e.dias_evento.some((d) => d.categorias.some((c) => c.quantidade_disponivel === 0)),
    );
    expect(soldOut.some((e) => e.inscricoes_abertas)).toBe(true);
    expect(new Set(all.map((e) => e.state))).toEqual(
      new Set(['CE', 'PE', 'RN', 'PB', 'BA', 'AL', 'SE', 'PI', 'MA']),
    );
    const open = all.filter((e) => e.inscricoes_abertas);
    for (const e of open) {
      expect(e.start_data_evento >= addDays(today, 14)).toBe(true);
      expect(e.start_data_evento <= addDays(today, 70)).toBe(true);
      expect(e.prazo_inscricao < e.start_data_evento).toBe(true);
    }
  });

  it('seeds kits with shirt sizes (one sold out), pickup details and early-bird lots', () => {
    for (const e of all) {
      expect(e.kit.tamanhos.map((k) => k.tamanho)).toEqual(['PP', 'P', 'M', 'G', 'GG', 'XGG']);
      expect(e.kit.local_retirada).toContain(e.city);
      expect(e.kit.horarios_retirada.split('\n')).toHaveLength(2);
    }
    expect(all.some((e) => e.kit.tamanhos.some((k) => k.quantidade_disponivel === 0))).toBe(true);
    const lot = all
      .flatMap((e) => e.dias_evento.flatMap((d) => d.categorias))
      .find((c) => c.lote_atual !== null);
    expect(lot?.lote_atual).toMatchObject({
      nome: '1º lote',
      descricao: expect.stringContaining('300 inscrições'),
    });
    expect(lot?.proximo_preco?.nome).toBe('2º lote');
    expect(all.some((e) => e.oferece_pcd)).toBe(true);
  });

  it('lists events without their long texts (the event answer carries them)', () => {
    for (const e of all) {
      expect(e).not.toHaveProperty('regulamento');
      expect(e).not.toHaveProperty('termo_responsabilidade');
      expect(e.termo_versao).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('seeds regulations with the sections people look for', async () => {
    for (const { id } of all) {
      const e = EventSchema.parse((await t.app.inject({ method: 'GET', url: `/api/events/${id}/` })).json());
      for (const section of [
        'PERCURSO',
        'KIT',
        'CATEGORIAS',
        'PREMIAÇÃO',
        'IDOSOS',
        'DESISTÊNCIA',
        'DIREITO DE IMAGEM',
      ]) {
        expect(e.regulamento).toContain(section);
      }
      expect(e.regulamento).toContain('art. 23');
    }
  });

  it('pages through ?page=N&page_size=9', async () => {
    const one = await t.app.inject({ method: 'GET', url: '/api/events/?page=1&page_size=9' });
    const p1 = EventPageSchema.parse(one.json());
    expect(p1).toMatchObject({ count: all.length, page: 1, pages: Math.ceil(all.length / 9) });
    expect(p1.results.map((e) => e.id)).toEqual(all.slice(0, 9).map((e) => e.id));

    const two = EventPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/events/?page=2' })).json(),
    );
    expect(two.results.map((e) => e.id)).toEqual(all.slice(9, 18).map((e) => e.id));

    const beyond = await t.app.inject({ method: 'GET', url: `/api/events/?page=${p1.pages + 1}` });
    expect(beyond.statusCode).toBe(404);
    expect(beyond.json()).toMatchObject({ detail: 'Página não encontrada.' });

    const bad = await t.app.inject({ method: 'GET', url: '/api/events/?page=0' });
    expect(bad.statusCode).toBe(400);
  });

  it('answers one event with its days and categories', async () => {
    const multi = all.find((e) => e.dias_evento.length > 1);
    if (!multi) throw new Error('sem evento de vários dias');
    const res = await t.app.inject({ method: 'GET', url: `/api/events/${multi.id}/` });
    expect(res.statusCode).toBe(200);
    const event = EventSchema.parse(res.json());
    expect(event).toMatchObject(multi);
    expect(event.dias_evento.map((d) => d.data)).toEqual([event.start_data_evento, event.end_data_evento]);
    expect(typeof event.dias_evento[0]?.categorias[0]?.preco_inscricao).toBe('number');
  });

  it('answers 404 "Evento não encontrado." for an unknown event', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/events/999999/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Evento não encontrado.', code: 'not_found' });
  });

  it('serves the generated poster as SVG with a year-long cache', async () => {
    const e = all[0];
    if (!e) throw new Error('sem eventos');
    expect(e.imagem_evento).toMatch(/^\/api\/media\/events\/[0-9a-f]{16}\.svg$/);
    const res = await t.app.inject({ method: 'GET', url: e.imagem_evento });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toMatch(/^<svg [^>]*width="800" height="500" viewBox="0 0 800 500"/);
    expect(res.body).toContain(`<title>${e.nome_evento}`);

    const unknown = await t.app.inject({ method: 'GET', url: '/api/media/events/0123456789abcdef.svg' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('inscricoes_abertas follows the deadline in Fortaleza', () => {
  let t: TestApp;
  let id: number;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    const made = await makeEvent(t.database.db, {
      startDate: '2026-12-05',
      registrationDeadline: '2026-12-01',
      days: [[{ name: '5 km', priceCents: 8990 }]],
    });
    id = made.id;
  });
  afterAll(() => t.close());

  async function isOpen(): Promise<boolean> {
    const res = await t.app.inject({ method: 'GET', url: `/api/events/${id}/` });
    return EventSchema.parse(res.json()).inscricoes_abertas;
  }

  it('is open until 23:59 of the deadline day, local time, and closed after', async () => {
    clock = new Date('2026-11-22T15:00:00Z');
    expect(await isOpen()).toBe(true);
    // 23:30 in Fortaleza on the deadline day is already 2 December in UTC.
    clock = new Date('2026-12-02T02:30:00Z');
    expect(await isOpen()).toBe(true);
    clock = new Date('2026-12-02T03:00:00Z');
    expect(await isOpen()).toBe(false);
    const list = EventListSchema.parse((await t.app.inject({ method: 'GET', url: '/api/events/' })).json());
    expect(list.find((e) => e.id === id)?.inscricoes_abertas).toBe(false);
  });

  it('shows prices in reais and places left as stored', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/events/${id}/` });
    expect(EventSchema.parse(res.json()).dias_evento[0]?.categorias[0]).toMatchObject({
      nome_categoria: '5 km',
      preco_inscricao: 89.9,
      quantidade_disponivel: 100,
    });
  });
});
