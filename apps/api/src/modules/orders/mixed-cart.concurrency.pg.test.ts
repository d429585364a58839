import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charges, eventCategories, placeReservations, stockReservations } from '../../db/schema/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { makeBuyer, orderDraft, quoteCents } from '../../test/factories/orders.ts';
import { cpfFrom, participant } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Carts taken by connections that really race: PostgreSQL only (npm test provides one).
requirePostgres();

describe('mixed carts on PostgreSQL, concurrently', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-23T12:00:00Z') });
  });
  afterAll(() => t.close());

  it('12 carts of a shirt and two participants race for 5 places: 2 carts hold everything, the rest hold nothing', async () => {
    const event = await makeEvent(t.app.db, {
      today: '2026-11-23',
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 5 }]],
    });
    const category = event.days[0]!.categories[0]!.id;
    const product = await makeProduct(t.app.db, {
      priceCents: 8990,
      stock: [{ color: 'Azul', size: 'M', quantity: 50 }],
    });
    const buyers = await Promise.all(Array.from({ length: 12 }, () => makeBuyer(t.app)));
    const shipping = await quoteCents(t.app, buyers[0]!.zipCode, orderDraft(buyers[0]!, [{ product }]));
    const results = await Promise.all(
      buyers.map((b, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/pagar-pix/',
          headers: b.headers,
          payload: {
            total: (8990 + shipping + 2 * 5000) / 100,
            finalidade: 'pedido',
            pedido: {
              ...orderDraft(b, [{ product }]),
              inscricoes: [0, 1].map((k) =>
                participant(event, [category], { cpf: cpfFrom(700_000_000 + i * 2 + k) }),
              ),
            },
          },
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(2);
    expect(codes.filter((c) => c === 409)).toHaveLength(10);

    // Only the two carts' charges exist, each holding one shirt and two places; the fifth place is free.
    const made = await t.app.db
      .select({ id: charges.id })
      .from(charges)
      .where(
        inArray(
          charges.txid,
          results.filter((r) => r.statusCode === 201).map((r) => r.json().txid as string),
        ),
      );
    expect(made).toHaveLength(2);
    const ids = made.map((c) => c.id);
    expect(
      await t.app.db.select().from(placeReservations).where(eq(placeReservations.categoryId, category)),
    ).toHaveLength(4);
    expect(
      (await t.app.db.select().from(stockReservations).where(eq(stockReservations.productId, product.id)))
        .map((r) => r.chargeId)
        .sort(),
    ).toEqual([...ids].sort());
    const [row] = await t.app.db.select().from(eventCategories).where(eq(eventCategories.id, category));
    expect(row!.placesLeft).toBe(1);
    const stock = await t.app.catalog.getProduct(product.id, {
      color: product.stock[0]!.colorId,
      size: product.stock[0]!.sizeId,
    });
    expect(stock.stock[0]!.quantity).toBe(48);
  });
});
