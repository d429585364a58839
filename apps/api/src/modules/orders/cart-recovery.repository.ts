import { eq, gte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  type CartItemRow,
  carts,
  recoveryOptOuts,
  recoveryReminders,
  recoverySettings,
  recoveryWhatsapp,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

/** The reminders' settings when staff never saved any: on, an hour after the buyer left. */
export const DEFAULT_RECOVERY = { active: true, delayMinutes: 60, lockVersion: 0 };

/** One line per product, colour and size: the key lines are merged and matched by. */
export const cartKey = (i: Pick<CartItemRow, 'productId' | 'colorId' | 'sizeId'>) =>
  `${i.productId}:${i.colorId}:${i.sizeId}`;

/** The account's cart; `lock` holds its row until the transaction ends (a read before a write). */
export async function findCart(db: Conn, userId: number, opts: { lock?: boolean } = {}) {
  const query = db.select().from(carts).where(eq(carts.userId, userId));
  const [row] = await (opts.lock ? query.for('update') : query);
  return row ?? null;
}

/**
 * Writes the whole cart. Going from empty to holding something starts a new cart (its own reminder);
 * emptied, it is no cart at all.
 */
export async function saveCart(tx: Tx, userId: number, items: CartItemRow[], now: Date) {
  const before = await findCart(tx, userId, { lock: true });
  const startedAt = items.length === 0 ? null : before?.items.length ? (before.startedAt ?? now) : now;
  await tx
    .insert(carts)
    .values({ userId, items, startedAt, updatedAt: now })
    .onConflictDoUpdate({ target: carts.userId, set: { items, startedAt, updatedAt: now } });
}

/**
 * A paid order takes its lines out of the buyer's kept cart (the browser empties its own after the
 * order; a tab closed before it saved must not bring them back on the next sign-in).
 */
export async function removeBought(
  tx: Tx,
  userId: number,
  bought: Array<Pick<CartItemRow, 'productId' | 'colorId' | 'sizeId'>>,
  now: Date,
): Promise<void> {
  const cart = await findCart(tx, userId, { lock: true });
  if (!cart?.items.length) return;
  const gone = new Set(bought.map(cartKey));
  const left = cart.items.filter((i) => !gone.has(cartKey(i)));
  if (left.length !== cart.items.length) await saveCart(tx, userId, left, now);
}

export async function hasOptedOut(db: Conn, userId: number): Promise<boolean> {
  const [row] = await db.select().from(recoveryOptOuts).where(eq(recoveryOptOuts.userId, userId));
  return Boolean(row);
}

export async function setOptOut(db: Conn, userId: number, optedOut: boolean, now: Date): Promise<void> {
  if (optedOut) await db.insert(recoveryOptOuts).values({ userId, at: now }).onConflictDoNothing();
  else await db.delete(recoveryOptOuts).where(eq(recoveryOptOuts.userId, userId));
}

export async function readSettings(db: Conn) {
  const [row] = await db.select().from(recoverySettings).where(eq(recoverySettings.id, 1));
  return row ?? DEFAULT_RECOVERY;
}

/** Saves staff's choice if nobody saved since `lockVersion`; false when someone did. */
export async function writeSettings(
  tx: Tx,
  values: { active: boolean; delayMinutes: number; lockVersion: number },
  now: Date,
): Promise<boolean> {
  const current = await readSettings(tx);
  if (current.lockVersion !== values.lockVersion) return false;
  const set = { active: values.active, delayMinutes: values.delayMinutes, updatedAt: now };
  const [row] = await tx
    .insert(recoverySettings)
    .values({ id: 1, ...set, lockVersion: 1 })
    .onConflictDoUpdate({
      target: recoverySettings.id,
      set: { ...set, lockVersion: sql`${recoverySettings.lockVersion} + 1` },
      where: eq(recoverySettings.lockVersion, values.lockVersion),
    })
    .returning({ id: recoverySettings.id });
  return Boolean(row);
}

/** Records a reminder; null when this cart or charge was already reminded (the "never twice"). */
export async function insertReminder(
  tx: Tx,
  values: { userId: number; kind: 'carrinho' | 'inscricao'; ref: string; eventId: number | null },
  now: Date,
) {
  const [row] = await tx
    .insert(recoveryReminders)
    .values({ ...values, sentAt: now })
    .onConflictDoNothing()
    .returning({ id: recoveryReminders.id });
  return row?.id ?? null;
}

export async function findReminder(db: Conn, id: number) {
  const [row] = await db.select().from(recoveryReminders).where(eq(recoveryReminders.id, id));
  return row ?? null;
}

export async function remindersSince(db: Conn, since: Date) {
  return db
    .select({ kind: recoveryReminders.kind, n: sql<number>`count(*)::int` })
    .from(recoveryReminders)
    .where(gte(recoveryReminders.sentAt, since))
    .groupBy(recoveryReminders.kind);
}

/** An erased account's cart, reminders and choice go with it. */
export async function deleteOfUser(tx: Tx, userId: number): Promise<void> {
  await tx.delete(carts).where(eq(carts.userId, userId));
  await tx.delete(recoveryReminders).where(eq(recoveryReminders.userId, userId));
  await tx.delete(recoveryOptOuts).where(eq(recoveryOptOuts.userId, userId));
  await tx.delete(recoveryWhatsapp).where(eq(recoveryWhatsapp.userId, userId));
}

/** The account's WhatsApp opt-in for the reminders (docs/decisions/0084), or null. */
export async function whatsappOf(db: Conn, userId: number) {
  const [row] = await db.select().from(recoveryWhatsapp).where(eq(recoveryWhatsapp.userId, userId));
  return row ?? null;
}

/** Records the opt-in with the number and now, or removes it (null). */
export async function setWhatsapp(db: Conn, userId: number, phone: string | null, now: Date): Promise<void> {
  if (phone === null) {
    await db.delete(recoveryWhatsapp).where(eq(recoveryWhatsapp.userId, userId));
    return;
  }
  await db
    .insert(recoveryWhatsapp)
    .values({ userId, phone, consentAt: now })
    .onConflictDoUpdate({ target: recoveryWhatsapp.userId, set: { phone, consentAt: now } });
}
