import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { CarrierReturn } from '@passada/core/contracts/returns';
import { CRT_OF_REGIME, ibsCbsRequired } from '@passada/core/fiscal/reform-rules';
import { InvoicingUnavailable } from '../../providers/invoicing/index.ts';
import * as repo from './fiscal.repository.ts';
import { type FiscalContext, FiscalPending, NFE_CANCEL_WINDOW_MS } from './fiscal-context.ts';
import { ensureDocument, orderNfeInForce } from './fiscal-documents.ts';
import { exchangeLines } from './fiscal-nfe.ts';
import { process } from './fiscal-process.ts';
import * as sale from './fiscal-sale.read-model.ts';

/**
 * Cancellation and devolução: a sale cancelled (the NF-e within 24 hours, a devolução NF-e later; a
 * registration's NFS-e, or its line on the month's nota), a return refunded and an exchange shipped.
 */

export async function cancelDocument(
  ctx: FiscalContext,
  doc: repo.DocumentRow,
  justification: string,
): Promise<void> {
  const { db, provider } = ctx;
  if (doc.status === 'cancelada') return;
  const nfe = doc.kind !== 'nfse';
  try {
    if (doc.status !== 'autorizada') {
      // Never authorised on our side: the provider may still have it (an answer lost).
      const known = nfe ? await provider.consultNfe(doc.ref) : await provider.consultNfse(doc.ref);
      if (known?.state === 'processando') throw new FiscalPending('em processamento');
      if (known?.state !== 'autorizada') {
        await repo.updateDocument(db, doc.id, {
          status: 'cancelada',
          reason: 'Venda cancelada antes da emissão.',
          cancelledAt: ctx.now(),
        });
        return;
      }
    }
    const answer = nfe
      ? await provider.cancelNfe(doc.ref, justification)
      : await provider.cancelNfse(doc.ref, justification);
    if (answer.state === 'cancelada') {
      await repo.updateDocument(db, doc.id, { status: 'cancelada', reason: null, cancelledAt: ctx.now() });
      return;
    }
    await repo.updateDocument(db, doc.id, {
      reason: `Cancelamento recusado: ${answer.code} – ${answer.message}.`,
    });
  } catch (err) {
    if (err instanceof InvoicingUnavailable) {
      await repo.bumpAttempts(
        db,
        doc.id,
        'Cancelamento aguardando o emissor de notas; nova tentativa automática.',
      );
      throw new FiscalPending(err.message);
    }
    throw err;
  }
}

/**
 * The order was cancelled before shipping: its NF-e is cancelled within 24 hours of authorisation;
 * later, a devolução NF-e (finNFe 4) referencing it records the goods coming back.
 */
export async function cancelOrder(ctx: FiscalContext, orderId: number): Promise<void> {
  const doc = await orderNfeInForce(ctx, orderId);
  if (!doc || doc.status === 'cancelada') return;
  const late = doc.authorisedAt && ctx.now().getTime() - doc.authorisedAt.getTime() > NFE_CANCEL_WINDOW_MS;
  if (doc.status === 'autorizada' && late) {
    await wholeOrderBack(ctx, orderId, doc.amountCents);
    return;
  }
  await cancelDocument(ctx, doc, `Pedido ${orderId} cancelado pelo comprador ou pela loja antes do envio.`);
}

/**
 * A registration cancelled that a month's NFS-e covers: before the nota is authorised it simply
 * leaves it; after, the nota stays (one registration cannot be cut out of it and the city may not
 * cancel by web service) and the cancellation is written on it for the accountant (docs/decisions/0049).
 */
async function cancelGroupedRegistration(ctx: FiscalContext, registrationId: number): Promise<boolean> {
  const { db } = ctx;
  const found = await repo.groupedDocumentOf(db, registrationId);
  if (!found) return false;
  const doc = found.document;
  if (doc.status === 'pendente' || doc.status === 'erro') {
    await db.transaction(async (tx) => {
      await repo.unlinkRegistrations(tx, [registrationId]);
      const left = await sale.linksOf(tx, doc.id);
      if (!left.length)
        await repo.updateDocument(tx, doc.id, {
          status: 'cancelada',
          reason: 'Todas as inscrições do mês foram canceladas antes da emissão.',
          cancelledAt: ctx.now(),
        });
      else
        await repo.updateDocument(tx, doc.id, {
          amountCents: left.reduce((sum, l) => sum + l.amountCents, 0),
        });
    });
    return true;
  }
  if (doc.status === 'autorizada') {
    const note = `Inscrição nº ${registrationId} (R$ ${(found.amountCents / 100).toFixed(2).replace('.', ',')}) cancelada e devolvida depois da emissão: abater na apuração do ISS ou pedir à prefeitura a substituição da nota.`;
    await repo.updateDocument(db, doc.id, { reason: doc.reason ? `${doc.reason} ${note}` : note });
  }
  return true;
}

export async function cancelRegistration(ctx: FiscalContext, registrationId: number): Promise<void> {
  const { db, refs } = ctx;
  if (await cancelGroupedRegistration(ctx, registrationId)) return;
  const doc = await repo.findByRef(db, refs.registrationNfse(registrationId));
  if (!doc) return;
  await cancelDocument(
    ctx,
    doc,
    `Inscrição ${registrationId} cancelada; o valor foi devolvido ao participante.`,
  );
}

/** A return refunded: a devolução NF-e of what came back, referencing the order's NF-e. */
export async function returnRefunded(ctx: FiscalContext, returnId: number): Promise<void> {
  const { db, refs } = ctx;
  const ret = await sale.returnForNota(db, returnId);
  if (!ret?.items.length) return;
  const original = await orderNfeInForce(ctx, ret.orderId);
  // The order's NF-e still being issued (a withdrawal right after paying): retried until it can be referenced.
  if (original?.status === 'pendente') throw new FiscalPending('NF-e do pedido ainda em emissão.');
  if (original?.status !== 'autorizada') return;
  const doc = await ensureDocument(ctx, {
    kind: 'nfe_devolucao',
    ref: refs.returnNfe(returnId),
    orderId: ret.orderId,
    registrationId: null,
    returnId,
    amountCents: ret.items.reduce((s, i) => s + i.valueCents, 0),
  });
  await process(ctx, doc.id);
}

/**
 * An exchange shipped (docs/decisions/0043, later): the devolução NF-e of the units that came back and
 * the NF-e of the replacement, each once by its reference. Apparel never ships without an NF-e.
 */
export async function exchangeShipped(ctx: FiscalContext, returnId: number): Promise<void> {
  const { db, refs } = ctx;
  const ret = await sale.returnForNota(db, returnId);
  if (ret?.kind !== 'troca') return;
  const original = await orderNfeInForce(ctx, ret.orderId);
  // The order's own NF-e still being issued: the job retries until it is there to be referenced.
  if (original?.status === 'pendente') throw new FiscalPending('NF-e do pedido ainda em emissão.');
  await returnRefunded(ctx, returnId);
  const order = await sale.orderForNota(db, ret.orderId);
  if (!order) return;
  const { lines, discountCents } = await exchangeLines(db, order, ret);
  if (!lines.length) return;
  const doc = await ensureDocument(ctx, {
    kind: 'nfe',
    ref: refs.exchangeNfe(returnId),
    orderId: ret.orderId,
    registrationId: null,
    returnId,
    amountCents: lines.reduce((sum, l) => sum + l.totalCents, 0) - discountCents,
  });
  await process(ctx, doc.id);
}

/**
 * Staff's refund on the order's page with nothing coming back: a price reduced after the sale, or a parcel
 * the carrier brought back (`carrierReturn`, docs/decisions/0059, later). Where the order's NF-e declared
 * IBS and CBS, a nota de crédito referencing it (NT 2025.002-RTC v1.31 §4, B25.2): tpNFCredito 04
 * "Redução de valores" for the refund; 03 "retorno por recusa total na entrega" for everything the NF-e
 * still declares (all the goods came back, whatever part of the money was refunded); 06 "retorno por recusa
 * parcial na entrega" for the refund. Never beyond what the NF-e still declares after earlier credits and
 * devoluções; once per refund. An NF-e without the group (Simples before 2027) has no IBS/CBS to credit: a
 * parcel refused in full comes back in with the whole order's devolução (finNFe 4), as a late cancellation
 * does. A parcel lost in transit gets no nota: the goods never come back, and where the NF-e declared IBS
 * and CBS the loss is recorded with event 112130 on it (`fiscal-loss.ts`), once per order.
 */
export async function orderReduced(
  ctx: FiscalContext,
  orderId: number,
  refundId: string,
  amountCents: number,
  carrierReturn?: CarrierReturn,
): Promise<void> {
  const { db, refs } = ctx;
  const original = await orderNfeInForce(ctx, orderId);
  if (original?.status === 'pendente') throw new FiscalPending('NF-e do pedido ainda em emissão.');
  if (original?.status !== 'autorizada') return;
  const s = await repo.settings(db);
  const soldOn = dateInTimeZone(original.issuedAt, STORE_TIME_ZONE);
  const whole = carrierReturn === 'recusa_total';
  const withIbsCbs = ibsCbsRequired(CRT_OF_REGIME[s.regime], soldOn);
  if (carrierReturn === 'extravio') {
    if (!withIbsCbs) return;
    const event = await ensureDocument(ctx, {
      kind: 'nfe_evento',
      ref: refs.lossEvent(orderId),
      orderId,
      registrationId: null,
      returnId: null,
      amountCents: original.amountCents,
    });
    await process(ctx, event.id);
    return;
  }
  if (!withIbsCbs) {
    if (whole) await wholeOrderBack(ctx, orderId, original.amountCents);
    return;
  }
  const ref = carrierReturn
    ? refs.carrierReturnCredit(orderId, refundId, whole)
    : refs.orderCredit(orderId, refundId);
  const earlier = (await repo.documentsOfOrder(db, orderId)).filter(
    (d) =>
      d.ref !== ref && d.status !== 'cancelada' && (d.kind === 'nfe_credito' || d.kind === 'nfe_devolucao'),
  );
  const left = original.amountCents - earlier.reduce((sum, d) => sum + d.amountCents, 0);
  const amount = whole ? left : Math.min(amountCents, left);
  if (amount <= 0) return;
  const doc = await ensureDocument(ctx, {
    kind: 'nfe_credito',
    ref,
    orderId,
    registrationId: null,
    returnId: null,
    amountCents: amount,
  });
  await process(ctx, doc.id);
}

/** The whole order's devolução (finNFe 4) referencing its NF-e, once per order. */
async function wholeOrderBack(ctx: FiscalContext, orderId: number, amountCents: number): Promise<void> {
  const back = await ensureDocument(ctx, {
    kind: 'nfe_devolucao',
    ref: ctx.refs.orderReturnNfe(orderId),
    orderId,
    registrationId: null,
    returnId: null,
    amountCents,
  });
  await process(ctx, back.id);
}
