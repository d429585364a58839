import { count } from 'drizzle-orm';
import type { Env } from '../../config/env.ts';
import type { Db } from '../client.ts';
import { products } from '../schema/index.ts';
import { seedCatalog } from './catalog.ts';
import { seedCoupons } from './coupons.ts';
import { seedEvents } from './events.ts';
import { seedFiscal } from './fiscal.ts';
import { seedStaff } from './staff.ts';

export interface SeedOptions {
  /** The demo back-office logins, whose password the README prints. */
  staff: boolean;
}

import { demoStaffAllowed } from './staff.ts';

export { demoStaffAllowed };

/** Seeds the demo catalogue and events on an empty database; does nothing otherwise. */
export async function seedIfEmpty(db: Db, options: SeedOptions): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(products);
  if ((row?.n ?? 0) > 0) return false;
  await seedDemoData(db, options);
  return true;
}

/** What the server seeds at start: nothing unless SEED_DEMO_DATA, demo staff only with PAYMENTS=simulado. */
export function seedOnStart(db: Db, env: Pick<Env, 'SEED_DEMO_DATA' | 'PAYMENTS'>): Promise<boolean> {
  if (!env.SEED_DEMO_DATA) return Promise.resolve(false);
  return seedIfEmpty(db, { staff: demoStaffAllowed(env) });
}

export async function seedDemoData(db: Db, options: SeedOptions): Promise<void> {
  await seedCatalog(db);
  await seedEvents(db);
  if (options.staff) await seedStaff(db);
  await seedCoupons(db);
  await seedFiscal(db);
}
