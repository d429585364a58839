// Owner: catalog. The tables of the stock ledger: every change of stock with its reason, the order or charge and the staff member (a file of its own because a row points at an order, and orders point at products); only this module writes them (docs/architecture.md §9).
import { STOCK_MOVEMENT_KINDS } from '@passada/core/contracts/painel';
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { colors, products, sizes } from './catalog.ts';
import { orders } from './orders.ts';
import { charges } from './payments.ts';
import { staff } from './staff.ts';

/** Why stock changed; the wire uses the same words. */
export const stockReasons = STOCK_MOVEMENT_KINDS;

/** One row per change of a colour × size combination's stock, with its reason. */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    colorId: integer('color_id')
      .notNull()
      .references(() => colors.id),
    sizeId: integer('size_id')
      .notNull()
      .references(() => sizes.id),
    delta: integer('delta').notNull(),
    quantityAfter: integer('quantity_after').notNull(),
    reason: text('reason', { enum: stockReasons }).notNull(),
    note: text('note').notNull().default(''),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    /** The charge whose hold, sale or release this is (the shop's own movements). */
    chargeId: integer('charge_id').references(() => charges.id),
    /** The order, for a sale, a cancellation or a return. */
    orderId: integer('order_id').references(() => orders.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stock_movements_combo_idx').on(t.productId, t.colorId, t.sizeId, t.at),
    index('stock_movements_charge_idx').on(t.chargeId),
  ],
);
