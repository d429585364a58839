import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';

/**
 * What this relies on inside Drizzle (pinned at 0.45; the payment and order suites run through it):
 * a database or transaction runs its statements through `session.client` (the pool, a pool client, the
 * PGlite instance or its transaction), and a prepared query keeps the connection it runs on in `client`.
 */
interface WithSession {
  session: { client: object };
}

/**
 * A query of a fixed shape built once, its values given as `sql.placeholder`s, that runs on whichever
 * connection it is handed: the database or a transaction. Drizzle's own `.prepare()` ties the query to
 * the connection it was built on, so it could not run inside a transaction; building a statement (the
 * query builder turning columns and conditions into SQL text) costs about as much of the server's CPU
 * as sending it and reading its rows, and the payment path runs the same few shapes over and over.
 *
 * `name` names the statement PostgreSQL keeps prepared on each connection; one name per query.
 */
export function prepared<Q>(name: string, build: (conn: Db | Tx) => { prepare(name: string): Q }) {
  // One built query per driver (PostgreSQL or PGlite): the text is the same for every database.
  const built = new WeakMap<object, Q>();
  return (conn: Db | Tx): Q => {
    const { session } = conn as unknown as WithSession;
    let query = built.get(session.constructor);
    if (!query) {
      query = build(conn).prepare(name);
      built.set(session.constructor, query);
    }
    // The built query, running on this connection instead of the one it was built on.
    return Object.create(query as object, { client: { value: session.client } }) as Q;
  };
}

/**
 * `column = any($ids)` for a prepared query: one statement text for a list of any length, given as an
 * array in the `ids` placeholder (`inArray` writes one parameter per element, a new text per length).
 */
export const inIds = (column: AnyPgColumn) => sql`${column} = any(${sql.placeholder('ids')})`;
