import { count } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { products } from '../schema/index.ts';
import { seedCatalog } from './catalog.ts';
import { seedCoupons } from './coupons.ts';
import { seedEvents } from './events.ts';
import { seedStaff } from './staff.ts';

/** Seeds the demo catalogue and events on an empty database; does nothing otherwise. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(products);
  if ((row?.n ?? 0) > 0) return false;
  await seedDemoData(db);
  return true;
}

export async function seedDemoData(db: Db): Promise<void> {
  await seedCatalog(db);
  await seedEvents(db);
  await seedStaff(db);
  await seedCoupons(db);
}
