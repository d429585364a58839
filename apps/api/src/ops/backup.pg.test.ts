import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';
import { makeProduct } from '../test/factories/catalog.ts';
import { makeEvent } from '../test/factories/events.ts';
import {
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
  postOrder,
} from '../test/factories/orders.ts';
import {
  createStaffAndLogin,
  picture,
  settledImages,
  uploadProductPhoto,
  uploadProof,
} from '../test/factories/painel.ts';
import { simulatePixPaid } from '../test/factories/payments.ts';
import { participant, registrationPix } from '../test/factories/registrations.ts';
import {
  createEmptyPostgresDatabase,
  createTestApp,
  requirePostgres,
  type TestApp,
} from '../test/test-app.ts';
import { createBackup, RestoreRefused, restoreBackup } from './backup.ts';

requirePostgres();

/** Every file under a folder with a digest of its bytes, keyed by its path inside the folder. */
function filesIn(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file), createHash('sha256').update(readFileSync(file)).digest('hex'));
  }
  return files;
}

type Rows = { rows: Array<Record<string, unknown>> };

describe('restore drill: a backup put back into a fresh PostgreSQL database', () => {
  let t: TestApp;
  let source: { url: string; drop(): Promise<void> };
  let fresh: { url: string; drop(): Promise<void> };
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'passada-drill-'));
    folders.push(dir);
    return dir;
  };

  beforeAll(async () => {
    // The shop's own database, named so the backup can reach it as production would (DATABASE_URL).
    source = await createEmptyPostgresDatabase();
    const database = await openDatabase({ url: source.url });
    await database.migrate();
    t = await createTestApp({ database });
    fresh = await createEmptyPostgresDatabase();
  });
  afterAll(async () => {
    await t.close();
    await source.drop();
    await fresh.drop();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the same orders, registrations and photos after the restore', async () => {
    const { app } = t;
    // An order paid by Pix.
    const product = await makeProduct(app.db);
    const buyer = await makeBuyer(app);
    const draft = orderDraft(buyer, [{ product }]);
    const { txid } = (
      await createOrderPix(
        app,
        buyer.headers,
        draft,
        await draftTotalCents(app, buyer.zipCode, draft, [product]),
      )
    ).json<{ txid: string }>();
    await simulatePixPaid(app, txid);
    expect((await postOrder(app, buyer.headers, txid)).statusCode).toBe(201);
    // A registration paid by Pix.
    const event = await makeEvent(app.db, { today: app.now().toISOString().slice(0, 10) });
    const registrationDraft = participant(event, [event.days[0]!.categories[0]!.id]);
    // The first category of the factory's event costs R$ 89,90.
    const pix = await registrationPix(app, registrationDraft, 89.9, buyer.headers);
    expect(pix.statusCode).toBe(201);
    expect((await simulatePixPaid(app, pix.json().txid)).statusCode).toBe(200);
    // A product photo, resized by the queue.
    const admin = await createStaffAndLogin(app);
    const upload = await uploadProductPhoto(app, admin, product.id, {
      bytes: await picture('jpeg', 1300),
      filename: 'frente.jpg',
      type: 'image/jpeg',
    });
    expect(upload.statusCode).toBe(202);
    expect((await settledImages(app, admin, product.id)).map((i) => i.status)).toContain('pronta');

    // A special price's document (docs/decisions/0068), kept privately under DATA_DIR.
    const sent = await uploadProof(app, buyer, await picture('png', 600), 'cie.png', 'image/png');
    expect(sent.statusCode).toBe(201);

    const backups = folder();
    const shopEnv = loadEnv({ NODE_ENV: 'test', DATA_DIR: t.dataDir, DATABASE_URL: source.url });
    const { file, manifest } = await createBackup(shopEnv, backups, new Date('2026-11-25T03:00:00Z'));
    expect(path.basename(file)).toBe('passada-backup-20261125T030000Z.tar.gz');
    expect(manifest).toMatchObject({
      database: 'postgres',
      counts: { orders: 1, registrations: 1, photos: 1, proof_files: 1 },
    });
    expect(manifest.counts.media_files).toBeGreaterThan(1);

    // Another machine: a fresh database and an empty photo folder.
    const dataDir = folder();
    const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: fresh.url });
    const restored = await restoreBackup(env, file);
    expect(restored.counts).toEqual(manifest.counts);
    expect(filesIn(env.mediaDir)).toEqual(filesIn(t.env.mediaDir));
    const proofs = path.join(dataDir, 'comprovantes');
    expect(filesIn(proofs)).toEqual(filesIn(path.join(t.dataDir, 'comprovantes')));
    expect(statSync(proofs).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(proofs))
      expect(statSync(path.join(proofs, name)).mode & 0o777).toBe(0o600);

    const copy = await openDatabase({ url: fresh.url });
    try {
      const read = async (db: typeof copy.db, query: ReturnType<typeof sql>) =>
        ((await db.execute(query)) as Rows).rows;
      for (const query of [
        sql`select id, charge_id, total_cents, status from orders order by id`,
        sql`select id, event_id, cpf, charge_id from registrations order by id`,
        sql`select id, folder, name, status from photos order by id`,
      ]) {
        expect(await read(copy.db, query)).toEqual(await read(app.db, query));
      }
    } finally {
      await copy.close();
    }

    // A second restore over a database that has data is refused, not mixed in.
    await expect(restoreBackup(env, file)).rejects.toBeInstanceOf(RestoreRefused);
  });
});
