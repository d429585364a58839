import * as repo from './fiscal.repository.ts';
import { cancelDocument } from './fiscal-cancel.ts';
import type { FiscalContext } from './fiscal-context.ts';
import { ensureDocument } from './fiscal-documents.ts';
import { process } from './fiscal-process.ts';
import * as sale from './fiscal-sale.read-model.ts';

const purchaseDocument = (ctx: FiscalContext, batchId: number, nth: number, amountCents: number) => ({
  kind: 'nfse' as const,
  ref: `${ctx.refs.teamPlacesNfse(batchId)}${nth > 1 ? `-${nth}` : ''}`,
  orderId: null,
  registrationId: null,
  returnId: null,
  teamBatchId: batchId,
  amountCents,
});

/**
 * A team's places bought in one payment (docs/decisions/0077): one NFS-e of what the captain kept, once per
 * purchase (`-equipe-vagas-<batch>-nfse`), to the company's CNPJ and address when the captain named one,
 * otherwise without an identified taker (the captain is known by name and e-mail only). The members'
 * claims are registrations worth nothing, with no nota of their own.
 *
 * Both jobs run it: `fiscal.issue-team-places` when the purchase is paid, `fiscal.team-places-reduced`
 * when places nobody claimed were refunded at the close (decision 0073). A nota in force made for more
 * than was kept is cancelled and `…-nfse-2` issued for what was kept (none when nothing was); a
 * cancellation the city refuses leaves the nota with its reason for staff, and no second nota over it.
 */
export async function invoiceTeamPlaces(ctx: FiscalContext, batchId: number): Promise<void> {
  const t = await sale.teamPlacesForNota(ctx.db, batchId);
  if (!t) return;
  const kept = t.amountCents - t.refundedCents;
  const first =
    (await repo.findByRef(ctx.db, purchaseDocument(ctx, batchId, 1, kept).ref)) ??
    (kept > 0 ? await ensureDocument(ctx, purchaseDocument(ctx, batchId, 1, kept)) : null);
  if (!first) return;
  if (first.amountCents === kept) {
    await process(ctx, first.id);
    return;
  }
  await cancelDocument(
    ctx,
    first,
    `${t.unclaimedAtClose ?? 0} vagas da equipe não usadas foram devolvidas ao comprador; nota substituída pelo valor mantido.`,
  );
  if ((await repo.findDocument(ctx.db, first.id))?.status !== 'cancelada' || kept <= 0) return;
  const second = await ensureDocument(ctx, purchaseDocument(ctx, batchId, 2, kept));
  await process(ctx, second.id);
}
