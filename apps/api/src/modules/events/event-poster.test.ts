import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events as eventsTable } from '../../db/schema/index.ts';
import { planDemoEvents } from '../../db/seed/events.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { eventPoster, hasCityScene, renderEventPoster } from './event-poster.ts';
import { redrawGeneratedPosters } from './events-admin.ts';

/** The poster's shapes alone: colours, words and the title taken out. */
function shapes(svg: string): string {
  return svg
    .replace(/<title>.*?<\/title>/, '')
    .replace(/<text[^>]*>.*?<\/text>/g, '')
    .replace(/#[0-9a-f]{3,6}\b/gi, '');
}

describe('event posters', () => {
  const events = planDemoEvents('2026-11-26').map((e) => e.row);

  it('give every demo event the landmark of its own city', () => {
    expect(events.length).toBe(13);
    for (const e of events) expect(hasCityScene(e.city), e.city).toBe(true);
  });

  it('draw each city differently, not one skyline recoloured', () => {
    const byCity = new Map<string, string>();
    for (const e of events) byCity.set(e.city, shapes(renderEventPoster(e)));
    expect(byCity.size).toBe(12);
    expect(new Set(byCity.values()).size).toBe(byCity.size);
  });

  it('draw the same bytes for the same event and name its city and dates', () => {
    const e = events[1]!;
    const svg = renderEventPoster(e);
    expect(renderEventPoster(e)).toBe(svg);
    expect(svg).toMatch(/^<svg [^>]*width="800" height="500"/);
    expect(svg).toContain(`${e.city}/${e.state}`);
  });

  it('give a city without its own scene a seafront skyline with its name', () => {
    const facts = {
      name: 'Corrida de Olinda',
      city: 'Olinda',
      state: 'PE',
      startDate: '2027-01-10',
      endDate: '2027-01-10',
    };
    expect(hasCityScene('Olinda')).toBe(false);
    expect(hasCityScene('  JOÃO PESSOA ')).toBe(true);
    expect(renderEventPoster(facts)).toContain('Olinda/PE');
  });
});

describe('generated posters after the drawing changed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("get the current drawing's address at start, uploaded pictures untouched", async () => {
    const db = t.database.db;
    const drawn = await makeEvent(db, { name: 'Corrida do Pôster Antigo', city: 'Salvador', state: 'BA' });
    const uploaded = await makeEvent(db, { name: 'Corrida do Pôster Enviado', city: 'Natal', state: 'RN' });
    // Addresses written by an earlier drawing, and a photo staff uploaded.
    const stale = '/api/media/events/0123456789abcdef.svg';
    const photo = '/api/media/uploads/eventos/abcdefghij0123456789-800.webp';
    await db.update(eventsTable).set({ imageUrl: stale }).where(eq(eventsTable.id, drawn.id));
    await db.update(eventsTable).set({ imageUrl: photo }).where(eq(eventsTable.id, uploaded.id));
    expect((await t.app.inject({ method: 'GET', url: stale })).statusCode).toBe(404);

    expect(await redrawGeneratedPosters(db)).toBe(1);
    expect(await redrawGeneratedPosters(db)).toBe(0);

    const current = eventPoster({
      name: 'Corrida do Pôster Antigo',
      city: 'Salvador',
      state: 'BA',
      startDate: drawn.startDate,
      endDate: drawn.endDate,
    }).url;
    const imageOf = async (id: number) =>
      (await t.app.inject({ method: 'GET', url: `/api/events/${id}/` })).json().imagem_evento;
    await expect.poll(() => imageOf(drawn.id), { timeout: 45_000, interval: 100 }).toBe(current);
    expect(await imageOf(uploaded.id)).toBe(photo);
    const poster = await t.app.inject({ method: 'GET', url: current });
    expect(poster.statusCode).toBe(200);
    expect(poster.body).toContain('Salvador/BA');
  });
});
