import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ProductListSchema, ProductSchema } from '@passada/core/contracts/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeQuickBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * The catalogue answers are kept serialized and compressed; these prove a kept answer is never
 * older than the last committed write, and that ETag and the stored encodings behave like HTTP.
 */
describe('cached catalogue answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const quantityOf = async (id: number) =>
    ProductSchema.parse((await get(`/api/products/${id}/`)).json()).stock[0]!.quantity;

  it('answers 304 to a client holding the current ETag, and the full list otherwise', async () => {
    await makeProduct(t.app.db, { name: 'Camiseta Maré Alta' });
    const first = await get('/api/products/');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/api/products/', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await get('/api/products/', { 'if-none-match': '"outra"' })).statusCode).toBe(200);
  });

  it('sends the same JSON brotli- or gzip-compressed, as the client accepts', async () => {
    const plain = await get('/api/products/');
    const br = await get('/api/products/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await get('/api/products/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toContain('application/json');
  });

  it('shows a new product in the list and its category right after it is created', async () => {
    const before = ProductListSchema.parse((await get('/api/products/category/masculino/')).json());
    const etag = (await get('/api/products/')).headers.etag as string;
    const added = await makeProduct(t.app.db, { name: 'Regata Vento Norte', category: 'masculino' });
    const after = ProductListSchema.parse((await get('/api/products/category/masculino/')).json());
    expect(after.map((p) => p.id)).toEqual([...before.map((p) => p.id), added.id]);
    expect((await get('/api/products/', { 'if-none-match': etag })).statusCode).toBe(200);
  });

  it('shows stock held by a Pix charge, and not the units of a charge that was refused', async () => {
    const shorts = await makeProduct(t.app.db, {
      name: 'Short Dunas',
      stock: [{ color: 'Areia', size: 'M', quantity: 5 }],
    });
    const soldOut = await makeProduct(t.app.db, {
      name: 'Boné Sol a Pino',
      stock: [{ color: 'Branco', size: 'U', quantity: 0 }],
    });
    expect(await quantityOf(shorts.id)).toBe(5);
    const buyer = await makeQuickBuyer(t.app);

    // The shorts are taken first, then the cap is short: the whole charge rolls back.
    const both = orderDraft(buyer, [{ product: shorts }, { product: soldOut }]);
    const refused = await createOrderPix(
      t.app,
      buyer.headers,
      both,
      await draftTotalCents(t.app, buyer.zipCode, both, [shorts, soldOut]),
    );
    expect(refused.statusCode).toBe(409);
    expect(await quantityOf(shorts.id)).toBe(5);

    const one = orderDraft(buyer, [{ product: shorts, quantity: 2 }]);
    const held = await createOrderPix(
      t.app,
      buyer.headers,
      one,
      await draftTotalCents(t.app, buyer.zipCode, one, [shorts]),
    );
    expect(held.statusCode).toBe(201);
    expect(await quantityOf(shorts.id)).toBe(3);
  });
});
