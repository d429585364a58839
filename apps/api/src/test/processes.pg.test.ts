import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../db/client.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { createEmptyPostgresDatabase, requirePostgres } from './test-app.ts';

requirePostgres();

let empty: { url: string; drop(): Promise<void> };
let servers: ServerProcess[] = [];
beforeAll(async () => {
  empty = await createEmptyPostgresDatabase();
  // Three processes at once on an empty database, each one migrating and seeding at start.
  servers = await Promise.all(
    [0, 1, 2].map(() =>
      startServer({
        databaseUrl: empty.url,
        env: {
          SEED_DEMO_DATA: 'true',
          SIGNUP_RATE_LIMIT_MAX: '3',
          JOBS_POLL_SECONDS: '0.5',
          SHUTDOWN_GRACE_SECONDS: '1',
          // The lockout test above leaves failures for 127.0.0.1; the SIGTERM test must not meet the IP cap.
          LOGIN_MAX_FAILURES_PER_IP: '1000',
        },
      }),
    ),
  );
}, 180_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await empty?.drop();
});

async function query<T>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: empty.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const post = (server: ServerProcess, url: string, body: object) =>
  fetch(`${server.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('several server processes on one PostgreSQL database', () => {
  it('started together, they leave one schema and one copy of the demo data', async () => {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const [migrations] = await query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations');
    expect(Number(migrations?.n)).toBe(journal.entries.length);
    const [products] = await query<{ n: string; names: string }>(
      'select count(*) as n, count(distinct name) as names from products',
    );
    expect(Number(products?.n)).toBeGreaterThan(0);
    expect(products?.n).toBe(products?.names);
    const [events] = await query<{ n: string; names: string }>(
      'select count(*) as n, count(distinct nome_evento) as names from events',
    );
    expect(Number(events?.n)).toBeGreaterThan(0);
    expect(events?.n).toBe(events?.names);
  });

  it('enforce one sign-up limit per IP between them', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await post(servers[i % 2]!, '/api/users/', {
        username: `balanceado${i}`,
        email: `balanceado${i}@example.com`,
        full_name: 'Pessoa Balanceada',
        password: 'senha longa o bastante',
      });
      codes.push(res.status);
    }
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.slice(3).every((c) => c === 429)).toBe(true);
  });

  it('enforce one login lockout between them, wrong passwords sent to both at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        post(servers[i % 2]!, '/api/token-auth/', { username: 'balanceado0', password: `errada ${i}` }).then(
          async (r) => ({ status: r.status, detail: ((await r.json()) as { detail: string }).detail }),
        ),
      ),
    );
    const invalid = results.filter((r) => r.detail === 'Credenciais inválidas');
    expect(invalid.length).toBeLessThanOrEqual(10);
    expect(results.filter((r) => r.status === 429).length).toBe(40 - invalid.length);
  });

  it('on SIGTERM a process answers every request in flight, then exits cleanly', async () => {
    const target = servers[2]!;
    // Logins to 30 different unknown accounts: each costs an argon2 hash (the dummy one), so together
    // they keep the server busy; each must still get its ordinary answer.
    const inFlight = Array.from({ length: 30 }, (_, i) =>
      post(target, '/api/token-auth/', { username: `ninguem${i}`, password: 'qualquer senha' }).then(
        async (r) => `${r.status} ${((await r.json()) as { detail: string }).detail}`,
        (e: unknown) => `falhou: ${e instanceof Error ? e.message : String(e)}`,
      ),
    );
    // Each login records its attempt before hashing: once all 30 rows exist, all 30 are inside the
    // server, so SIGTERM lands while they are in flight however slow the machine is.
    const deadline = Date.now() + 15_000;
    for (let seen = 0; seen < 30 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 20));
      const [row] = await query<{ n: string }>(
        "select count(*) as n from login_failures where account like 'ninguem%'",
      );
      seen = Number(row?.n);
    }
    const code = target.stop('SIGTERM');
    const statuses = await Promise.all(inFlight);
    expect(statuses).toEqual(Array(30).fill('400 Credenciais inválidas'));
    expect(await code).toBe(0);
    await expect(fetch(`${target.url}/api/health`)).rejects.toThrow();
  });
});
