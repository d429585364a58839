import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyPostgresDatabase } from '../test/test-app.ts';
import { type Database, openDatabase } from './client.ts';
import { prepared } from './prepared.ts';
import { products } from './schema/index.ts';

/** Queries built once and run on the database or inside a transaction, on PostgreSQL and on PGlite. */
describe.each(['postgres', 'pglite'] as const)('prepared queries (%s)', (kind) => {
  let database: Database;
  let drop = async () => {};
  const productByName = prepared('test_product_by_name', (c) =>
    c
      .select({ name: products.name, price: products.priceCents })
      .from(products)
      .where(eq(products.name, sql.placeholder('name'))),
  );
  const product = (name: string) => ({
    name,
    description: 'Regata leve',
    priceCents: 9990,
    category: 'masculino' as const,
    weightGrams: 120,
    lengthCm: 30,
    widthCm: 20,
    heightCm: 2,
  });

  beforeAll(async () => {
    if (kind === 'postgres') {
      const empty = await createEmptyPostgresDatabase();
      database = await openDatabase({ url: empty.url });
      drop = empty.drop;
    } else {
      database = await openDatabase({ dataDir: 'memory://' });
    }
    await database.migrate();
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('runs on the database with new values each time', async () => {
    await database.db.insert(products).values([product('Regata Dunas'), product('Bermuda Jangada')]);
    expect(await productByName(database.db).execute({ name: 'Regata Dunas' })).toEqual([
      { name: 'Regata Dunas', price: 9990 },
    ]);
    expect(await productByName(database.db).execute({ name: 'Bermuda Jangada' })).toHaveLength(1);
    expect(await productByName(database.db).execute({ name: 'Meia Farol' })).toEqual([]);
  });

  it("runs inside the transaction it is handed: it sees the transaction's own uncommitted rows", async () => {
    const rollback = new Error('rollback');
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(products).values(product('Camiseta Maracatu'));
        expect(await productByName(tx).execute({ name: 'Camiseta Maracatu' })).toHaveLength(1);
        if (kind === 'postgres') {
          // Another connection of the pool does not see the uncommitted row.
          expect(await productByName(database.db).execute({ name: 'Camiseta Maracatu' })).toEqual([]);
        }
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await productByName(database.db).execute({ name: 'Camiseta Maracatu' })).toEqual([]);
  });
});
