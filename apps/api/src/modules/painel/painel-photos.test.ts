import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProductSchema } from '@passada/core/contracts/catalog';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalMediaStorage } from '../../providers/storage/index.ts';
import type { MediaStorage } from '../../providers/storage/storage.provider.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import {
  createStaffAndLogin,
  decompressionBomb,
  multipartPhoto,
  picture,
  settledImages,
  settledPhoto,
  type TestStaff,
  until,
  uploadProductPhoto,
} from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { findPhoto, insertPhoto } from './photos.repository.ts';
import { originalKey } from './photos.ts';

/** Every file under `dir`, relative to it; empty when the folder does not exist. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  } catch {
    return [];
  }
}

/**
 * The local storage, with a log of when each photo's processing started (its original read) and
 * ended (its last file written), and a gate that holds every read of an original until opened.
 */
function observedStorage(dir: string) {
  const inner = createLocalMediaStorage(dir);
  const spans = new Map<string, { start: number; end: number }>();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const nameOf = (key: string) => key.split('/')[1]!.replace(/[-.].*$/, '');
  const storage: MediaStorage = {
    name: 'local',
    async put(key, body, type) {
      await inner.put(key, body, type);
      const span = spans.get(nameOf(key));
      if (span) span.end = performance.now();
    },
    async get(key) {
      if (key.endsWith('.original')) {
        await gate;
        spans.set(nameOf(key), { start: performance.now(), end: Number.NaN });
      }
      return inner.get(key);
    },
    delete: (keys) => inner.delete(keys),
    list: () => inner.list(),
  };
  return { storage, spans, open };
}

describe('painel: photo uploads that cannot take the shop down', () => {
  let t: TestApp;
  let admin: TestStaff;
  let bomb: Buffer;
  let observed: ReturnType<typeof observedStorage>;
  let mediaDir: string;

  const upload = (productId: number, bytes: Buffer, filename = 'foto.png', type = 'image/png') =>
    uploadProductPhoto(t.app, admin, productId, { bytes, filename, type });
  const shopImages = async (productId: number) =>
    ProductSchema.parse((await t.app.inject({ method: 'GET', url: `/api/products/${productId}/` })).json())
      .images;

  beforeAll(async () => {
    bomb = await decompressionBomb();
    mediaDir = mkdtempSync(path.join(tmpdir(), 'passada-fotos-'));
    observed = observedStorage(mediaDir);
    t = await createTestApp({ env: { MEDIA_DIR: mediaDir }, providers: { media: observed.storage } });
    admin = await createStaffAndLogin(t.app, 'admin');
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  it('answers at once with the photos "processando", then makes them one at a time, off the request', async () => {
    // The storage holds every read of an original, so nothing is processed until the answers are in.
    const product = await makeProduct(t.database.db, { name: 'Camiseta Fila Indiana', imageUrls: [] });
    const photos = await Promise.all([
      picture('jpeg', 2400),
      picture('png', 1800),
      picture('webp', 2000),
      picture('jpeg', 1600),
    ]);
    const answers = await Promise.all(
      photos.map((bytes, i) => upload(product.id, bytes, `foto${i}`, 'application/octet-stream')),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202, 202]);
    expect(answers.map((a) => a.json().status)).toEqual(Array(4).fill('processando'));
    // The shop does not show a photo before its files exist.
    expect(await shopImages(product.id)).toEqual([]);
    // Only the originals are stored so far.
    expect(filesUnder(mediaDir).every((f) => f.endsWith('.original'))).toBe(true);
    expect(filesUnder(mediaDir)).toHaveLength(4);

    observed.open();
    const images = await settledImages(t.app, admin, product.id, 60_000);
    expect(images.map((i) => i.status)).toEqual(Array(4).fill('pronta'));
    // One at a time: each photo's processing ended before the next one's started.
    const spans = [...observed.spans.values()].sort((a, b) => a.start - b.start);
    expect(spans).toHaveLength(4);
    for (const [i, span] of spans.entries()) {
      expect(span.end).toBeGreaterThan(span.start);
      if (i > 0) expect(span.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
    }
    // The shop lists all four in the back office's order; the originals go, six files each remain.
    expect(await shopImages(product.id)).toEqual(images.map((i) => i.url));
    expect(images.map((i) => i.url).sort()).toEqual(answers.map((a) => a.json().url).sort());
    await until(() => !filesUnder(mediaDir).some((f) => f.endsWith('.original')));
    const files = filesUnder(mediaDir);
    expect(files).toHaveLength(24);
    expect(files.some((f) => f.endsWith('.original'))).toBe(false);
  }, 90_000);

  it('refuses a 16000 × 16000 PNG from its header, before decoding it, and keeps nothing', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const product = await makeProduct(t.database.db, { name: 'Boné Bomba Relógio', imageUrls: [] });
    const before = filesUnder(mediaDir);
    const rssBefore = process.memoryUsage().rss;
    const res = await upload(product.id, bomb, 'gigante.png');
    const growth = process.memoryUsage().rss - rssBefore;
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'foto_grande_demais',
      detail: 'A foto tem 16000 × 16000 pixels; o limite é de 40 megapixels. Reduza a foto e envie de novo.',
    });
    // Decoding it would take 768 MB of pixels; reading its header takes none.
    expect(growth).toBeLessThan(100 * 1024 * 1024);
    expect(filesUnder(mediaDir)).toEqual(before);
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/painel/products/${product.id}/`,
      headers: admin.headers,
    });
    expect(after.json().images).toEqual([]);
  });

  it('refuses a HEIC whose header declares 16000 × 16000 pixels before heic-decode decodes it', async () => {
    // The real iPhone-style fixture (1500 × 1000) with its `ispe` box (the image's declared size)
    // rewritten: decoding it would first allocate 16000 × 16000 × 4 bytes (1 GB) for the pixels.
    const heic = Buffer.from(readFileSync(path.join(import.meta.dirname, 'fixtures', 'corredora.heic')));
    const ispe = heic.indexOf('ispe');
    expect([heic.readUInt32BE(ispe + 8), heic.readUInt32BE(ispe + 12)]).toEqual([1500, 1000]);
    heic.writeUInt32BE(16000, ispe + 8);
    heic.writeUInt32BE(16000, ispe + 12);
    const product = await makeProduct(t.database.db, { name: 'Viseira Cabeçalho Falso', imageUrls: [] });
    const before = filesUnder(mediaDir);
    const rssBefore = process.memoryUsage().rss;
    const res = await upload(product.id, heic, 'IMG_0002.HEIC', 'image/heic');
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe(
      'A foto tem 16000 × 16000 pixels; o limite é de 40 megapixels. Reduza a foto e envie de novo.',
    );
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(filesUnder(mediaDir)).toEqual(before);
  });

  it('the queue refuses an oversized original too (limitInputPixels), and removes it', async () => {
    // An original that reached the queue without the upload's check (another process's older code, a
    // lower PHOTO_MAX_PIXELS since): sharp stops at its header.
    observed.open();
    const photo = await insertPhoto(t.database.db, 'produtos', 'b'.repeat(20));
    await observed.storage.put(originalKey('produtos', photo.name), bomb, 'application/octet-stream');
    const rssBefore = process.memoryUsage().rss;
    await t.app.photos.process(photo.id, 1);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect((await findPhoto(t.database.db, photo.id))?.status).toBe('falhou');
    expect(filesUnder(mediaDir).filter((f) => f.includes(photo.name))).toEqual([]);
  });

  it('leaves no file behind for any refused upload', async () => {
    const product = await makeProduct(t.database.db, { name: 'Meia Nada Fica', imageUrls: [] });
    const full = await makeProduct(t.database.db, {
      name: 'Regata Dezenove Fotos',
      imageUrls: Array.from({ length: 19 }, (_, i) => `/api/media/products/exemplo-${i}.svg`),
    });
    const before = filesUnder(mediaDir);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const refusals = [
      [await upload(product.id, bomb), 422],
      [await upload(product.id, Buffer.from('não sou uma foto'), 'nota.jpg'), 415],
      [await upload(product.id, gif, 'a.gif', 'image/gif'), 415],
      [await upload(product.id, Buffer.alloc(16 * 1024 * 1024, 1), 'enorme.jpg'), 413],
      [await upload(full.id, await picture('webp', 300)), 409],
      [await upload(999_999, await picture('webp', 300)), 404],
    ] as const;
    for (const [res, status] of refusals) {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().detail).toMatch(/[ãçéêóú]|foto/i);
    }
    expect(refusals[3][0].json().code).toBe('foto_pesada_demais');
    expect(filesUnder(mediaDir)).toEqual(before);
    const rows = await t.app.inject({
      method: 'GET',
      url: `/api/painel/products/${product.id}/`,
      headers: admin.headers,
    });
    expect(rows.json().images).toEqual([]);
  });

  it('a photo whose header reads but whose pixels do not: marked "falhou", its files removed', async () => {
    const product = await makeProduct(t.database.db, { name: 'Shorts Pixel Quebrado', imageUrls: [] });
    const good = await picture('png', 900);
    // The header (signature and IHDR) is intact; the image data is cut off halfway.
    const broken = good.subarray(0, Math.floor(good.length / 2));
    const before = filesUnder(mediaDir);
    const res = await upload(product.id, broken, 'quebrada.png');
    expect(res.statusCode).toBe(202);
    const [image] = await settledImages(t.app, admin, product.id);
    expect(image).toMatchObject({ id: res.json().id, status: 'falhou' });
    expect(filesUnder(mediaDir)).toEqual(before);
    expect(await shopImages(product.id)).toEqual([]);
    // Removing the failed photo works like any other.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/painel/products/${product.id}/images/${image!.id}/`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(204);
  });

  it('a multipart body cut short answers 400 in Portuguese and writes nothing', async () => {
    const product = await makeProduct(t.database.db, { name: 'Jaqueta Meio Caminho', imageUrls: [] });
    const body = multipartPhoto(await picture('jpeg', 1200), 'frente.jpg', 'image/jpeg');
    const before = filesUnder(mediaDir);
    for (const url of [`/api/painel/products/${product.id}/images/`, '/api/painel/events/image/']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...admin.headers, ...body.headers },
        // The connection dropped halfway through the file: no closing boundary.
        payload: body.payload.subarray(0, Math.floor(body.payload.length / 2)),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        code: 'envio_incompleto',
        detail: 'O envio da foto foi interrompido antes do fim. Envie de novo.',
      });
    }
    expect(filesUnder(mediaDir)).toEqual(before);
  });

  it('event images: 202 "processando", then "pronta" with their six files', async () => {
    const body = multipartPhoto(await picture('jpeg', 1600), 'cartaz.jpg', 'image/jpeg');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/painel/events/image/',
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'processando' });
    expect(res.json().url).toMatch(/^\/api\/media\/uploads\/eventos\/[a-z0-9]{20}-800\.webp$/);
    const photo = await settledPhoto(t.app, admin, res.json().id);
    expect(photo).toEqual({ ...res.json(), status: 'pronta' });
    const served = await t.app.inject({ method: 'GET', url: photo.url });
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).width).toBe(800);
    const name = photo.url.split('/').pop()!.slice(0, 20);
    expect(filesUnder(path.join(mediaDir, 'eventos')).filter((f) => f.startsWith(name))).toHaveLength(6);
  });
});
