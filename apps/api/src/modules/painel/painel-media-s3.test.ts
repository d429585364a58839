import { existsSync } from 'node:fs';
import path from 'node:path';
import { ProductSchema } from '@passada/core/contracts/catalog';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { type FakeS3, startFakeS3 } from '../../test/mocks/fake-s3.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('painel: photos in an S3-compatible bucket (MEDIA_STORAGE=s3)', () => {
  let s3: FakeS3;
  let t: TestApp;
  let admin: TestStaff;
  const ACCESS_KEY = 'AKIAPASSADATESTE';

  beforeAll(async () => {
    s3 = await startFakeS3({ bucket: 'passada-fotos', accessKeyId: ACCESS_KEY });
    t = await createTestApp({
      env: {
        MEDIA_STORAGE: 's3',
        S3_BUCKET: 'passada-fotos',
        S3_ENDPOINT: s3.url,
        S3_REGION: 'auto',
        S3_ACCESS_KEY_ID: ACCESS_KEY,
        S3_SECRET_ACCESS_KEY: 'segredo-do-bucket-de-teste',
      },
    });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it('puts the six resized files in the bucket, and the shop serves them from there', async () => {
    const product = await makeProduct(t.database.db, { name: 'Camiseta Nuvem Baixa', imageUrls: [] });
    const res = await uploadProductPhoto(t.app, admin, product.id, {
      bytes: await picture('jpeg', 1600),
      filename: 'frente.jpg',
      type: 'image/jpeg',
    });
    expect(res.statusCode).toBe(202);
    const name = /\/produtos\/([a-z0-9]{20})-800\.webp$/.exec(res.json().url)?.[1];
    expect(name).toBeDefined();
    // The original waits in the bucket for the queue.
    expect([...s3.objects.keys()]).toEqual([`produtos/${name}.original`]);
    const [photo] = await settledImages(t.app, admin, product.id);
    expect(photo).toMatchObject({ id: res.json().id, status: 'pronta' });
    await until(() => !s3.objects.has(`produtos/${name}.original`));

    const keys = [400, 800, 1200].flatMap((w) => [
      `produtos/${name}-${w}.webp`,
      `produtos/${name}-${w}.avif`,
    ]);
    expect([...s3.objects.keys()].sort()).toEqual([...keys].sort());
    expect(s3.objects.get(`produtos/${name}-1200.avif`)?.contentType).toBe('image/avif');
    expect(s3.objects.get(`produtos/${name}-400.webp`)?.cacheControl).toBe(
      'public, max-age=31536000, immutable',
    );
    // Path-style, signed with the configured key: the original, then the six files.
    const puts = s3.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(7);
    expect(puts.every((r) => r.bucket === 'passada-fotos' && r.accessKeyId === ACCESS_KEY)).toBe(true);
    // Nothing was written to the local disk.
    expect(existsSync(path.join(t.dataDir, 'media', 'produtos'))).toBe(false);

    const shop = ProductSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/products/${product.id}/` })).json(),
    );
    expect(shop.images).toEqual([photo!.url]);
    for (const url of [photo!.url, ...photo!.srcset_avif.split(', ').map((c) => c.split(' ')[0]!)]) {
      const served = await t.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(
        served.rawPayload.equals(s3.objects.get(url.split('/uploads/')[1]!)?.body ?? Buffer.alloc(0)),
      ).toBe(true);
    }
    const main = await t.app.inject({ method: 'GET', url: photo!.url });
    expect(main.headers['content-type']).toBe('image/webp');
    expect((await sharp(main.rawPayload).metadata()).width).toBe(800);
    expect(s3.requests.some((r) => r.method === 'GET' && r.key === `produtos/${name}-800.webp`)).toBe(true);

    // Removing the photo removes its files from the bucket (a product on sale keeps its last photo,
    // decision 0085: it is hidden first).
    const { versao } = (
      await t.app.inject({
        method: 'GET',
        url: `/api/painel/products/${product.id}/`,
        headers: admin.headers,
      })
    ).json();
    const hidden = await t.app.inject({
      method: 'PATCH',
      url: `/api/painel/products/${product.id}/`,
      headers: admin.headers,
      payload: { versao, oculto: true },
    });
    expect(hidden.statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/painel/products/${product.id}/images/${photo!.id}/`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(s3.objects.size).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: photo!.url })).statusCode).toBe(404);
  });

  it('answers 404 for a name the bucket does not have', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/media/uploads/eventos/${'a'.repeat(20)}-400.avif`,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Imagem não encontrada.');
  });

  it('event images go to the bucket too', async () => {
    const body = await uploadEventImage(await picture('png', 900));
    expect(body.statusCode).toBe(202);
    const photo = await settledPhoto(t.app, admin, body.json().id);
    expect(photo.status).toBe('pronta');
    const key = photo.url.split('/uploads/')[1]!;
    expect(s3.objects.has(key)).toBe(true);
    await until(() => !s3.objects.has(key.replace('-800.webp', '.original')));
    expect((await t.app.inject({ method: 'GET', url: photo.url })).statusCode).toBe(200);
  });

  it('a bucket that refuses the key: 502 in Portuguese, no photo recorded, nothing left in the bucket', async () => {
    const product = await makeProduct(t.database.db, { name: 'Meia Cano Alto', imageUrls: [] });
    const sock = { bytes: await picture('webp', 500), filename: 'meia.webp', type: 'image/webp' };
    s3.accessKeyId = 'AKIAOUTRACHAVE';
    try {
      const res = await uploadProductPhoto(t.app, admin, product.id, sock);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({
        code: 'armazenamento_indisponivel',
        detail: 'Não foi possível guardar a foto agora. Tente de novo em instantes.',
      });
    } finally {
      s3.accessKeyId = ACCESS_KEY;
    }
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/painel/products/${product.id}/`,
      headers: admin.headers,
    });
    expect(after.json().images).toEqual([]);
    expect([...s3.objects.keys()].some((k) => k.startsWith('produtos/'))).toBe(false);
  });

  it('refused uploads and a failed processing leave nothing in the bucket', async () => {
    const product = await makeProduct(t.database.db, { name: 'Pochete Vazia', imageUrls: [] });
    const full = await makeProduct(t.database.db, {
      name: 'Top Dezenove Fotos',
      imageUrls: Array.from({ length: 19 }, (_, i) => `/api/media/products/exemplo-${i}.svg`),
    });
    const before = [...s3.objects.keys()].sort();
    const upload = (productId: number, bytes: Buffer) =>
      uploadProductPhoto(t.app, admin, productId, { bytes, filename: 'foto.png', type: 'image/png' });
    expect((await upload(product.id, await decompressionBomb())).statusCode).toBe(422);
    expect((await upload(product.id, Buffer.from('não sou uma foto'))).statusCode).toBe(415);
    expect((await upload(full.id, await picture('webp', 300))).statusCode).toBe(409);
    const body = multipartPhoto(await picture('jpeg', 800), 'a.jpg', 'image/jpeg');
    const cut = await t.app.inject({
      method: 'POST',
      url: `/api/painel/products/${product.id}/images/`,
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload.subarray(0, body.payload.length - 200),
    });
    expect(cut.statusCode).toBe(400);
    // Its header reads, its pixels do not: accepted, then the queue fails it and removes its original.
    const good = await picture('png', 900);
    const broken = await upload(product.id, good.subarray(0, Math.floor(good.length / 2)));
    expect(broken.statusCode).toBe(202);
    expect((await settledImages(t.app, admin, product.id))[0]?.status).toBe('falhou');
    expect([...s3.objects.keys()].sort()).toEqual(before);
  }, 60_000);

  async function uploadEventImage(bytes: Buffer) {
    const body = multipartPhoto(bytes, 'cartaz.png', 'image/png');
    return t.app.inject({
      method: 'POST',
      url: '/api/painel/events/image/',
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
  }
});
