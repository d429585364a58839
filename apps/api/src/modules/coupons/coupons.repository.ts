import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { coupons, couponUses } from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type CouponRow = typeof coupons.$inferSelect;
export type NewCoupon = typeof coupons.$inferInsert;
export type CouponUseRow = typeof couponUses.$inferSelect;

/** Uses that count against the limits: held by an open charge, or paid. */
const COUNTED = ['reservado', 'confirmado'] as const;

export async function findByCode(db: Conn, code: string): Promise<CouponRow | null> {
  const [row] = await db.select().from(coupons).where(sql`lower(${coupons.code}) = lower(${code})`).limit(1);
  return row ?? null;
}

export async function findById(db: Conn, id: number): Promise<CouponRow | null> {
  const [row] = await db.select().from(coupons).where(eq(coupons.id, id)).limit(1);
  return row ?? null;
}

/**
 * Locks the coupon's row until the transaction ends: holds of the same coupon are counted and
 * inserted one at a time, so two buyers can never both take its last use.
 */
export async function lockCoupon(tx: Tx, id: number): Promise<CouponRow | null> {
  const [row] = await tx.select().from(coupons).where(eq(coupons.id, id)).for('update');
  return row ?? null;
}

export interface UseCounts {
  total: number;
  account: number;
  cpf: number;
}

/** Held and confirmed uses of a coupon: in all, by this account, by this CPF; `exceptCharge` left out. */
export async function countUses(
  db: Conn,
  couponId: number,
  who: { userId: number; cpf?: string | undefined },
  exceptChargeId?: number,
): Promise<UseCounts> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      account: sql<number>`(count(*) filter (where ${couponUses.userId} = ${who.userId}))::int`,
      cpf: sql<number>`(count(*) filter (where ${couponUses.cpf} = ${who.cpf ?? null}))::int`,
    })
    .from(couponUses)
    .where(
      and(
        eq(couponUses.couponId, couponId),
        inArray(couponUses.status, [...COUNTED]),
        exceptChargeId === undefined ? undefined : ne(couponUses.chargeId, exceptChargeId),
      ),
    );
  return row ?? { total: 0, account: 0, cpf: 0 };
}

/** Holds a use for the charge; a charge held again after it ended (late Pix) takes its row back. */
export async function holdUse(
  tx: Tx,
  values: {
    couponId: number;
    chargeId: number;
    userId: number;
    cpf: string | null;
    discountCents: number;
    at: Date;
  },
): Promise<void> {
  await tx
    .insert(couponUses)
    .values({
      couponId: values.couponId,
      chargeId: values.chargeId,
      userId: values.userId,
      cpf: values.cpf,
      discountCents: values.discountCents,
      status: 'reservado',
      createdAt: values.at,
    })
    .onConflictDoUpdate({
      target: couponUses.chargeId,
      set: { status: 'reservado', releasedAt: null },
    });
}

/** Gives a held use back; a confirmed one stays (the purchase was paid). */
export async function releaseUse(tx: Tx, chargeId: number, at: Date): Promise<void> {
  await tx
    .update(couponUses)
    .set({ status: 'liberado', releasedAt: at })
    .where(and(eq(couponUses.chargeId, chargeId), eq(couponUses.status, 'reservado')));
}

/** A refunded order's use (held or spent) counts no more. */
export async function returnUse(tx: Tx, chargeId: number, at: Date): Promise<void> {
  await tx
    .update(couponUses)
    .set({ status: 'liberado', releasedAt: at })
    .where(and(eq(couponUses.chargeId, chargeId), inArray(couponUses.status, ['reservado', 'confirmado'])));
}

export async function confirmUse(tx: Tx, chargeId: number, at: Date): Promise<void> {
  await tx
    .update(couponUses)
    .set({ status: 'confirmado', confirmedAt: at })
    .where(and(eq(couponUses.chargeId, chargeId), eq(couponUses.status, 'reservado')));
}

export async function findUseByCharge(db: Conn, chargeId: number): Promise<CouponUseRow | null> {
  const [row] = await db.select().from(couponUses).where(eq(couponUses.chargeId, chargeId)).limit(1);
  return row ?? null;
}

export interface CouponWithUses extends CouponRow {
  confirmedUses: number;
  heldUses: number;
  confirmedDiscountCents: number;
}

/** Every coupon, newest first, with its uses counted (the back office's list). */
export async function listWithUses(db: Conn, id?: number): Promise<CouponWithUses[]> {
  const uses = db
    .select({
      couponId: couponUses.couponId,
      confirmed: sql<number>`(count(*) filter (where ${couponUses.status} = 'confirmado'))::int`.as(
        'confirmed',
      ),
      held: sql<number>`(count(*) filter (where ${couponUses.status} = 'reservado'))::int`.as('held'),
      discount:
        sql<number>`(coalesce(sum(${couponUses.discountCents}) filter (where ${couponUses.status} = 'confirmado'), 0))::int`.as(
          'discount',
        ),
    })
    .from(couponUses)
    .groupBy(couponUses.couponId)
    .as('uses');
  const rows = await db
    .select({ coupon: coupons, confirmed: uses.confirmed, held: uses.held, discount: uses.discount })
    .from(coupons)
    .leftJoin(uses, eq(uses.couponId, coupons.id))
    .where(id === undefined ? undefined : eq(coupons.id, id))
    .orderBy(sql`${coupons.active} desc`, sql`${coupons.createdAt} desc`, sql`${coupons.id} desc`);
  return rows.map((r) => ({
    ...r.coupon,
    confirmedUses: r.confirmed ?? 0,
    heldUses: r.held ?? 0,
    confirmedDiscountCents: r.discount ?? 0,
  }));
}

export async function insertCoupon(tx: Tx, values: NewCoupon): Promise<CouponRow> {
  const [row] = await tx.insert(coupons).values(values).returning();
  if (!row) throw new Error('cupom não inserido');
  return row;
}

export async function updateCoupon(
  tx: Tx,
  id: number,
  values: Partial<NewCoupon>,
): Promise<CouponRow | null> {
  const [row] = await tx.update(coupons).set(values).where(eq(coupons.id, id)).returning();
  return row ?? null;
}
