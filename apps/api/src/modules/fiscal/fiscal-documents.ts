import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '../../db/client.ts';
import * as repo from './fiscal.repository.ts';
import type { FiscalContext, NewDocument } from './fiscal-context.ts';

/** A document's row, created once per reference with the next number of its kind. */

/** Inserts a document with the next number of its kind; the caller holds the settings row's lock. */
export async function insertNumbered(
  ctx: FiscalContext,
  tx: Tx,
  values: NewDocument,
): Promise<repo.DocumentRow> {
  const s = await repo.lockSettings(tx);
  const nfse = values.kind === 'nfse';
  // An event on an NF-e takes no nota's number: its `number` is the event's sequence (one per order).
  const number = values.kind === 'nfe_evento' ? 1 : nfse ? s.nextNfseNumber : s.nextNfeNumber;
  if (values.kind !== 'nfe_evento')
    await repo.updateSettings(tx, nfse ? { nextNfseNumber: number + 1 } : { nextNfeNumber: number + 1 });
  return repo.insertDocument(tx, {
    ...values,
    accessToken: randomBytes(24).toString('base64url'),
    provider: ctx.provider.name,
    number,
    issuedAt: ctx.now(),
    status: 'pendente',
    reason: 'Na fila para emissão.',
  });
}

/** The document of `ref`, created once (its number taken under the settings row's lock). */
export async function ensureDocument(ctx: FiscalContext, values: NewDocument): Promise<repo.DocumentRow> {
  const { db } = ctx;
  const existing = await repo.findByRef(db, values.ref);
  if (existing) return existing;
  return db.transaction(async (tx) => {
    await repo.lockSettings(tx);
    const again = await repo.findByRef(tx, values.ref);
    if (again) return again;
    return insertNumbered(ctx, tx, values);
  });
}

/** A registration's own NFS-e (`-inscricao-<id>-nfse`), to insert under the settings row's lock. */
export const registrationDocument = (
  ctx: FiscalContext,
  r: {
    id: number;
    orderId: number | null;
    totalCents: number;
  },
): NewDocument => ({
  kind: 'nfse',
  ref: ctx.refs.registrationNfse(r.id),
  orderId: r.orderId,
  registrationId: r.id,
  returnId: null,
  amountCents: r.totalCents,
});

/**
 * The order's own NF-e in force: the first one, or the latest that replaced it after a swap before shipping
 * (`fiscal-swap.ts`). Every reader of "the order's NF-e" (devolução, nota de crédito, label, cancellation).
 */
export const orderNfeInForce = (ctx: FiscalContext, orderId: number, db: Db | Tx = ctx.db) =>
  repo.currentOrderNfe(db, orderId, ctx.refs.orderNfe(orderId));
