import type { MyNotas, Nota, PainelNota } from '@passada/core/contracts/fiscal';
import { notFound } from '../../plugins/errors.ts';
import * as repo from './fiscal.repository.ts';
import { type FiscalContext, fileUrl } from './fiscal-context.ts';
import { orderNfeInForce } from './fiscal-documents.ts';
import { notaMail } from './fiscal-mail.ts';
import { companyOf } from './fiscal-nfse.ts';
import * as sale from './fiscal-sale.read-model.ts';

/** The notas as the buyer, the runner and staff read them, their files, and the e-mail that sends them. */

export function toNota(d: repo.DocumentSummary): Nota {
  const ready = d.status === 'autorizada' || (d.status === 'cancelada' && d.accessKey !== null);
  return {
    id: d.id,
    tipo: d.kind,
    status: d.status,
    numero: d.providerNumber,
    chave: d.accessKey,
    // An event on an NF-e has only its XML.
    pdf_url: ready && d.kind !== 'nfe_evento' ? fileUrl(d, 'pdf') : null,
    xml_url: ready ? fileUrl(d, 'xml') : null,
  };
}

export function toPainelNota(d: repo.DocumentSummary): PainelNota {
  return {
    ...toNota(d),
    motivo: d.reason,
    inscricao_id: d.registrationId,
    autorizada_em: d.authorisedAt?.toISOString() ?? null,
    tentativas: d.attempts,
  };
}

export async function sendMail(ctx: FiscalContext, documentId: number): Promise<void> {
  const { db } = ctx;
  const doc = await repo.findDocument(ctx.db, documentId);
  if (doc?.status !== 'autorizada') return;
  let to: { name: string; email: string } | null = null;
  let about = '';
  if (doc.registrationId) {
    const r = await sale.registrationForNota(db, doc.registrationId);
    if (r) {
      to = { name: r.fullName, email: r.email };
      about = `sua inscrição nº ${r.id} em ${r.eventName}`;
    }
  } else if (doc.teamBatchId) {
    // The company's e-mail when it asked for the nota, else the captain's.
    const t = await sale.teamPlacesForNota(db, doc.teamBatchId);
    const company = t ? companyOf(t.draft) : null;
    const email = company?.email ?? t?.captainEmail;
    if (t && email) {
      to = { name: company?.razao_social ?? t.captainName ?? '', email };
      about = `as ${t.quantity} vagas da equipe ${t.teamName} em ${t.eventName}`;
    }
  } else if (doc.orderId) {
    const o = await sale.orderForNota(db, doc.orderId);
    if (o?.buyerEmail) {
      to = { name: o.buyerName ?? '', email: o.buyerEmail };
      about = `seu pedido nº ${o.id}`;
    }
  }
  if (!to) return;
  await ctx.mail.send(
    notaMail({
      env: ctx.env,
      to,
      about,
      kind: doc.kind,
      number: doc.providerNumber ?? String(doc.number),
      accessKey: doc.accessKey,
      pdfUrl: `${ctx.env.publicUrl}${fileUrl(doc, 'pdf')}`,
      xmlUrl: `${ctx.env.publicUrl}${fileUrl(doc, 'xml')}`,
      demo: doc.provider === 'offline',
    }),
  );
}

export async function file(ctx: FiscalContext, documentId: number, token: string, ext: 'pdf' | 'xml') {
  const doc = await repo.findDocument(ctx.db, documentId);
  if (!doc || doc.accessToken !== token || !(ext === 'pdf' ? doc.pdf : doc.xml))
    throw notFound('Nota não encontrada.');
  return {
    bytes: (ext === 'pdf' ? doc.pdf : doc.xml)!,
    kind: doc.kind,
    number: doc.providerNumber ?? String(doc.number),
  };
}

/** An event on an NF-e (a loss in transport) is the shop's record with SEFAZ, not a nota of the buyer's. */
const buyersNota = (d: repo.DocumentSummary) => d.kind !== 'nfe_evento';

/** The buyer's view of an order's notas (authorised or cancelled ones, with links once ready). */
export async function notasOfOrder(ctx: FiscalContext, orderId: number): Promise<Nota[]> {
  return (await repo.documentsOfOrder(ctx.db, orderId)).filter(buyersNota).map(toNota);
}

/** Every nota of an account: its orders' (by order) and its registrations' (by registration). */
export async function notasOfUser(ctx: FiscalContext, userId: number): Promise<MyNotas> {
  const pedidos: Record<string, Nota[]> = {};
  const inscricoes: Record<string, Nota[]> = {};
  const equipes: Record<string, Nota[]> = {};
  for (const d of (await sale.documentsOfUser(ctx.db, userId)).filter(buyersNota)) {
    const [list, key] = d.teamBatchId
      ? [equipes, d.teamBatchId]
      : d.registrationId
        ? [inscricoes, d.registrationId]
        : [pedidos, d.orderId];
    if (key === null) continue;
    list[key] = [...(list[key] ?? []), toNota(d)];
  }
  return { pedidos, inscricoes, equipes };
}

/** The runner's view of a registration's NFS-e. */
export async function notaOfRegistration(ctx: FiscalContext, registrationId: number): Promise<Nota | null> {
  const [doc] = await repo.documentsOfRegistrations(ctx.db, [registrationId]);
  return doc ? toNota(doc) : null;
}

/** Staff's view: every nota of the order with its state and reason. */
export async function painelNotasOfOrder(ctx: FiscalContext, orderId: number): Promise<PainelNota[]> {
  return (await repo.documentsOfOrder(ctx.db, orderId)).map(toPainelNota);
}

export async function painelNotasOfRegistration(
  ctx: FiscalContext,
  registrationId: number,
): Promise<PainelNota[]> {
  return (await repo.documentsOfRegistrations(ctx.db, [registrationId])).map(toPainelNota);
}

/**
 * The authorised NF-e access key of an order (44 digits), or null while it has none: the shipping
 * label asks for it (carriers print it on the label).
 */
export async function authorisedNfeKey(ctx: FiscalContext, orderId: number): Promise<string | null> {
  const doc = await orderNfeInForce(ctx, orderId);
  return doc?.status === 'autorizada' ? doc.accessKey : null;
}
