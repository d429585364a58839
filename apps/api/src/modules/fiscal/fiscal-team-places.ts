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
  if (!t || t.amountCents <= 0) return;
  const doc = await ensureDocument(ctx, {
    kind: 'nfse',
    ref: ctx.refs.teamPlacesNfse(batchId),
    orderId: null,
    registrationId: null,
    returnId: null,
    teamBatchId: batchId,
    amountCents: t.amountCents,
  });
  await process(ctx, doc.id);
}
