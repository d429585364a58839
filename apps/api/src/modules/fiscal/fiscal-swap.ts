import type { Db, Tx } from '../../db/client.ts';
import * as repo from './fiscal.repository.ts';
import { cancelDocument } from './fiscal-cancel.ts';
import { type FiscalContext, FiscalPending, NFE_CANCEL_WINDOW_MS } from './fiscal-context.ts';
import { ensureDocument, orderNfeInForce } from './fiscal-documents.ts';
import { process } from './fiscal-process.ts';
import * as sale from './fiscal-sale.read-model.ts';

/**
 * Units swapped to another colour or size before shipping (docs/decisions/0065, later): the goods that
 * will leave are not those the NF-e names, so the NF-e is replaced. SEFAZ lets the issuer cancel an NF-e
 * within 24 hours of its authorisation when the goods have not left; a carta de correção cannot change the
 * goods themselves. The order's change path refuses a swap once that window is too close to its end
 * (`orderNfeReplaceable`), so here the NF-e is cancelled and a new one issued with the order's lines as
 * they are now. An NF-e not yet sent is built from the current lines when it is, and needs nothing.
 */

/** A swap is refused this long before the NF-e's 24 hours end: the cancellation must still reach SEFAZ. */
const SWAP_MARGIN_MS = 30 * 60_000;

/**
 * Whether the order's NF-e can still be replaced (none yet, not sent, or authorised less than 23 h 30 ago):
 * the order change path asks before it swaps units. Read in the caller's transaction.
 */
export async function orderNfeReplaceable(
  ctx: FiscalContext,
  conn: Db | Tx,
  orderId: number,
): Promise<boolean> {
  const doc = await orderNfeInForce(ctx, orderId, conn);
  if (doc?.status !== 'autorizada' || !doc.authorisedAt) return true;
  return ctx.now().getTime() - doc.authorisedAt.getTime() < NFE_CANCEL_WINDOW_MS - SWAP_MARGIN_MS;
}

/** The number of the NF-e that replaces `ref`: 2 after the first (`…-nfe`), n + 1 after `…-nfe-n`. */
const nextIssue = (ref: string, first: string) =>
  ref === first ? 2 : Number(ref.slice(first.length + 1)) + 1;

/** `fiscal.order-swapped`: the NF-e made before the swap (`swappedAt`) cancelled and issued again. */
export async function orderSwapped(ctx: FiscalContext, orderId: number, swappedAt: Date): Promise<void> {
  const { db, refs } = ctx;
  const doc = await orderNfeInForce(ctx, orderId);
  // Not made yet, or fixed after the swap: it lists the order's lines as they are now.
  if (!doc || doc.status === 'cancelada' || doc.issuedAt > swappedAt) return;
  if (doc.status === 'pendente') {
    // Never sent: its first call builds it from the current lines.
    if (doc.attempts === 0) return;
    throw new FiscalPending('NF-e do pedido ainda em emissão.');
  }
  if (doc.status !== 'autorizada') return;
  await cancelDocument(
    ctx,
    doc,
    `Pedido ${orderId} alterado antes do envio (cor ou tamanho): NF-e substituída.`,
  );
  const after = await repo.findDocument(db, doc.id);
  if (after?.status !== 'cancelada') return;
  const order = await sale.orderForNota(db, orderId);
  if (!order?.items.length || order.status === 'cancelado') return;
  const again = await ensureDocument(ctx, {
    kind: 'nfe',
    ref: refs.orderNfeAgain(orderId, nextIssue(doc.ref, refs.orderNfe(orderId))),
    orderId,
    registrationId: null,
    returnId: null,
    amountCents: order.subtotalCents + order.shippingCents - order.discountCents,
  });
  await process(ctx, again.id);
}
