import { ProductSchema } from '@passada/core/contracts/catalog';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeQuickBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';
import { untilSeen } from '../../test/wait-until.ts';

// Two server processes over one PostgreSQL database: each keeps its own answers, and a write through
// one must reach the other's cache through NOTIFY.
requirePostgres();

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp();
  second = await createTestApp({ database: first.database });
});
afterAll(async () => {
  await second.app.close();
  await first.close();
});

const quantityIn = async (t: TestApp, id: number) =>
  ProductSchema.parse((await t.app.inject({ method: 'GET', url: `/api/products/${id}/` })).json()).stock[0]!
    .quantity;

it('stock held and a product added through one process show in the other', async () => {
  const product = await makeProduct(first.app.db, {
    name: 'Regata Farol do Mucuripe',
    stock: [{ color: 'Verde', size: 'G', quantity: 6 }],
  });
  // Both processes now keep the answer.
  expect(await quantityIn(second, product.id)).toBe(6);
  expect(await quantityIn(first, product.id)).toBe(6);

  const buyer = await makeQuickBuyer(first.app);
  const draft = orderDraft(buyer, [{ product, quantity: 2 }]);
  const total = await draftTotalCents(first.app, buyer.zipCode, draft, [product]);
  expect((await createOrderPix(first.app, buyer.headers, draft, total)).statusCode).toBe(201);
  expect(await untilSeen(() => quantityIn(second, product.id), 4)).toBe(4);

  const added = await makeProduct(first.app.db, { name: 'Meia Jangada' });
  const listed = async () => {
    const list = (await second.app.inject({ method: 'GET', url: '/api/products/' })).json() as Array<{
      id: number;
    }>;
    return list.some((p) => p.id === added.id) ? 1 : 0;
  };
  expect(await untilSeen(listed, 1)).toBe(1);
});
