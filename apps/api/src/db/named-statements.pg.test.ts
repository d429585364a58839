import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyPostgresDatabase } from '../test/test-app.ts';
import { type Database, openDatabase } from './client.ts';
import { MAX_NAMED_STATEMENTS, withStatementName } from './named-statements.ts';
import { products } from './schema/index.ts';

describe('statements prepared once per PostgreSQL connection', () => {
  let empty: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;
  const opened: Database[] = [];
  const open = async (preparedStatements?: boolean) => {
    const database = await openDatabase({ url: empty.url, poolMax: 1, preparedStatements });
    opened.push(database);
    await database.migrate();
    return database;
  };
  /** The statements the pool's one connection holds prepared, as PostgreSQL lists them. */
  const prepared = async (database: Database) => {
    const pool = (database.db as unknown as { $client: pg.Pool }).$client;
    const { rows } = await pool.query<{ statement: string }>('select statement from pg_prepared_statements');
    return rows.map((r) => r.statement);
  };
  const productQuery = (database: Database, id: number) =>
    database.db.select({ name: products.name }).from(products).where(eq(products.id, id));

  beforeAll(async () => {
    empty = await createEmptyPostgresDatabase();
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    await empty.drop();
  });

  it('keeps a query the code builds prepared on its connection and answers it as before', async () => {
    const database = await open();
    expect(await productQuery(database, 1)).toEqual([]);
    const [row] = await database.db
      .insert(products)
      .values({
        name: 'Regata Dunas',
        description: 'Regata leve',
        priceCents: 9990,
        category: 'masculino',
        weightGrams: 120,
        lengthCm: 30,
        widthCm: 20,
        heightCm: 2,
      })
      .returning({ id: products.id });
    // The same text with other values runs the statement prepared by the first call.
    expect(await productQuery(database, row!.id)).toEqual([{ name: 'Regata Dunas' }]);
    const statements = await prepared(database);
    const selects = statements.filter((s) => s.startsWith('select "name" from "products"'));
    expect(selects).toHaveLength(1);
  });

  it('prepares nothing with DB_PREPARED_STATEMENTS=false', async () => {
    const database = await open(false);
    await productQuery(database, 1);
    expect(await prepared(database)).toEqual([]);
  });

  it('names each text once, leaves plain strings and named statements alone', () => {
    const a = withStatementName({ text: 'select 1 where $1::int > 0', values: [1] });
    const again = withStatementName({ text: 'select 1 where $1::int > 0', values: [2] });
    const b = withStatementName({ text: 'select 2 where $1::int > 0', values: [1] });
    expect(a.name).toBeTruthy();
    expect(again.name).toBe(a.name);
    expect(again.values).toEqual([2]);
    expect(b.name).not.toBe(a.name);
    expect(withStatementName('create table a (); create table b ()')).toBe(
      'create table a (); create table b ()',
    );
    const named = { text: 'select 3', name: 'mine' };
    expect(withStatementName(named)).toBe(named);
  });

  it(`stops naming new texts after ${MAX_NAMED_STATEMENTS}, so a connection's prepared statements stay bounded`, () => {
    for (let i = 0; i < MAX_NAMED_STATEMENTS; i++) withStatementName({ text: `select ${i} + $1::int` });
    const beyond = { text: 'select $1::int as one_more' };
    expect(withStatementName(beyond)).toBe(beyond);
    // Texts named before the cap keep their names.
    expect(withStatementName({ text: 'select 1 where $1::int > 0' }).name).toBeTruthy();
  });
});
