import { PainelResultPhotoSchema, RunnerResultSchema } from '@passada/core/contracts/results';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, multipartPhoto, type TestStaff } from '../../test/factories/painel.ts';
import { publishedRace } from '../../test/factories/results.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone, untilSeen } from '../../test/wait-until.ts';

const START = new Date('2026-11-22T12:00:00Z');
const BLUE = '#1d4ed8';

/**
 * Photos of a race by bib (decision 0064, later): an album uploaded through the photo pipeline, every
 * copy with the brand's mark; tagged by hand or by the timer's file of bibs per photo; each runner's page
 * shows the ready photos of their bib, and only those.
 */
describe('race photos by bib', () => {
  let t: TestApp;
  let manager: TestStaff;
  let event: MadeEvent;
  const idOf = new Map<string, number>();

  const painel = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/painel${url}`,
      headers: manager.headers,
      ...(payload ? { payload } : {}),
    });
  const photosUrl = () => `/events/${event.id}/resultados/fotos/`;
  /** The photos a runner's public page shows, by file name, once the page is rebuilt. */
  const onPage = async (bib: number) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/resultados/${bib}/` });
    expect(res.statusCode, res.body).toBe(200);
    const nameOf = new Map([...idOf].map(([name, id]) => [id, name]));
    return RunnerResultSchema.parse(res.json()).fotos.map((f) => nameOf.get(f.id));
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => START });
    manager = await createStaffAndLogin(t.app, 'gerente');
    const buyer = await createUserAndToken(t.app);
    // Bibs 1, 2, 3: Ana, Bia, Caio.
    ({ event } = await publishedRace(t, {
      buyer,
      staff: manager,
      name: 'Corrida das Fotos',
      firstCpf: 652000001,
      runners: [
        ['Ana Foto', '10 km'],
        ['Bia Foto', '10 km'],
        ['Caio Foto', '5 km'],
      ],
    }));
    // Three real JPEGs, blue all over, as a photographer's camera names them.
    const jpeg = await sharp({ create: { width: 1500, height: 1000, channels: 3, background: BLUE } })
      .jpeg()
      .toBuffer();
    for (const name of ['largada-001.jpg', 'chegada-002.jpg', 'chegada-003.jpg']) {
      const body = multipartPhoto(jpeg, name, 'image/jpeg');
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/painel${photosUrl()}`,
        headers: { ...manager.headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(202);
      const photo = PainelResultPhotoSchema.parse(res.json());
      expect(photo).toMatchObject({ nome_arquivo: name, numeros: [], status: 'processando' });
      idOf.set(name, photo.id);
    }
    await untilJobsDone(t.app.db, 'photos.process');
  }, 120_000);
  afterAll(() => t.close());

  it('resizes every photo with the brand mark in its corner, and shows none untagged', async () => {
    const list = PainelResultPhotoSchema.array().parse((await painel('GET', photosUrl())).json());
    expect(list.map((p) => [p.nome_arquivo, p.status])).toEqual([
      ['chegada-002.jpg', 'pronta'],
      ['chegada-003.jpg', 'pronta'],
      ['largada-001.jpg', 'pronta'],
    ]);
    const large = list[0]!.url.replace(/-800\.webp$/, '-1200.webp');
    const file = await t.app.inject({ method: 'GET', url: large });
    expect(file.statusCode).toBe(200);
    const { data, info } = await sharp(file.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1200, 800]);
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels).subarray(0, 3),
    ];
    // The photo's own blue far from the mark; the mark's orange square (a fifth of 800 px, 1/6 margin)
    // just inside its corner, clear of the white bolt.
    const [r0, , b0] = pixel(100, 100);
    expect(b0! - r0!).toBeGreaterThan(100);
    const size = 160;
    const margin = Math.round(size / 6);
    const [r, g, b] = pixel(info.width - margin - size + 12, info.height - margin - size / 2);
    expect(r).toBeGreaterThan(170);
    expect(b).toBeLessThan(110);
    expect(g).toBeLessThan(r! - 60);
    for (const bib of [1, 2, 3]) expect(await onPage(bib)).toEqual([]);
  });

  it("tags a photo by hand and by the timer's file, refusing the lines that name no photo, and shows each bib only its own", async () => {
    const byHand = await painel('PUT', `${photosUrl()}${idOf.get('largada-001.jpg')}/`, {
      numeros: [2, 1, 2],
    });
    expect(byHand.statusCode, byHand.body).toBe(200);
    expect(byHand.json().numeros).toEqual([1, 2]);

    // The timer's file: the photo's column and the bibs' in its own titles and order; one photo on two lines.
    const file =
      'Números;Arquivo\n1 3;chegada-002.jpg\n2;chegada-003.jpg\n1;nao-existe.jpg\n;chegada-003.jpg\n3;chegada-003.jpg\n';
    const tagged = await painel('POST', `${photosUrl()}numeros/`, { conteudo: file });
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect(tagged.json()).toEqual({
      fotos_marcadas: 2,
      linhas_recusadas: [
        { linha: 4, arquivo: 'nao-existe.jpg', motivo: 'nenhuma foto do evento com este nome' },
        { linha: 5, arquivo: 'chegada-003.jpg', motivo: 'sem número de peito' },
      ],
    });
    const expected = new Map([
      [1, ['largada-001.jpg', 'chegada-002.jpg']],
      [2, ['largada-001.jpg', 'chegada-003.jpg']],
      [3, ['chegada-002.jpg', 'chegada-003.jpg']],
    ]);
    for (const [bib, names] of expected) expect(await untilSeen(() => onPage(bib), names)).toEqual(names);

    // The same file again replaces, never adds: the pages stay as they were.
    expect((await painel('POST', `${photosUrl()}numeros/`, { conteudo: file })).json().fotos_marcadas).toBe(
      2,
    );
    for (const [bib, names] of expected) expect(await onPage(bib)).toEqual(names);
  });

  it('refuses a file without its columns, bad bibs, and a photo of another event', async () => {
    const noColumns = await painel('POST', `${photosUrl()}numeros/`, {
      conteudo: 'Peito;Tempo\n1;00:30:00\n',
    });
    expect(noColumns.statusCode).toBe(400);
    expect(noColumns.json().code).toBe('colunas_ausentes');
    const badBibs = await painel('PUT', `${photosUrl()}${idOf.get('largada-001.jpg')}/`, { numeros: [-4] });
    expect(badBibs.statusCode).toBe(400);
    const other = await painel(
      'PUT',
      `/events/${event.id + 1000}/resultados/fotos/${idOf.get('largada-001.jpg')}/`,
      {
        numeros: [1],
      },
    );
    expect(other.statusCode).toBe(404);
  });

  it('removes a photo from every page and its files from the storage', async () => {
    const [photo] = PainelResultPhotoSchema.array()
      .parse((await painel('GET', photosUrl())).json())
      .filter((p) => p.nome_arquivo === 'chegada-002.jpg');
    const removed = await painel('DELETE', `${photosUrl()}${photo!.id}/`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await untilSeen(() => onPage(3), ['chegada-003.jpg'])).toEqual(['chegada-003.jpg']);
    expect(await onPage(1)).toEqual(['largada-001.jpg']);
    expect((await t.app.inject({ method: 'GET', url: photo!.url })).statusCode).toBe(404);
  });
});
