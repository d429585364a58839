import type { FiscalContext } from './fiscal-context.ts';
import { ensureDocument } from './fiscal-documents.ts';
import { process } from './fiscal-process.ts';
import * as sale from './fiscal-sale.read-model.ts';

/** Issuing an order's NF-e once it is paid (`fiscal.issue-order`), once by its reference. */
export async function issueOrder(ctx: FiscalContext, orderId: number): Promise<void> {
  const { db, refs } = ctx;
  const order = await sale.orderForNota(db, orderId);
  if (!order?.items.length || order.status === 'cancelado') return;
  const doc = await ensureDocument(ctx, {
    kind: 'nfe',
    ref: refs.orderNfe(orderId),
    orderId,
    registrationId: null,
    returnId: null,
    amountCents: order.subtotalCents + order.shippingCents - order.discountCents,
  });
  await process(ctx, doc.id);
}
