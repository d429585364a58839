import { ProductListSchema, ProductSchema } from '@passada/core/contracts/catalog';
import { imageSources } from '@passada/core/images';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('catalogue API', () => {
  let t: TestApp;
  let shirt: MadeProduct;
  let legging: MadeProduct;
  let shorts: MadeProduct;
  let cap: MadeProduct;

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const ids = (body: unknown) => ProductListSchema.parse(body).map((p) => p.id);

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    shirt = await makeProduct(db, {
      name: 'Camiseta Corrida do Café',
      category: 'feminino',
      priceCents: 9990,
      showOnHome: true,
      ratingTenths: 47,
      stock: [
        { color: 'Preto', size: 'P', quantity: 0 },
        { color: 'Preto', size: 'M', quantity: 1 },
        { color: 'Coral', size: 'M', quantity: 7, hex: '#ff6b57' },
      ],
    });
    legging = await makeProduct(db, {
      name: 'Legging Sertão Veloz',
      category: 'feminino',
      priceCents: 18990,
      stock: [
        { color: 'Preto', size: 'G', quantity: 3 },
        { color: 'Preto', size: 'P', quantity: 0 },
      ],
    });
    shorts = await makeProduct(db, {
      name: 'Shorts Beira-Mar 100% leve',
      category: 'masculino',
      priceCents: 11990,
      stock: [{ color: 'Azul-marinho', size: 'GG', quantity: 2 }],
    });
    cap = await makeProduct(db, {
      name: 'Boné Passada',
      category: 'acessorios',
      priceCents: 7990,
      stock: [{ color: 'Branco', size: 'Único', quantity: 4 }],
    });
  });
  afterAll(() => t.close());

  it('lists every product in the spec shape, price in reais and images as imagem1..N', async () => {
    const res = await get('/api/products/');
    expect(res.statusCode).toBe(200);
    const list = ProductListSchema.parse(res.json());
    expect(list.map((p) => p.id)).toEqual([shirt.id, legging.id, shorts.id, cap.id]);
    const first = res.json()[0];
    expect(first).toMatchObject({
      id: shirt.id,
      name: 'Camiseta Corrida do Café',
      price: 99.9,
      category: 'feminino',
      aparecer_home: true,
      rating: 4.7,
    });
    expect(first.images).toHaveLength(2);
    expect(first.imagem1).toBe(first.images[0]);
    expect(first.imagem2).toBe(first.images[1]);
    expect(first).not.toHaveProperty('imagem3');
    expect(first.stock).toContainEqual({
      color: { id: shirt.colorIds.Coral, name: 'Coral', hex: '#ff6b57' },
      size: { id: shirt.sizeIds.M, name: 'M' },
      quantity: 7,
    });
    expect(first.stock).toHaveLength(3);
  });

  it('lists one category, and answers 404 for an unknown one', async () => {
    expect(ids((await get('/api/products/category/feminino/')).json())).toEqual([shirt.id, legging.id]);
    expect(ids((await get('/api/products/category/masculino/')).json())).toEqual([shorts.id]);
    expect(ids((await get('/api/products/category/acessorios/')).json())).toEqual([cap.id]);
    const res = await get('/api/products/category/infantil/');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: 'Categoria não encontrada.', code: 'not_found' });
  });

  it('shows one product, and answers the spec 404 for an unknown id', async () => {
    const res = await get(`/api/products/${legging.id}/`);
    expect(res.statusCode).toBe(200);
    const product = ProductSchema.parse(res.json());
    expect(product).toMatchObject({ id: legging.id, name: 'Legging Sertão Veloz', price: 189.9 });
    // Sizes in their natural order, not in the order the stock was written.
    expect(product.stock.map((s) => [s.size.name, s.quantity])).toEqual([
      ['P', 0],
      ['G', 3],
    ]);
    for (const url of ['/api/products/999999/', '/api/products/abc/', '/api/products/0/']) {
      const missing = await get(url);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json(), url).toEqual({ detail: 'Produto não encontrado.', code: 'not_found' });
    }
  });

  it('checks stock for a colour and size: one unit, sold out, or no such combination', async () => {
    const url = (color: number | undefined, size: number | undefined) =>
      `/api/products/${shirt.id}/?color=${color}&size=${size}`;
    const one = await get(url(shirt.colorIds.Preto, shirt.sizeIds.M));
    expect(one.statusCode).toBe(200);
    expect(one.json().stock).toEqual([
      {
        color: { id: shirt.colorIds.Preto, name: 'Preto', hex: '#1c1f24' },
        size: { id: shirt.sizeIds.M, name: 'M' },
        quantity: 1,
      },
    ]);
    expect(one.json().name).toBe('Camiseta Corrida do Café');

    const soldOut = await get(url(shirt.colorIds.Preto, shirt.sizeIds.P));
    expect(soldOut.json().stock.map((s: { quantity: number }) => s.quantity)).toEqual([0]);

    const missing = await get(url(shirt.colorIds.Coral, shirt.sizeIds.P));
    expect(missing.statusCode).toBe(200);
    expect(missing.json().stock).toEqual([]);

    const bad = await get(`/api/products/${shirt.id}/?color=azul&size=M`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_error');
  });

  it('searches without caring about accents or case', async () => {
    for (const q of ['cafe', 'CAFÉ', 'Café', 'corrida  cafe']) {
      expect(ids((await get(`/api/products/search/?q=${encodeURIComponent(q)}`)).json()), q).toEqual([
        shirt.id,
      ]);
    }
    expect(ids((await get('/api/products/search/?q=sertao')).json())).toEqual([legging.id]);
    expect(ids((await get('/api/products/search/?q=cafe%20legging')).json())).toEqual([]);
    // LIKE wildcards in the text are plain characters.
    expect(ids((await get('/api/products/search/?q=%25')).json())).toEqual([shorts.id]);
    expect(ids((await get('/api/products/search/?q=_')).json())).toEqual([]);
    expect(ids((await get('/api/products/search/')).json())).toHaveLength(4);
  });

  it('searches by category and price range in reais', async () => {
    expect(ids((await get('/api/products/search/?min_price=100&max_price=150')).json())).toEqual([shorts.id]);
    expect(ids((await get('/api/products/search/?max_price=99.90')).json())).toEqual([shirt.id, cap.id]);
    expect(ids((await get('/api/products/search/?min_price=189.90')).json())).toEqual([legging.id]);
    expect(ids((await get('/api/products/search/?category=feminino&max_price=150')).json())).toEqual([
      shirt.id,
    ]);
    expect(ids((await get('/api/products/search/?min_price=300&max_price=100')).json())).toEqual([]);
    const bad = await get('/api/products/search/?category=infantil');
    expect(bad.statusCode).toBe(400);
  });

  it('searches by sizes that still have stock', async () => {
    // Both P combinations are sold out.
    expect(ids((await get('/api/products/search/?sizes=P')).json())).toEqual([]);
    expect(ids((await get('/api/products/search/?sizes=M')).json())).toEqual([shirt.id]);
    expect(ids((await get('/api/products/search/?sizes=g,GG')).json())).toEqual([legging.id, shorts.id]);
    expect(ids((await get('/api/products/search/?sizes=P,M,G,GG&category=masculino')).json())).toEqual([
      shorts.id,
    ]);
  });

  it('serves product images as SVG with a year-long immutable cache', async () => {
    const product = (await get(`/api/products/${shirt.id}/`)).json();
    const res = await get(product.imagem1);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toMatch(/^<svg [^>]*width="480" height="480" viewBox="0 0 480 480"/);
    expect(res.body).toContain('<title>Camiseta Passada, frente, cor Preto</title>');
    expect(res.body.length).toBeLessThan(5000);
    expect((await get(product.imagem2)).body).toContain('costas');
  });

  it('serves WebP and AVIF copies of a drawing at the widths of its srcset', async () => {
    const product = (await get(`/api/products/${shirt.id}/`)).json();
    const sources = imageSources(product.imagem1);
    expect(sources).not.toBeNull();
    for (const [format, srcset] of Object.entries(sources!)) {
      for (const candidate of srcset.split(', ')) {
        const [url, descriptor] = candidate.split(' ');
        const res = await get(url!);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toBe(`image/${format}`);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(res.rawPayload).metadata();
        expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
        expect(`${meta.width}w`).toBe(descriptor);
        // Square, like the picture boxes of the shop's cards and gallery.
        expect(meta.height).toBe(meta.width);
      }
    }
    const stale = await get('/api/media/products/camiseta-frente-preto.0000000000-400.webp');
    expect(stale.statusCode).toBe(302);
    expect(stale.headers.location).toMatch(/camiseta-frente-preto\.[0-9a-f]{10}-400\.webp$/);
    expect((await get('/api/media/products/camiseta-frente-preto.0000000000-300.webp')).statusCode).toBe(404);
    const staleLong = await get('/api/media/products/manga-longa-costas-azul-ceu.0000000000.svg');
    expect(staleLong.statusCode).toBe(302);
    expect(staleLong.headers.location).toMatch(/\/manga-longa-costas-azul-ceu\.[0-9a-f]{10}\.svg$/);
    expect((await get('/api/media/products/manga-curta-frente-preto.0000000000.svg')).statusCode).toBe(404);
  });

  it('redirects a stale image address and answers 404 for one that names no drawing', async () => {
    const stale = await get('/api/media/products/camiseta-frente-preto.0000000000.svg');
    expect(stale.statusCode).toBe(302);
    expect(stale.headers.location).toMatch(
      /^\/api\/media\/products\/camiseta-frente-preto\.[0-9a-f]{10}\.svg$/,
    );
    for (const file of [
      'vestido-frente-preto.0000000000.svg',
      'camiseta-lado-preto.0000000000.svg',
      'x.png',
    ]) {
      const res = await get(`/api/media/products/${file}`);
      expect(res.statusCode, file).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('describes the catalogue and shipping routes in the OpenAPI document', async () => {
    const doc = (await get('/api/openapi.json')).json();
    for (const path of [
      '/api/products/',
      '/api/products/category/{category}/',
      '/api/products/search/',
      '/api/products/{id}/',
      '/api/calcular-frete/',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
