import { randomBytes } from 'node:crypto';
import { storeDayStart } from '@passada/core/calendar';
import type { Tx } from '../../db/client.ts';
import { conflict, HttpError } from '../../plugins/errors.ts';
import * as repo from './fiscal.repository.ts';
import {
  type FiscalContext,
  fileUrl,
  nextPeriod,
  PERIOD,
  periodOf,
  previousPeriod,
} from './fiscal-context.ts';
import { insertNumbered, registrationDocument } from './fiscal-documents.ts';
import { process } from './fiscal-process.ts';
import * as sale from './fiscal-sale.read-model.ts';

/**
 * Issuing the registrations' NFS-e: each paid registration's own, or, with NFSE_GROUPING=event_month,
 * one per event per month (docs/decisions/0049) and the sweep of those left waiting.
 */

/**
 * A paid registration's NFS-e. With NFSE_GROUPING=event_month it waits for its (event, month) nota,
 * recorded in `fiscal_registration_waits`, unless that nota was already made (a late confirmation, a
 * month issued early): then it gets its own, as with `registration`. Decided under the settings row's
 * lock, which the month's nota also takes, so a registration is in one nota only: its own or its month's.
 */
export async function issueRegistration(ctx: FiscalContext, registrationId: number): Promise<void> {
  const { db, refs } = ctx;
  const r = await sale.registrationForNota(db, registrationId);
  // Nothing paid, nothing to invoice (a free registration, docs/decisions/0028).
  if (!r || r.totalCents <= 0 || r.cancelledAt) return;
  let doc = await repo.findByRef(db, refs.registrationNfse(registrationId));
  if (!doc) {
    doc = await db.transaction(async (tx) => {
      await repo.lockSettings(tx);
      const own = await repo.findByRef(tx, refs.registrationNfse(registrationId));
      if (own) return own;
      // Already in a month's nota (made before the setting went back to registration).
      if (await repo.groupedDocumentOf(tx, registrationId)) return undefined;
      if (ctx.grouped) {
        const period = periodOf(r.paidAt);
        if (!(await repo.findByRef(tx, refs.eventMonthNfse(r.eventId, period)))) {
          await repo.recordWait(tx, { registrationId, eventId: r.eventId, period });
          return undefined;
        }
      }
      return insertNumbered(ctx, tx, registrationDocument(ctx, r));
    });
  }
  if (doc) await process(ctx, doc.id);
}

/**
 * The sweep of registrations left waiting (docs/decisions/0049, later): each gets its own NFS-e when
 * its month's nota was made without it, or, once the setting is back to `registration`, whichever it
 * was waiting for. Made in batches under the settings row's lock, each with its `fiscal.process` job in
 * the same transaction, so sweeps that race make each nota once.
 */
export async function issueWaiting(ctx: FiscalContext): Promise<number[]> {
  const { db } = ctx;
  const BATCH = 100;
  const created: number[] = [];
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      await repo.lockSettings(tx);
      const ids: number[] = [];
      for (const r of await sale.waitingForOwnNota(tx, ctx.grouped, BATCH)) {
        const doc = await insertNumbered(ctx, tx, registrationDocument(ctx, r));
        await ctx.jobs.send('fiscal.process', { documentId: doc.id }, { tx });
        ids.push(doc.id);
      }
      return ids;
    });
    created.push(...batch);
    if (batch.length < BATCH) break;
  }
  if (created.length)
    ctx.log.info({ notas: created.length }, 'NFS-e própria de inscrições que esperavam a nota do mês');
  return created;
}

/**
 * One NFS-e per event for `period`'s paid registrations not yet in a nota (docs/decisions/0049): each
 * document is created once per (event, month) reference, with its registrations, under the settings
 * row's lock, and issued by a `fiscal.process` job sent in the same transaction. Only a month already
 * over; a reference already made takes no new registrations.
 */
export async function issueEventMonth(
  ctx: FiscalContext,
  period: string,
  tx?: Tx,
): Promise<Array<{ documentId: number; eventId: number; created: boolean }>> {
  const { db, refs } = ctx;
  if (!PERIOD.test(period)) throw new HttpError(400, 'Mês inválido: use aaaa-mm.', 'mes_invalido');
  if (period >= periodOf(ctx.now()))
    throw conflict(
      `O mês ${period.slice(5)}/${period.slice(0, 4)} ainda não terminou: a NFS-e do mês é emitida depois do último dia.`,
      'mes_em_aberto',
    );
  const from = storeDayStart(`${period}-01`);
  const to = storeDayStart(`${nextPeriod(period)}-01`);
  const run = async (t: Tx) => {
    await repo.lockSettings(t);
    const candidates = await sale.registrationsToGroup(t, from, to);
    const eventIds = [...new Set(candidates.map((c) => c.eventId))];
    const done: Array<{ documentId: number; eventId: number; created: boolean }> = [];
    for (const eventId of eventIds) {
      const ref = refs.eventMonthNfse(eventId, period);
      const existing = await repo.findByRef(t, ref);
      if (existing) {
        done.push({ documentId: existing.id, eventId, created: false });
        continue;
      }
      const rows = candidates.filter((c) => c.eventId === eventId);
      const s = await repo.lockSettings(t);
      await repo.updateSettings(t, { nextNfseNumber: s.nextNfseNumber + 1 });
      const doc = await repo.insertDocument(t, {
        kind: 'nfse',
        ref,
        orderId: null,
        registrationId: null,
        returnId: null,
        eventId,
        period,
        amountCents: rows.reduce((sum, r) => sum + r.totalCents, 0),
        accessToken: randomBytes(24).toString('base64url'),
        provider: ctx.provider.name,
        number: s.nextNfseNumber,
        issuedAt: ctx.now(),
        status: 'pendente',
        reason: 'Na fila para emissão.',
      });
      await repo.linkRegistrations(t, doc.id, rows);
      await ctx.jobs.send('fiscal.process', { documentId: doc.id }, { tx: t });
      done.push({ documentId: doc.id, eventId, created: true });
    }
    return done;
  };
  return tx ? run(tx) : db.transaction(run);
}

/**
 * At the month's turn (the job `fiscal.issue-event-month`): the month just over, and any earlier month
 * whose registrations still wait with no nota made for their event (a run missed, a payment confirmed
 * after its month's turn); then the sweep of those whose month's nota was made without them.
 */
export async function issueLastMonth(ctx: FiscalContext): Promise<void> {
  if (!ctx.grouped) return;
  const last = previousPeriod(periodOf(ctx.now()));
  let made = 0;
  for (const period of [...(await sale.monthsLeftBehind(ctx.db, last)), last])
    made += (await issueEventMonth(ctx, period)).filter((c) => c.created).length;
  ctx.log.info({ notas: made }, 'NFS-e do mês por evento');
  await issueWaiting(ctx);
}

/** Staff's view of `period`'s NFS-e per event. */
export async function monthNotas(ctx: FiscalContext, period: string) {
  if (!PERIOD.test(period)) throw new HttpError(400, 'Mês inválido: use aaaa-mm.', 'mes_invalido');
  return (await sale.monthDocuments(ctx.db, period)).map((d) => {
    const ready = d.status === 'autorizada';
    return {
      id: d.id,
      evento: d.eventId!,
      evento_nome: d.eventName,
      mes: period,
      status: d.status,
      motivo: d.reason,
      numero: d.providerNumber,
      valor: d.amountCents / 100,
      inscricoes: d.registrations,
      pdf_url: ready ? fileUrl(d, 'pdf') : null,
    };
  });
}
