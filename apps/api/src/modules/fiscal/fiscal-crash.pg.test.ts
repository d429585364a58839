/**
 * A nota issued exactly once across a crash: the real server process (`src/main.ts`, INVOICING_PROVIDER=
 * focusnfe) takes the NF-e job of a paid order and sends the nota to the strict fake Focus NFe, which
 * records it and holds the answer; the process is killed with SIGKILL while it waits. The job is left
 * active, as a dead worker leaves it; pg-boss's maintenance puts an expired job back to `retry` (done
 * here by the same UPDATE rather than waiting for its two-minute pass). Another process then runs it:
 * it asks Focus NFe about the reference first, finds the nota and keeps it: one nota, never two.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../db/client.ts';
import { createFocusProvider } from '../../providers/invoicing/focus.provider.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import {
  documentsOf,
  paidCardOrder,
  saveFiscalSettings,
  saveProductFiscal,
} from '../../test/factories/fiscal.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { type ServerProcess, startServer } from '../../test/server-process.ts';
import {
  createEmptyPostgresDatabase,
  createTestApp,
  requirePostgres,
  type TestApp,
} from '../../test/test-app.ts';

requirePostgres();

let empty: { url: string; drop(): Promise<void> };
let database: Database;
let fake: FakeFocus;
let server: ServerProcess | null = null;
const apps: TestApp[] = [];

beforeAll(async () => {
  empty = await createEmptyPostgresDatabase();
  database = await openDatabase({ url: empty.url });
  await database.migrate();
  fake = await startFakeFocus();
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  for (const t of apps) await t.app.close();
  fake?.release();
  await fake?.close();
  await database?.close();
  await empty?.drop();
});

const appOn = async (jobs: boolean) => {
  const t = await createTestApp({
    database,
    env: { JOBS_ENABLED: String(jobs) },
    providers: { invoicing: createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 5000 }) },
  });
  apps.push(t);
  return t;
};

describe('SIGKILL while Focus NFe holds the NF-e request, then the job resumes', () => {
  it('issues the nota exactly once', async () => {
    // The sale, in a process that only enqueues: the paid order leaves its fiscal job waiting.
    const shop = await appOn(false);
    const admin = await createStaffAndLogin(shop.app, 'admin');
    await saveFiscalSettings(shop.app, admin.headers);
    const product = await makeProduct(database.db, { priceCents: 12990 });
    await saveProductFiscal(shop.app, admin.headers, product.id);
    const buyer = await makeBuyer(shop.app);
    const orderId = await paidCardOrder(shop.app, buyer, product);
    await shop.app.close();
    apps.pop();

    fake.holdPosts = true;
    server = await startServer({
      databaseUrl: empty.url,
      env: {
        INVOICING_PROVIDER: 'focusnfe',
        FOCUSNFE_URL: fake.url,
        FOCUSNFE_TOKEN: fake.token,
        FOCUSNFE_TIMEOUT_MS: '60000',
        JOBS_POLL_SECONDS: '0.5',
      },
    });
    await fake.held;
    await server.stop('SIGKILL');
    server = null;
    const ref = `passada-pedido-${orderId}-nfe`;
    expect(fake.issued.filter((i) => i.ref === ref)).toHaveLength(1);
    const [before] = await documentsOf(database.db, orderId);
    expect(before).toMatchObject({ ref, status: 'pendente' });

    // What pg-boss's maintenance does to a job whose worker died once it expires.
    const { rows } = (await database.db.execute(
      sql`update pgboss.job set state = 'retry', start_after = now() where name = 'fiscal.issue-order' and state = 'active' returning id`,
    )) as { rows: unknown[] };
    expect(rows).toHaveLength(1);
    fake.holdPosts = false;

    await appOn(true);
    const doc = await vi.waitFor(
      async () => {
        const [d] = await documentsOf(database.db, orderId);
        expect(d?.status).toBe('autorizada');
        return d!;
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(fake.issued.filter((i) => i.ref === ref)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(await documentsOf(database.db, orderId)).toHaveLength(1);
    expect(doc.accessKey).toBe(fake.docs.get(ref)!.key);
  });
});
