import pg from 'pg';

/**
 * The name of each statement text seen so far. PostgreSQL keeps a named statement parsed and planned
 * on its connection; an unnamed one (the driver's default) is parsed and planned again on every run.
 */
const names = new Map<string, string>();
/**
 * Texts beyond this many run unnamed: a connection keeps every statement it prepared until it closes,
 * so a query whose text varies without end (a list of a new length each time) must not grow it forever.
 * The shop's fixed queries are a few hundred.
 */
export const MAX_NAMED_STATEMENTS = 2000;

type Named<T> = T & { name?: string };

/** The query config with a stable name for its text, or unchanged when it cannot or need not have one. */
export function withStatementName<T>(config: T): Named<T> {
  if (typeof config !== 'object' || config === null) return config as Named<T>;
  const query = config as { text?: unknown; name?: unknown; submit?: unknown };
  // Plain strings (several statements at once, as migrations and pg-boss's schema send them), query
  // objects of their own (`submit`) and statements already named by the code stay as they are.
  if (typeof query.text !== 'string' || query.name || query.submit) return config as Named<T>;
  let name = names.get(query.text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED_STATEMENTS) return config as Named<T>;
    name = `passada_${names.size}`;
    names.set(query.text, name);
  }
  return { ...config, name };
}

/**
 * A pool client that prepares each statement once per connection. A paid order runs about thirty
 * statements of a few fixed shapes; with them prepared, PostgreSQL skips parsing and planning them
 * (the larger part of a short statement's cost) and the driver skips sending their text.
 *
 * Not for a transaction-mode connection pooler (PgBouncer before 1.21), where consecutive statements of
 * one client may reach different server connections: `DB_PREPARED_STATEMENTS=false` turns it off.
 */
export class NamedStatementsClient extends pg.Client {
  // pg's `query` has a dozen overloads; every call passes through unchanged but for the name.
  override query(...args: unknown[]): never {
    const [config, ...rest] = args;
    return (super.query as (...a: unknown[]) => never)(withStatementName(config), ...rest);
  }
}
