import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { addresses, users } from '../../db/schema/index.ts';

type Conn = Db | Tx;
export type AddressRow = typeof addresses.$inferSelect;
export type AddressValues = Pick<
  AddressRow,
  | 'fullName'
  | 'zipCode'
  | 'state'
  | 'city'
  | 'neighborhood'
  | 'street'
  | 'number'
  | 'complement'
  | 'phone'
  | 'isPrimary'
>;

/** Serialises address changes of one user (first address, primary switch) across connections. */
export async function lockUser(tx: Tx, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export function listByUser(db: Conn, userId: number): Promise<AddressRow[]> {
  return db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.id));
}

// Built once (db/prepared.ts): every order and Pix charge reads its delivery address.
const ownedAddress = prepared('address_owned', (c) =>
  c
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, sql.placeholder('id')), eq(addresses.userId, sql.placeholder('userId'))))
    .limit(1),
);

/** By id AND owner: another user's address reads as missing (docs/architecture.md §4). */
export async function findOwned(db: Conn, userId: number, id: number): Promise<AddressRow | null> {
  const [row] = await ownedAddress(db).execute({ userId, id });
  return row ?? null;
}

export async function unsetPrimary(db: Conn, userId: number, exceptId?: number): Promise<void> {
  await db
    .update(addresses)
    .set({ isPrimary: false })
    .where(
      and(
        eq(addresses.userId, userId),
        eq(addresses.isPrimary, true),
        exceptId === undefined ? undefined : ne(addresses.id, exceptId),
      ),
    );
}

export async function insert(db: Conn, userId: number, values: AddressValues): Promise<AddressRow> {
  const [row] = await db
    .insert(addresses)
    .values({ userId, ...values })
    .returning();
  if (!row) throw new Error('insert addresses returned nothing');
  return row;
}

export async function update(db: Conn, userId: number, id: number, values: Partial<AddressValues>) {
  const [row] = await db
    .update(addresses)
    .set(values)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return row ?? null;
}

export async function remove(db: Conn, userId: number, id: number): Promise<AddressRow | null> {
  const [row] = await db
    .delete(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return row ?? null;
}
