import { centsToReais } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import * as afterSale from './after-sale.repository.ts';
import type * as repo from './registrations.repository.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';

/**
 * One charge's part of what was paid for a registration (docs/decisions/0047): the registration's own
 * charge (its share of an order), or the charge of a transfer or a paid change of distance. `leftCents`
 * is what this registration may still get back from it, `feeCents` the part of it that paid an
 * after-sale fee (kept when the cancellation is not a withdrawal).
 */
export interface PaidPart {
  chargeId: number;
  leftCents: number;
  feeCents: number;
  /** The registration's own charge (returned with `returnPaid` or `refundPart` by registration number). */
  own: boolean;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * Everything paid for a registration and not yet returned, one part per charge, oldest first: its own
 * charge (on the direct path what the charge has left; inside an order its share less the differences a
 * cheaper distance already returned), then every charge that paid a transfer, a change of distance
 * or a refused special price's difference (recorded as `cobranca` in its history), less what was returned from it.
 */
export async function paidParts(
  deps: Pick<RegistrationsServiceDeps, 'payments'>,
  db: Db | Tx,
  row: repo.RegistrationRow,
): Promise<PaidPart[]> {
  const changes = (await afterSale.changesOf(db, row.id)).reverse();
  const paidChanges = changes.flatMap((c) => {
    const d = c.detail as { cobranca?: unknown; diferenca_cents?: unknown; lista_diferenca_cents?: unknown };
    // A list of changes paid by one charge: its difference is the list's (registration-change-list.ts).
    const difference = d.lista_diferenca_cents === undefined ? d.diferenca_cents : d.lista_diferenca_cents;
    return (c.kind === 'transferencia' || c.kind === 'troca_distancia' || c.kind === 'diferenca_preco') &&
      num(d.cobranca) > 0
      ? [{ chargeId: num(d.cobranca), differenceCents: Math.max(0, num(difference)) }]
      : [];
  });
  const charges = new Map(
    (await deps.payments.paidAndRefunded(db, [row.chargeId, ...paidChanges.map((c) => c.chargeId)])).map(
      (c) => [c.chargeId, c],
    ),
  );
  const parts: PaidPart[] = [];
  const own = charges.get(row.chargeId);
  if (own?.status === 'CONCLUIDA' || own?.status === 'DEVOLVIDA') {
    const chargeLeft = Math.max(0, own.amountCents - own.refundedCents);
    // A cheaper distance returned part of the share from the order's charge (docs/decisions/0041).
    const returnedByChanges = changes
      .filter((c) => c.kind === 'troca_distancia' && num((c.detail as { cobranca?: unknown }).cobranca) === 0)
      .reduce((sum, c) => sum + c.refundCents, 0);
    const leftCents =
      row.orderId === null
        ? chargeLeft
        : Math.min(chargeLeft, Math.max(0, Math.min(row.totalCents, own.amountCents) - returnedByChanges));
    parts.push({ chargeId: row.chargeId, leftCents, feeCents: 0, own: true });
  }
  for (const c of paidChanges) {
    const charge = charges.get(c.chargeId);
    if (!charge || c.chargeId === row.chargeId || charge.status !== 'CONCLUIDA') continue;
    const leftCents = Math.max(0, charge.amountCents - charge.refundedCents);
    const feeCents = Math.min(leftCents, Math.max(0, charge.amountCents - c.differenceCents));
    parts.push({ chargeId: c.chargeId, leftCents, feeCents, own: false });
  }
  return parts;
}

/**
 * Splits a refund across the charges that paid for the registration, the newest first (the runner who
 * holds it now paid last), each never above what it has left; outside a withdrawal the fees stay.
 * Answers the amount per charge, only those above zero.
 */
export function splitRefund(
  parts: readonly PaidPart[],
  refundCents: number,
  withFees: boolean,
): Array<PaidPart & { amountCents: number }> {
  let rest = refundCents;
  const out: Array<PaidPart & { amountCents: number }> = [];
  for (const part of [...parts].reverse()) {
    const room = withFees ? part.leftCents : part.leftCents - part.feeCents;
    const amountCents = Math.max(0, Math.min(room, rest));
    rest -= amountCents;
    if (amountCents > 0) out.push({ ...part, amountCents });
  }
  return out.reverse();
}

/**
 * What goes (or went) back to the registration's holder and what to whoever else paid for it (the
 * runner who held it before a transfer): one part per charge, each charge's payer its account. A
 * registration without an account (free or old) is all the holder's. The one reckoning of the quote
 * before confirming, the runner's answer after cancelling and the back office's cancel (0056, later).
 */
export interface RefundByPayer {
  totalCents: number;
  toHolderCents: number;
  toOthersCents: number;
}

export async function refundByPayer(
  deps: Pick<RegistrationsServiceDeps, 'payments'>,
  holderUserId: number | null,
  parts: readonly { chargeId: number; amountCents: number }[],
): Promise<RefundByPayer> {
  let totalCents = 0;
  let toOthersCents = 0;
  for (const part of parts) {
    totalCents += part.amountCents;
    if (holderUserId === null || part.amountCents <= 0) continue;
    const payer = (await deps.payments.chargeById(part.chargeId))?.userId;
    if (payer !== holderUserId) toOthersCents += part.amountCents;
  }
  return { totalCents, toHolderCents: totalCents - toOthersCents, toOthersCents };
}

/** The split as the answers say it: present only when part of the money is someone else's. */
export const refundByPayerWire = (split: RefundByPayer) =>
  split.toOthersCents > 0
    ? {
        devolvido_a_voce: centsToReais(split.toHolderCents),
        devolvido_a_quem_pagou: centsToReais(split.toOthersCents),
      }
    : {};
