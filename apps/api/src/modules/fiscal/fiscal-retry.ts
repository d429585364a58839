import type { Tx } from '../../db/client.ts';
import { HttpError, notFound } from '../../plugins/errors.ts';
import * as repo from './fiscal.repository.ts';
import type { FiscalContext } from './fiscal-context.ts';
import { issueWaiting } from './fiscal-registration.ts';

/** Asking again: staff's retry of a stopped nota, and the sweep every 15 minutes (`fiscal.retry-pending`). */

/** Staff ask again for a stopped (or long pending) nota: back to `pendente`, and a job. */
export async function retry(ctx: FiscalContext, tx: Tx, documentId: number) {
  const before = await repo.findDocument(tx, documentId);
  if (!before) throw notFound('Nota não encontrada.');
  if (before.status === 'autorizada' || before.status === 'cancelada')
    throw new HttpError(409, 'Esta nota já foi autorizada ou cancelada.', 'nota_encerrada');
  await repo.updateDocument(tx, documentId, {
    status: 'pendente',
    reason: 'Nova tentativa pedida pela equipe.',
  });
  await ctx.jobs.send('fiscal.process', { documentId }, { tx });
  return { id: documentId, orderId: before.orderId, before: before.status };
}

/** The registrations left waiting, then every nota pending for more than 10 minutes, sent again. */
export async function retryPending(ctx: FiscalContext): Promise<void> {
  await issueWaiting(ctx);
  for (const { id } of await repo.pendingDocuments(ctx.db, new Date(ctx.now().getTime() - 10 * 60_000)))
    await ctx.jobs.send('fiscal.process', { documentId: id });
}
