import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';

describe('embedded database in a folder', () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'passada-pglite-'));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('creates a new folder (initdb in a worker), keeps what was written and opens it again', async () => {
    const dir = path.join(parent, 'nova', 'pglite');
    const first = await openDatabase({ dataDir: dir });
    expect(first.kind).toBe('pglite');
    await first.db.execute(sql`create table marca (nome text)`);
    await first.db.execute(sql`insert into marca values ('primeira abertura')`);
    await first.close();

    const again = await openDatabase({ dataDir: dir });
    const { rows } = (await again.db.execute(sql`select nome from marca`)) as unknown as {
      rows: { nome: string }[];
    };
    expect(rows).toEqual([{ nome: 'primeira abertura' }]);
    await again.close();
  });
});
