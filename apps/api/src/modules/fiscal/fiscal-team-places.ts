import * as repo from './fiscal.repository.ts';
import { cancelDocument } from './fiscal-cancel.ts';
import type { FiscalContext } from './fiscal-context.ts';
import { ensureDocument } from './fiscal-documents.ts';
import { process } from './fiscal-process.ts';
import * as sale from './fiscal-sale.read-model.ts';

/**
 * A team's places bought in one payment (docs/decisions/0077): one NFS-e of the whole amount, once per
 * purchase (`-equipe-vagas-<batch>-nfse`), to the company's CNPJ and address when the captain named one,
 * otherwise without an identified taker (the captain is known by name and e-mail only). The members'
 * claims are registrations worth nothing, with no nota of their own.
 */
export async function issueTeamPlaces(ctx: FiscalContext, batchId: number): Promise<void> {
  const t = await sale.teamPlacesForNota(ctx.db, batchId);
  const kept = t ? t.amountCents - t.refundedCents : 0;
  if (kept <= 0) return;
  // Closed before its nota was made: the first nota says what was kept.
  const doc = await ensureDocument(ctx, purchaseDocument(ctx, batchId, 1, kept));
  await process(ctx, doc.id);
}

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
 * Places nobody claimed were refunded at the close (decision 0073): the purchase's NFS-e in force, made
 * for more than was kept, is cancelled and a new one (`…-nfse-2`) issued for what the captain kept;
 * nothing when nothing was kept. A cancellation the city refuses leaves the nota with its reason for
 * staff, and no second nota is made over it.
 */
export async function teamPlacesReduced(ctx: FiscalContext, batchId: number): Promise<void> {
  const t = await sale.teamPlacesForNota(ctx.db, batchId);
  if (!t) return;
  const kept = t.amountCents - t.refundedCents;
  const first = await ensureDocument(ctx, purchaseDocument(ctx, batchId, 1, kept));
  if (first.amountCents === kept) return process(ctx, first.id).then(() => undefined);
  await cancelDocument(
    ctx,
    first,
    `${t.unclaimedAtClose ?? 0} vagas da equipe não usadas foram devolvidas ao comprador; nota substituída pelo valor mantido.`,
  );
  if ((await repo.findDocument(ctx.db, first.id))?.status !== 'cancelada' || kept <= 0) return;
  const second = await ensureDocument(ctx, purchaseDocument(ctx, batchId, 2, kept));
  await process(ctx, second.id);
}
