import { get, type IncomingMessage, type ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrations } from '../db/schema/index.ts';
import { createUserAndToken } from '../test/factories/accounts.ts';
import type { MadeEvent } from '../test/factories/events.ts';
import { createStaffAndLogin } from '../test/factories/painel.ts';
import { publishedRace } from '../test/factories/results.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createAnswerCache } from './answer-cache.ts';
import { createFrontDoor } from './front-door.ts';

/** Headers that differ between two answers of the same bytes (the time, the connection). */
const PER_ANSWER = new Set(['date', 'keep-alive', 'connection']);
const stable = (headers: Headers) => [...headers].filter(([name]) => !PER_ANSWER.has(name));

/**
 * The server's door (decision 0089) through a real socket: the second request for a results address is
 * answered there with the bytes and headers the routes gave, 304 and the compressed forms included, and
 * a change to the results reaches the next request.
 */
describe('answers at the front door', () => {
  let clock = new Date('2026-11-22T12:00:00Z');
  let t: TestApp;
  let base: string;
  let event: MadeEvent;
  beforeAll(async () => {
    // The race's factory registers for an event on 2026-12-20, sold from 2026-11-22.
    t = await createTestApp({ now: () => clock });
    const buyer = await createUserAndToken(t.app);
    const staff = await createStaffAndLogin(t.app, 'gerente');
    ({ event } = await publishedRace(t, {
      buyer,
      staff,
      name: 'Corrida da Porta',
      firstCpf: 7100,
      runners: [
        ['Ana Porto', '10 km'],
        ['Bia Portela', '5 km'],
      ],
    }));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('answers a repeated address with the same bytes and headers, 304 and brotli or gzip', async () => {
    const url = `${base}/api/events/${event.id}/resultados/1/`;
    const before = t.app.frontDoor.answered;
    const routed = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(routed.status).toBe(200);
    const body = await routed.text();
    expect(JSON.parse(body).provas[0].nome).toBe('Ana Porto');
    expect(t.app.frontDoor.answered).toBe(before);

    const atDoor = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(t.app.frontDoor.answered).toBe(before + 1);
    expect(await atDoor.text()).toBe(body);
    expect(stable(atDoor.headers)).toEqual(stable(routed.headers));
    expect(atDoor.headers.get('content-security-policy')).toContain("default-src 'self'");

    const etag = routed.headers.get('etag')!;
    const notModified = await fetch(url, { headers: { 'if-none-match': `W/"velho", ${etag}` } });
    expect(notModified.status).toBe(304);
    expect(t.app.frontDoor.answered).toBe(before + 2);

    // node:http's own client, so the compressed bytes are read as sent.
    const raw = (encoding: string) =>
      new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
        get(url, { headers: { 'accept-encoding': encoding } }, (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () =>
            resolve({ encoding: answer.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
          );
        }).on('error', reject);
      });
    const br = await raw('gzip, br');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.bytes).toString()).toBe(body);
    const gz = await raw('gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.bytes).toString()).toBe(body);
    expect(t.app.frontDoor.answered).toBe(before + 4);

    // Counted like the routes' answers, by route pattern: four 200s (one routed) and the 304.
    const figures = await t.app.metrics.getSingleMetricAsString('passada_http_requests_total');
    const count = (status: number) =>
      Number(
        figures
          .split('\n')
          .find(
            (l) =>
              l.includes('route="/api/events/:id/resultados/:numero/"') && l.includes(`status="${status}"`),
          )
          ?.split(' ')
          .at(-1),
      );
    expect(count(200)).toBe(4);
    expect(count(304)).toBe(1);
  });

  it('answers the next request with the results as changed, never the kept bytes of before', async () => {
    const url = `${base}/api/events/${event.id}/resultados/?busca=bia`;
    const names = async () =>
      ((await (await fetch(url)).json()) as { results: Array<{ nome: string }> }).results.map((r) => r.nome);
    expect(await names()).toEqual(['Bia Portela']);
    const before = t.app.frontDoor.answered;
    expect(await names()).toEqual(['Bia Portela']);
    expect(t.app.frontDoor.answered).toBe(before + 1);

    // A name written straight in the database: the trigger's notification drops the kept answers.
    await t.app.db
      .update(registrations)
      .set({ fullName: 'Bia Portela Lima' })
      .where(and(eq(registrations.eventId, event.id), eq(registrations.fullName, 'Bia Portela')));
    await expect.poll(names, { timeout: 30_000 }).toEqual(['Bia Portela Lima']);
    // Kept again, the door answers the new bytes.
    const answered = t.app.frontDoor.answered;
    expect(await names()).toEqual(['Bia Portela Lima']);
    expect(await names()).toEqual(['Bia Portela Lima']);
    expect(t.app.frontDoor.answered).toBeGreaterThan(answered);
  });

  it('asks the events cache as its route does: a new day in Fortaleza sends the address back to the routes', async () => {
    const url = `${base}/api/events/${event.id}/`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    const before = t.app.frontDoor.answered;
    expect((await fetch(url)).headers.get('etag')).toBe(first.headers.get('etag'));
    expect(t.app.frontDoor.answered).toBe(before + 1);
    // Lots by date and deadlines turn at midnight in Fortaleza (UTC−3): the events cache drops itself.
    clock = new Date('2026-11-23T03:00:01Z');
    try {
      expect((await fetch(url)).status).toBe(200);
      expect(t.app.frontDoor.answered).toBe(before + 1);
      expect((await fetch(url)).status).toBe(200);
      expect(t.app.frontDoor.answered).toBe(before + 2);
    } finally {
      clock = new Date('2026-11-22T12:00:00Z');
    }
  });

  it('leaves other methods, other addresses and signed-in pages to the routes', async () => {
    const url = `${base}/api/events/${event.id}/resultados/2/`;
    await fetch(url);
    const before = t.app.frontDoor.answered;
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${url}?x=1`)).status).toBe(200);
    expect((await fetch(`${base}/api/events/${event.id}/resultados/99/`)).status).toBe(404);
    expect((await fetch(`${base}/api/events/${event.id}/resultados/99/`)).status).toBe(404);
    expect((await fetch(`${base}/api/resultados/meus/`)).status).toBe(401);
    expect(t.app.frontDoor.answered).toBe(before);
  });
});

describe('the front door’s addresses', () => {
  /** What `keep` reads of a request and its reply. */
  const requestFor = (url: string) =>
    ({ raw: { url }, method: 'GET', routeOptions: { url: '/rota/:id' } }) as unknown as FastifyRequest;
  const reply = { getHeaders: () => ({ 'x-frame-options': 'SAMEORIGIN' }) } as unknown as FastifyReply;

  it('keeps at most its cap of addresses, dropping the oldest, and none with a cap of 0', async () => {
    const cache = createAnswerCache();
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => ({ key }));
    const door = createFrontDoor(2);
    door.keep(requestFor('/rota/a'), reply, () => cache, 'a');
    door.keep(requestFor('/rota/b'), reply, () => cache, 'b');
    door.keep(requestFor('/rota/c'), reply, () => cache, 'c');
    expect(door.size).toBe(2);
    // A key with no kept answer is never put at the door.
    door.keep(requestFor('/rota/d'), reply, () => cache, 'd');
    expect(door.size).toBe(2);
    const served = (url: string) => {
      const written: unknown[] = [];
      const res = {
        writeHead: (status: number, headers: Record<string, string>) => written.push(status, headers),
        end: (body: Buffer) => written.push(body.toString()),
      } as unknown as ServerResponse;
      const answered = door.serve({ method: 'GET', url, headers: {} } as IncomingMessage, res);
      return answered ? written : null;
    };
    expect(served('/rota/a')).toBeNull();
    expect(served('/rota/d')).toBeNull();
    const [status, headers, body] = served('/rota/c')!;
    expect(status).toBe(200);
    expect(headers).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'content-length': String((body as string).length),
    });
    expect(JSON.parse(body as string)).toEqual({ key: 'c' });
    expect(served('/rota/b')).not.toBeNull();
    // After an invalidation the address goes back to the routes.
    cache.invalidate();
    expect(served('/rota/c')).toBeNull();
    expect(door.size).toBe(1);

    const off = createFrontDoor(0);
    off.keep(requestFor('/rota/a'), reply, () => cache, 'a');
    expect(off.size).toBe(0);
  });
});
