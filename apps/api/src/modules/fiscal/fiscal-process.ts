import { notFound } from '../../plugins/errors.ts';
import {
  type FiscalAnswer,
  type FiscalFile,
  InvoicingRefused,
  InvoicingUnavailable,
  type NfeEventAnswer,
  type NfeInput,
  type NfseInput,
} from '../../providers/invoicing/index.ts';
import * as repo from './fiscal.repository.ts';
import { type FiscalContext, FiscalPending } from './fiscal-context.ts';
import { buildLossEvent } from './fiscal-loss.ts';
import { buildNfe } from './fiscal-nfe.ts';
import { buildMonthNfse, buildNfse, buildTeamPlacesNfse } from './fiscal-nfse.ts';
import * as sale from './fiscal-sale.read-model.ts';

/**
 * A document sent to the provider and its answers: asked about first, sent only when unknown, waited
 * for, its files kept; a nota processing or a provider down throws FiscalPending (the job retries),
 * wrong data or a rejection stops it as `erro`.
 */

/** How long to wait before asking again about a nota just sent (then the job's retries take over). */
const POLL_AFTER_ISSUE_MS = [1000, 3000];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function resolveFile(ctx: FiscalContext, file: FiscalFile): Promise<Buffer> {
  return 'bytes' in file ? file.bytes : ctx.provider.download(file.url);
}

async function stop(ctx: FiscalContext, doc: repo.DocumentRow, reason: string, code: string | null = null) {
  await repo.updateDocument(ctx.db, doc.id, { status: 'erro', reason, rejectionCode: code }, 'pendente');
  ctx.log.warn({ documentId: doc.id, kind: doc.kind, code }, 'nota fiscal parada');
}

/**
 * The provider did not answer (the job retries: FiscalPending) or refused the request itself (stopped as
 * `erro` with its message for staff); anything else is a bug and is thrown.
 */
async function providerFailed(ctx: FiscalContext, doc: repo.DocumentRow, err: unknown): Promise<'erro'> {
  if (err instanceof InvoicingUnavailable) {
    await repo.bumpAttempts(
      ctx.db,
      doc.id,
      `Emissor de notas indisponível (${err.message}); nova tentativa automática.`,
    );
    throw new FiscalPending(err.message);
  }
  if (err instanceof InvoicingRefused) {
    // A request the provider cannot send at all says itself what staff must do.
    const reason =
      err.code === 'evento_sem_rota'
        ? err.message
        : `O emissor de notas recusou o pedido: ${err.message} (${err.code}).`;
    await stop(ctx, doc, reason, err.code);
    return 'erro';
  }
  throw err;
}

/**
 * An event on an NF-e (`nfe_evento`: a loss in the shop's transport, fiscal-loss.ts): the provider is asked
 * about our reference first and the event sent only when unknown or refused; SEFAZ's answer (protocol and
 * XML) is kept on the document, which carries the NF-e's key.
 */
async function processEvent(ctx: FiscalContext, doc: repo.DocumentRow): Promise<repo.DocumentRow['status']> {
  const built = await buildLossEvent(ctx, doc);
  if (!built.ok) {
    await stop(ctx, doc, built.reason);
    return 'erro';
  }
  let answer: NfeEventAnswer;
  let xml: Buffer;
  try {
    const known = await ctx.provider.consultNfeEvent(doc.ref);
    answer = known?.state === 'registrado' ? known : await ctx.provider.registerNfeEvent(built.input);
    if (answer.state === 'rejeitada') {
      await stop(
        ctx,
        doc,
        `Evento rejeitado: ${answer.code} – ${answer.message}. Corrija os dados e tente de novo.`,
        answer.code,
      );
      return 'erro';
    }
    xml = await resolveFile(ctx, answer.xml);
  } catch (err) {
    return providerFailed(ctx, doc, err);
  }
  await repo.updateDocument(
    ctx.db,
    doc.id,
    {
      status: 'autorizada',
      reason: null,
      rejectionCode: null,
      accessKey: built.input.accessKey,
      protocol: answer.protocol,
      xml,
      authorisedAt: ctx.now(),
    },
    'pendente',
  );
  return 'autorizada';
}

/**
 * Issues a document, once: the provider is asked about our reference first, and only a reference it
 * does not know (or one it rejected, after staff asked again) is sent. Pending answers and an
 * unreachable provider throw FiscalPending, so the job retries; wrong data stops it as `erro`.
 */
export async function process(ctx: FiscalContext, documentId: number): Promise<repo.DocumentRow['status']> {
  const { db, provider } = ctx;
  const doc = await repo.findDocument(db, documentId);
  if (!doc) throw notFound('Nota não encontrada.');
  if (doc.status !== 'pendente') return doc.status;
  if (doc.kind === 'nfe_evento') return processEvent(ctx, doc);
  const nfe = doc.kind !== 'nfse';
  const built = nfe
    ? await buildNfe(ctx, doc)
    : doc.teamBatchId
      ? await buildTeamPlacesNfse(ctx, doc)
      : doc.eventId
        ? await buildMonthNfse(ctx, doc)
        : await buildNfse(ctx, doc);
  if (!built) {
    await repo.updateDocument(
      db,
      doc.id,
      {
        status: 'cancelada',
        reason: 'Todas as inscrições do mês foram canceladas antes da emissão.',
        cancelledAt: ctx.now(),
      },
      'pendente',
    );
    return 'cancelada';
  }
  if (!built.ok) {
    await stop(ctx, doc, built.reason);
    return 'erro';
  }
  let answer: FiscalAnswer | null;
  try {
    answer = nfe ? await provider.consultNfe(doc.ref) : await provider.consultNfse(doc.ref);
    if (!answer || answer.state === 'rejeitada')
      answer = nfe
        ? await provider.issueNfe(built.input as NfeInput)
        : await provider.issueNfse(built.input as NfseInput);
    // SEFAZ usually answers within seconds: ask a couple of times before leaving it to the job's retries.
    for (const ms of POLL_AFTER_ISSUE_MS) {
      if (answer?.state !== 'processando') break;
      await sleep(ms);
      answer = (nfe ? await provider.consultNfe(doc.ref) : await provider.consultNfse(doc.ref)) ?? answer;
    }
  } catch (err) {
    return providerFailed(ctx, doc, err);
  }
  if (answer.state === 'processando') {
    await repo.bumpAttempts(db, doc.id, 'Aguardando a autorização da SEFAZ ou da prefeitura.');
    throw new FiscalPending('em processamento');
  }
  if (answer.state === 'rejeitada') {
    await stop(
      ctx,
      doc,
      `Rejeitada: ${answer.code} – ${answer.message}. Corrija os dados e tente de novo.`,
      answer.code,
    );
    return 'erro';
  }
  if (answer.state === 'cancelada') {
    await repo.updateDocument(
      db,
      doc.id,
      { status: 'cancelada', reason: null, cancelledAt: ctx.now() },
      'pendente',
    );
    return 'cancelada';
  }
  let pdf: Buffer;
  let xml: Buffer;
  try {
    [pdf, xml] = await Promise.all([resolveFile(ctx, answer.pdf), resolveFile(ctx, answer.xml)]);
  } catch (err) {
    if (err instanceof InvoicingUnavailable) {
      await repo.bumpAttempts(db, doc.id, 'Nota autorizada; aguardando os arquivos do emissor.');
      throw new FiscalPending(err.message);
    }
    throw err;
  }
  const done = await db.transaction(async (tx) => {
    const row = await repo.updateDocument(
      tx,
      doc.id,
      {
        status: 'autorizada',
        reason: null,
        rejectionCode: null,
        accessKey: answer.accessKey,
        providerNumber: answer.number,
        series: answer.series,
        protocol: answer.protocol,
        verificationCode: answer.verificationCode ?? null,
        pdf,
        xml,
        authorisedAt: ctx.now(),
      },
      'pendente',
    );
    // The buyer is mailed the notas of what they bought; a devolução or a nota de crédito is the shop's record.
    if (row && (row.kind === 'nfe' || row.kind === 'nfse'))
      await ctx.jobs.send('mail.fiscal-document', { documentId: row.id }, { tx });
    return row;
  });
  // Cancelled while it was being issued: cancel it now.
  if (done?.orderId && done.kind === 'nfe') {
    const order = await sale.orderForNota(db, done.orderId);
    if (order?.status === 'cancelado') await ctx.jobs.send('fiscal.cancel-order', { orderId: done.orderId });
  }
  if (done?.registrationId) {
    const r = await sale.registrationForNota(db, done.registrationId);
    if (r?.cancelledAt) await ctx.jobs.send('fiscal.cancel-registration', { registrationId: r.id });
  }
  return 'autorizada';
}
