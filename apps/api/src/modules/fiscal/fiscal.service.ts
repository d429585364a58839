import { randomBytes } from 'node:crypto';
import { dateInTimeZone, STORE_TIME_ZONE, storeDayStart } from '@passada/core/calendar';
import type {
  FiscalSettings,
  FiscalSettingsSave,
  Nota,
  PainelNota,
  ProductFiscal,
} from '@passada/core/contracts/fiscal';
import { isValidCpf } from '@passada/core/documents';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import {
  type Emitter,
  type FiscalAddress,
  type FiscalAnswer,
  type FiscalFile,
  type InvoicingProvider,
  InvoicingRefused,
  InvoicingUnavailable,
  type NfeInput,
  type NfeItem,
  type NfseInput,
} from '../../providers/invoicing/index.ts';
import type { MailProvider } from '../../providers/mail/index.ts';
import * as repo from './fiscal.repository.ts';
import { notaMail } from './fiscal-mail.ts';

/** The legal window to cancel an authorised NF-e (Ajuste SINIEF 07/05; most states: 24 hours). */
export const NFE_CANCEL_WINDOW_MS = 24 * 3_600_000;

export const STALE_FISCAL_SETTINGS =
  'As configurações fiscais foram alteradas por outra pessoa depois que você abriu o formulário. Recarregue a página; suas alterações não foram salvas.';

/** How long to wait before asking again about a nota just sent (then the job's retries take over). */
const POLL_AFTER_ISSUE_MS = [1000, 3000];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The nota is still being processed (or the provider is down): the job is retried later. */
export class FiscalPending extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FiscalPending';
  }
}

export interface FiscalServiceDeps {
  db: Db;
  env: Pick<Env, 'FISCAL_REF_PREFIX' | 'publicUrl' | 'STORE_NAME' | 'NFSE_GROUPING'>;
  now: () => Date;
  log: FastifyBaseLogger;
  provider: InvoicingProvider;
  mail: MailProvider;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
}

type Kind = repo.DocumentRow['kind'];

/** "aaaa-mm" of a month. */
const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month after `period` (aaaa-mm). */
function nextPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The month before `period` (aaaa-mm). */
function previousPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** Splits "Rua X, 123" into street and number; "S/N" when the address has none. */
function splitStreet(street: string): { street: string; number: string } {
  const m = /^(.*?),\s*(\d+[A-Za-z]?|S\/?N)\b(.*)$/i.exec(street.trim());
  if (!m) return { street: street.trim(), number: 'S/N' };
  return { street: `${m[1]}${m[3] ?? ''}`.replace(/\s+,/g, ',').trim(), number: m[2]!.toUpperCase() };
}

function settingsToWire(s: repo.SettingsRow, rules: repo.TaxRuleRow[]): FiscalSettings {
  return {
    cnpj: s.cnpj,
    inscricao_estadual: s.ie,
    inscricao_municipal: s.im,
    razao_social: s.legalName,
    regime: s.regime,
    logradouro: s.street,
    numero: s.number,
    bairro: s.district,
    municipio: s.city,
    codigo_municipio: s.cityCode,
    uf: s.uf,
    cep: s.cep,
    codigo_servico_nfse: s.nfseServiceCode,
    serie_nfe: s.nfeSeries,
    regras: rules.map((r) => ({
      destino: r.destination,
      cfop: r.cfop,
      situacao_icms: r.icmsSituation,
      situacao_pis: r.pisSituation,
      situacao_cofins: r.cofinsSituation,
    })),
    versao: s.version,
  };
}

export function createFiscalService(deps: FiscalServiceDeps) {
  const { db, provider } = deps;
  const prefix = deps.env.FISCAL_REF_PREFIX;
  const refs = {
    orderNfe: (orderId: number) => `${prefix}-pedido-${orderId}-nfe`,
    orderReturnNfe: (orderId: number) => `${prefix}-pedido-${orderId}-devolucao`,
    returnNfe: (returnId: number) => `${prefix}-devolucao-${returnId}-nfe`,
    registrationNfse: (registrationId: number) => `${prefix}-inscricao-${registrationId}-nfse`,
    /** One NFS-e of an event's month (NFSE_GROUPING=event_month, docs/decisions/0049). */
    eventMonthNfse: (eventId: number, period: string) => `${prefix}-evento-${eventId}-${period}-nfse`,
  };
  const grouped = deps.env.NFSE_GROUPING === 'event_month';

  const fileUrl = (d: Pick<repo.DocumentRow, 'id' | 'accessToken' | 'kind'>, ext: 'pdf' | 'xml') =>
    `/api/notas/${d.id}/${d.accessToken}/${d.kind === 'nfse' ? 'nfse' : 'danfe'}.${ext}`;

  function toNota(d: repo.DocumentSummary): Nota {
    const ready = d.status === 'autorizada' || (d.status === 'cancelada' && d.accessKey !== null);
    return {
      id: d.id,
      tipo: d.kind,
      status: d.status,
      numero: d.providerNumber,
      chave: d.accessKey,
      pdf_url: ready ? fileUrl(d, 'pdf') : null,
      xml_url: ready ? fileUrl(d, 'xml') : null,
    };
  }

  function toPainelNota(d: repo.DocumentSummary): PainelNota {
    return {
      ...toNota(d),
      motivo: d.reason,
      inscricao_id: d.registrationId,
      autorizada_em: d.authorisedAt?.toISOString() ?? null,
      tentativas: d.attempts,
    };
  }

  // ---------- settings ----------

  async function readSettings(conn: Db | Tx = db): Promise<FiscalSettings> {
    return settingsToWire(await repo.settings(conn), await repo.taxRules(conn));
  }

  async function saveSettings(tx: Tx, body: FiscalSettingsSave) {
    const current = await repo.lockSettings(tx);
    if (current.version !== body.versao) throw conflict(STALE_FISCAL_SETTINGS, 'versao_desatualizada');
    const before = settingsToWire(current, await repo.taxRules(tx));
    const row = await repo.updateSettings(tx, {
      cnpj: body.cnpj,
      ie: body.inscricao_estadual,
      im: body.inscricao_municipal,
      legalName: body.razao_social,
      regime: body.regime,
      street: body.logradouro,
      number: body.numero,
      district: body.bairro,
      city: body.municipio,
      cityCode: body.codigo_municipio,
      uf: body.uf,
      cep: body.cep,
      nfseServiceCode: body.codigo_servico_nfse,
      nfeSeries: body.serie_nfe,
      version: current.version + 1,
      updatedAt: deps.now(),
    });
    await repo.replaceTaxRules(
      tx,
      body.regras.map((r) => ({
        destination: r.destino,
        cfop: r.cfop,
        icmsSituation: r.situacao_icms,
        pisSituation: r.situacao_pis,
        cofinsSituation: r.situacao_cofins,
      })),
    );
    return { before, after: settingsToWire(row, await repo.taxRules(tx)) };
  }

  async function productFiscal(productId: number): Promise<ProductFiscal | null> {
    const [row] = await repo.productFiscalOf(db, [productId]);
    return row ? { ncm: row.ncm, origem: row.origin } : null;
  }

  // ---------- building the notas ----------

  /** What is missing or wrong in the shop's settings, as staff read it. */
  function emitterProblems(s: repo.SettingsRow, rules: repo.TaxRuleRow[], kind: Kind): string[] {
    const problems: string[] = [];
    if (!s.cnpj || !s.legalName || !s.uf || !s.cityCode || !s.cep || !s.street)
      problems.push(
        'os dados da empresa (CNPJ, razão social, endereço) não foram preenchidos em Configurações fiscais',
      );
    if (kind !== 'nfse') {
      if (!s.ie) problems.push('falta a inscrição estadual da empresa');
      for (const d of ['interna', 'interestadual'] as const)
        if (!rules.some((r) => r.destination === d))
          problems.push(
            `falta a regra de CFOP e tributação "${d === 'interna' ? 'dentro do estado' : 'para outro estado'}"`,
          );
    } else {
      if (!s.im) problems.push('falta a inscrição municipal da empresa');
      if (!s.nfseServiceCode) problems.push('falta o código do serviço das inscrições (NFS-e)');
    }
    return problems;
  }

  function emitterOf(s: repo.SettingsRow): Emitter {
    return {
      cnpj: s.cnpj,
      ie: s.ie,
      im: s.im,
      name: s.legalName,
      regime: s.regime,
      address: {
        street: s.street,
        number: s.number,
        district: s.district,
        city: s.city,
        cityCode: s.cityCode,
        uf: s.uf,
        cep: s.cep,
      },
    };
  }

  type Built<T> = { ok: true; input: T } | { ok: false; reason: string };

  async function buildNfe(doc: repo.DocumentRow): Promise<Built<NfeInput>> {
    const s = await repo.settings(db);
    const rules = await repo.taxRules(db);
    const problems = emitterProblems(s, rules, doc.kind);
    const order = await repo.orderForNota(db, doc.orderId!);
    if (!order) return { ok: false, reason: 'Pedido não encontrado.' };
    const ret = doc.returnId ? await repo.returnForNota(db, doc.returnId) : undefined;
    const lines = ret
      ? ret.items.flatMap((ri) => {
          const item = order.items.find((i) => i.id === ri.orderItemId);
          return item ? [{ item, quantity: ri.quantity, totalCents: ri.valueCents }] : [];
        })
      : order.items.map((item) => ({
          item,
          quantity: item.quantity,
          totalCents: item.productPriceCents * item.quantity,
        }));
    const fiscal = new Map(
      (await repo.productFiscalOf(db, [...new Set(lines.map((l) => l.item.productId))])).map((f) => [
        f.productId,
        f,
      ]),
    );
    for (const l of lines)
      if (!fiscal.has(l.item.productId))
        problems.push(`o produto "${l.item.productName}" está sem NCM e origem (edite o produto no painel)`);
    const cpf = order.buyerCpf;
    if (!cpf || !isValidCpf(cpf))
      problems.push(
        'o pedido não tem o CPF do comprador, que a NF-e exige (peça o CPF ao comprador e registre-o no pedido)',
      );
    if (!order.address) problems.push('o pedido não tem endereço de entrega');
    if (problems.length || !order.address || !cpf)
      return { ok: false, reason: `A nota não foi emitida: ${problems.join('; ')}.` };
    const a = order.address;
    const { street, number } = splitStreet(a.street);
    const recipientAddress: FiscalAddress = {
      street,
      number,
      district: a.neighborhood,
      city: a.city,
      cityCode: '',
      uf: a.state.toUpperCase(),
      cep: a.zip_code.replace(/\D/g, ''),
    };
    const inside = recipientAddress.uf === s.uf;
    const rule = rules.find((r) => r.destination === (inside ? 'interna' : 'interestadual'))!;
    // A return comes back in: CFOP 1202/2202 (devolução de venda de mercadoria adquirida de terceiros).
    const cfop = doc.kind === 'nfe_devolucao' ? (inside ? '1202' : '2202') : rule.cfop;
    const items: NfeItem[] = lines.map((l) => {
      const f = fiscal.get(l.item.productId)!;
      return {
        code: `${l.item.productId}-${l.item.colorId}-${l.item.sizeId}`,
        description: `${l.item.productName} ${l.item.colorName} ${l.item.sizeName}`,
        ncm: f.ncm,
        origin: f.origin,
        cfop,
        icmsSituation: rule.icmsSituation,
        pisSituation: rule.pisSituation,
        cofinsSituation: rule.cofinsSituation,
        quantity: l.quantity,
        unitCents: l.item.productPriceCents,
        totalCents: l.totalCents,
      };
    });
    const products = items.reduce((sum, i) => sum + i.totalCents, 0);
    let shippingCents = 0;
    let discountCents = 0;
    let referencedKey: string | undefined;
    if (doc.kind === 'nfe') {
      shippingCents = order.shippingCents;
      discountCents = order.discountCents;
    } else {
      const original = await repo.findByRef(db, refs.orderNfe(order.id));
      if (!original?.accessKey)
        return { ok: false, reason: 'A NF-e de devolução precisa da NF-e original autorizada.' };
      referencedKey = original.accessKey;
      // A whole order returned gives back its shipping and discount too.
      if (!ret) {
        shippingCents = order.shippingCents;
        discountCents = order.discountCents;
      }
    }
    return {
      ok: true,
      input: {
        ref: doc.ref,
        purpose: doc.kind === 'nfe_devolucao' ? 4 : 1,
        operation: doc.kind === 'nfe_devolucao' ? 'Devolução de venda' : 'Venda de mercadoria',
        issuedAt: doc.issuedAt,
        number: doc.number,
        series: s.nfeSeries,
        emitter: emitterOf(s),
        recipient: {
          name: order.buyerName ?? a.full_name,
          cpf,
          email: order.buyerEmail ?? null,
          address: recipientAddress,
        },
        items,
        shippingCents,
        discountCents,
        totalCents: products + shippingCents - discountCents,
        ...(referencedKey ? { referencedKey } : {}),
      },
    };
  }

  /**
   * A month's NFS-e of an event: the registrations it covers less those cancelled before it is issued
   * (they leave it), no identified taker. Null when every one of them was cancelled.
   */
  async function buildMonthNfse(doc: repo.DocumentRow): Promise<Built<NfseInput> | null> {
    const s = await repo.settings(db);
    const problems = emitterProblems(s, [], 'nfse');
    const links = await repo.linksOf(db, doc.id);
    const cancelled = links.filter((l) => l.cancelledAt);
    await repo.unlinkRegistrations(
      db,
      cancelled.map((l) => l.registrationId),
    );
    const kept = links.filter((l) => !l.cancelledAt);
    if (!kept.length) return null;
    const amountCents = kept.reduce((sum, l) => sum + l.amountCents, 0);
    if (amountCents !== doc.amountCents) await repo.updateDocument(db, doc.id, { amountCents }, 'pendente');
    if (problems.length) return { ok: false, reason: `A nota não foi emitida: ${problems.join('; ')}.` };
    const name = (await repo.eventName(db, doc.eventId!)) ?? `evento ${doc.eventId}`;
    const [y, m] = doc.period!.split('-');
    return {
      ok: true,
      input: {
        ref: doc.ref,
        issuedAt: doc.issuedAt,
        number: doc.number,
        emitter: emitterOf(s),
        taker: null,
        serviceCode: s.nfseServiceCode,
        description: `Inscrições no evento ${name}, competência ${m}/${y}: ${kept.length} inscrição(ões) paga(s), nº ${kept.map((l) => l.registrationId).join(', ')}.`,
        amountCents,
      },
    };
  }

  async function buildNfse(doc: repo.DocumentRow): Promise<Built<NfseInput>> {
    const s = await repo.settings(db);
    const problems = emitterProblems(s, [], 'nfse');
    const r = await repo.registrationForNota(db, doc.registrationId!);
    if (!r) return { ok: false, reason: 'Inscrição não encontrada.' };
    if (!isValidCpf(r.cpf)) problems.push('o CPF do participante é inválido');
    if (problems.length) return { ok: false, reason: `A nota não foi emitida: ${problems.join('; ')}.` };
    return {
      ok: true,
      input: {
        ref: doc.ref,
        issuedAt: doc.issuedAt,
        number: doc.number,
        emitter: emitterOf(s),
        taker: { name: r.fullName, cpf: r.cpf, email: r.email },
        serviceCode: s.nfseServiceCode,
        description: `Inscrição nº ${r.id} no evento ${r.eventName}, participante ${r.fullName}.`,
        amountCents: r.totalCents,
      },
    };
  }

  // ---------- documents ----------

  type NewDocument = Pick<
    repo.DocumentRow,
    'kind' | 'ref' | 'orderId' | 'registrationId' | 'returnId' | 'amountCents'
  >;

  /** Inserts a document with the next number of its kind; the caller holds the settings row's lock. */
  async function insertNumbered(tx: Tx, values: NewDocument): Promise<repo.DocumentRow> {
    const s = await repo.lockSettings(tx);
    const nfse = values.kind === 'nfse';
    const number = nfse ? s.nextNfseNumber : s.nextNfeNumber;
    await repo.updateSettings(tx, nfse ? { nextNfseNumber: number + 1 } : { nextNfeNumber: number + 1 });
    return repo.insertDocument(tx, {
      ...values,
      accessToken: randomBytes(24).toString('base64url'),
      provider: provider.name,
      number,
      issuedAt: deps.now(),
      status: 'pendente',
      reason: 'Na fila para emissão.',
    });
  }

  /** The document of `ref`, created once (its number taken under the settings row's lock). */
  async function ensureDocument(values: NewDocument): Promise<repo.DocumentRow> {
    const existing = await repo.findByRef(db, values.ref);
    if (existing) return existing;
    return db.transaction(async (tx) => {
      await repo.lockSettings(tx);
      const again = await repo.findByRef(tx, values.ref);
      if (again) return again;
      return insertNumbered(tx, values);
    });
  }

  /** A registration's own NFS-e (`-inscricao-<id>-nfse`), to insert under the settings row's lock. */
  const registrationDocument = (r: {
    id: number;
    orderId: number | null;
    totalCents: number;
  }): NewDocument => ({
    kind: 'nfse',
    ref: refs.registrationNfse(r.id),
    orderId: r.orderId,
    registrationId: r.id,
    returnId: null,
    amountCents: r.totalCents,
  });

  async function resolveFile(file: FiscalFile): Promise<Buffer> {
    return 'bytes' in file ? file.bytes : provider.download(file.url);
  }

  async function stop(doc: repo.DocumentRow, reason: string, code: string | null = null) {
    await repo.updateDocument(db, doc.id, { status: 'erro', reason, rejectionCode: code }, 'pendente');
    deps.log.warn({ documentId: doc.id, kind: doc.kind, code }, 'nota fiscal parada');
  }

  /**
   * Issues a document, once: the provider is asked about our reference first, and only a reference it
   * does not know (or one it rejected, after staff asked again) is sent. Pending answers and an
   * unreachable provider throw FiscalPending, so the job retries; wrong data stops it as `erro`.
   */
  async function process(documentId: number): Promise<repo.DocumentRow['status']> {
    const doc = await repo.findDocument(db, documentId);
    if (!doc) throw notFound('Nota não encontrada.');
    if (doc.status !== 'pendente') return doc.status;
    const nfe = doc.kind !== 'nfse';
    const built = nfe ? await buildNfe(doc) : doc.eventId ? await buildMonthNfse(doc) : await buildNfse(doc);
    if (!built) {
      await repo.updateDocument(
        db,
        doc.id,
        {
          status: 'cancelada',
          reason: 'Todas as inscrições do mês foram canceladas antes da emissão.',
          cancelledAt: deps.now(),
        },
        'pendente',
      );
      return 'cancelada';
    }
    if (!built.ok) {
      await stop(doc, built.reason);
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
      if (err instanceof InvoicingUnavailable) {
        await repo.bumpAttempts(
          db,
          doc.id,
          `Emissor de notas indisponível (${err.message}); nova tentativa automática.`,
        );
        throw new FiscalPending(err.message);
      }
      if (err instanceof InvoicingRefused) {
        await stop(doc, `O emissor de notas recusou o pedido: ${err.message} (${err.code}).`, err.code);
        return 'erro';
      }
      throw err;
    }
    if (answer.state === 'processando') {
      await repo.bumpAttempts(db, doc.id, 'Aguardando a autorização da SEFAZ ou da prefeitura.');
      throw new FiscalPending('em processamento');
    }
    if (answer.state === 'rejeitada') {
      await stop(
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
        { status: 'cancelada', reason: null, cancelledAt: deps.now() },
        'pendente',
      );
      return 'cancelada';
    }
    let pdf: Buffer;
    let xml: Buffer;
    try {
      [pdf, xml] = await Promise.all([resolveFile(answer.pdf), resolveFile(answer.xml)]);
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
          authorisedAt: deps.now(),
        },
        'pendente',
      );
      if (row && row.kind !== 'nfe_devolucao')
        await deps.jobs.send('mail.fiscal-document', { documentId: row.id }, { tx });
      return row;
    });
    // Cancelled while it was being issued: cancel it now.
    if (done?.orderId && done.kind === 'nfe') {
      const order = await repo.orderForNota(db, done.orderId);
      if (order?.status === 'cancelado')
        await deps.jobs.send('fiscal.cancel-order', { orderId: done.orderId });
    }
    if (done?.registrationId) {
      const r = await repo.registrationForNota(db, done.registrationId);
      if (r?.cancelledAt) await deps.jobs.send('fiscal.cancel-registration', { registrationId: r.id });
    }
    return 'autorizada';
  }

  async function issueOrder(orderId: number): Promise<void> {
    const order = await repo.orderForNota(db, orderId);
    if (!order?.items.length || order.status === 'cancelado') return;
    const doc = await ensureDocument({
      kind: 'nfe',
      ref: refs.orderNfe(orderId),
      orderId,
      registrationId: null,
      returnId: null,
      amountCents: order.subtotalCents + order.shippingCents - order.discountCents,
    });
    await process(doc.id);
  }

  /**
   * A paid registration's NFS-e. With NFSE_GROUPING=event_month it waits for its (event, month) nota,
   * recorded in `fiscal_registration_waits`, unless that nota was already made (a late confirmation, a
   * month issued early): then it gets its own, as with `registration`. Decided under the settings row's
   * lock, which the month's nota also takes, so a registration is in one nota only: its own or its month's.
   */
  async function issueRegistration(registrationId: number): Promise<void> {
    const r = await repo.registrationForNota(db, registrationId);
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
        if (grouped) {
          const period = periodOf(r.paidAt);
          if (!(await repo.findByRef(tx, refs.eventMonthNfse(r.eventId, period)))) {
            await repo.recordWait(tx, { registrationId, eventId: r.eventId, period });
            return undefined;
          }
        }
        return insertNumbered(tx, registrationDocument(r));
      });
    }
    if (doc) await process(doc.id);
  }

  /**
   * The sweep of registrations left waiting (docs/decisions/0049, later): each gets its own NFS-e when
   * its month's nota was made without it, or, once the setting is back to `registration`, whichever it
   * was waiting for. Made in batches under the settings row's lock, each with its `fiscal.process` job in
   * the same transaction, so sweeps that race make each nota once.
   */
  async function issueWaiting(): Promise<number[]> {
    const BATCH = 100;
    const created: number[] = [];
    for (;;) {
      const batch = await db.transaction(async (tx) => {
        await repo.lockSettings(tx);
        const ids: number[] = [];
        for (const r of await repo.waitingForOwnNota(tx, grouped, BATCH)) {
          const doc = await insertNumbered(tx, registrationDocument(r));
          await deps.jobs.send('fiscal.process', { documentId: doc.id }, { tx });
          ids.push(doc.id);
        }
        return ids;
      });
      created.push(...batch);
      if (batch.length < BATCH) break;
    }
    if (created.length)
      deps.log.info({ notas: created.length }, 'NFS-e própria de inscrições que esperavam a nota do mês');
    return created;
  }

  async function cancelDocument(doc: repo.DocumentRow, justification: string): Promise<void> {
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
            cancelledAt: deps.now(),
          });
          return;
        }
      }
      const answer = nfe
        ? await provider.cancelNfe(doc.ref, justification)
        : await provider.cancelNfse(doc.ref, justification);
      if (answer.state === 'cancelada') {
        await repo.updateDocument(db, doc.id, { status: 'cancelada', reason: null, cancelledAt: deps.now() });
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
  async function cancelOrder(orderId: number): Promise<void> {
    const doc = await repo.findByRef(db, refs.orderNfe(orderId));
    if (!doc || doc.status === 'cancelada') return;
    const late = doc.authorisedAt && deps.now().getTime() - doc.authorisedAt.getTime() > NFE_CANCEL_WINDOW_MS;
    if (doc.status === 'autorizada' && late) {
      const back = await ensureDocument({
        kind: 'nfe_devolucao',
        ref: refs.orderReturnNfe(orderId),
        orderId,
        registrationId: null,
        returnId: null,
        amountCents: doc.amountCents,
      });
      await process(back.id);
      return;
    }
    await cancelDocument(doc, `Pedido ${orderId} cancelado pelo comprador ou pela loja antes do envio.`);
  }

  /** The month (aaaa-mm) `now` falls in, on the store's calendar. */
  const periodOf = (now: Date) => dateInTimeZone(now, STORE_TIME_ZONE).slice(0, 7);

  /**
   * One NFS-e per event for `period`'s paid registrations not yet in a nota (docs/decisions/0049): each
   * document is created once per (event, month) reference, with its registrations, under the settings
   * row's lock, and issued by a `fiscal.process` job sent in the same transaction. Only a month already
   * over; a reference already made takes no new registrations.
   */
  async function issueEventMonth(
    period: string,
    tx?: Tx,
  ): Promise<Array<{ documentId: number; eventId: number; created: boolean }>> {
    if (!PERIOD.test(period)) throw new HttpError(400, 'Mês inválido: use aaaa-mm.', 'mes_invalido');
    if (period >= periodOf(deps.now()))
      throw conflict(
        `O mês ${period.slice(5)}/${period.slice(0, 4)} ainda não terminou: a NFS-e do mês é emitida depois do último dia.`,
        'mes_em_aberto',
      );
    const from = storeDayStart(`${period}-01`);
    const to = storeDayStart(`${nextPeriod(period)}-01`);
    const run = async (t: Tx) => {
      await repo.lockSettings(t);
      const candidates = await repo.registrationsToGroup(t, from, to);
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
          provider: provider.name,
          number: s.nextNfseNumber,
          issuedAt: deps.now(),
          status: 'pendente',
          reason: 'Na fila para emissão.',
        });
        await repo.linkRegistrations(t, doc.id, rows);
        await deps.jobs.send('fiscal.process', { documentId: doc.id }, { tx: t });
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
  async function issueLastMonth(): Promise<void> {
    if (!grouped) return;
    const last = previousPeriod(periodOf(deps.now()));
    let made = 0;
    for (const period of [...(await repo.monthsLeftBehind(db, last)), last])
      made += (await issueEventMonth(period)).filter((c) => c.created).length;
    deps.log.info({ notas: made }, 'NFS-e do mês por evento');
    await issueWaiting();
  }

  /** Staff's view of `period`'s NFS-e per event. */
  async function monthNotas(period: string) {
    if (!PERIOD.test(period)) throw new HttpError(400, 'Mês inválido: use aaaa-mm.', 'mes_invalido');
    return (await repo.monthDocuments(db, period)).map((d) => {
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

  /**
   * A registration cancelled that a month's NFS-e covers: before the nota is authorised it simply
   * leaves it; after, the nota stays (one registration cannot be cut out of it and the city may not
   * cancel by web service) and the cancellation is written on it for the accountant (docs/decisions/0049).
   */
  async function cancelGroupedRegistration(registrationId: number): Promise<boolean> {
    const found = await repo.groupedDocumentOf(db, registrationId);
    if (!found) return false;
    const doc = found.document;
    if (doc.status === 'pendente' || doc.status === 'erro') {
      await db.transaction(async (tx) => {
        await repo.unlinkRegistrations(tx, [registrationId]);
        const left = await repo.linksOf(tx, doc.id);
        if (!left.length)
          await repo.updateDocument(tx, doc.id, {
            status: 'cancelada',
            reason: 'Todas as inscrições do mês foram canceladas antes da emissão.',
            cancelledAt: deps.now(),
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

  async function cancelRegistration(registrationId: number): Promise<void> {
    if (await cancelGroupedRegistration(registrationId)) return;
    const doc = await repo.findByRef(db, refs.registrationNfse(registrationId));
    if (!doc) return;
    await cancelDocument(
      doc,
      `Inscrição ${registrationId} cancelada; o valor foi devolvido ao participante.`,
    );
  }

  /** A return refunded: a devolução NF-e of what came back, referencing the order's NF-e. */
  async function returnRefunded(returnId: number): Promise<void> {
    const ret = await repo.returnForNota(db, returnId);
    if (!ret?.items.length) return;
    const original = await repo.findByRef(db, refs.orderNfe(ret.orderId));
    if (original?.status !== 'autorizada') return;
    const doc = await ensureDocument({
      kind: 'nfe_devolucao',
      ref: refs.returnNfe(returnId),
      orderId: ret.orderId,
      registrationId: null,
      returnId,
      amountCents: ret.items.reduce((s, i) => s + i.valueCents, 0),
    });
    await process(doc.id);
  }

  /** Staff ask again for a stopped (or long pending) nota: back to `pendente`, and a job. */
  async function retry(tx: Tx, documentId: number) {
    const before = await repo.findDocument(tx, documentId);
    if (!before) throw notFound('Nota não encontrada.');
    if (before.status === 'autorizada' || before.status === 'cancelada')
      throw new HttpError(409, 'Esta nota já foi autorizada ou cancelada.', 'nota_encerrada');
    await repo.updateDocument(tx, documentId, {
      status: 'pendente',
      reason: 'Nova tentativa pedida pela equipe.',
    });
    await deps.jobs.send('fiscal.process', { documentId }, { tx });
    return { id: documentId, orderId: before.orderId, before: before.status };
  }

  async function retryPending(): Promise<void> {
    await issueWaiting();
    for (const { id } of await repo.pendingDocuments(db, new Date(deps.now().getTime() - 10 * 60_000)))
      await deps.jobs.send('fiscal.process', { documentId: id });
  }

  async function sendMail(documentId: number): Promise<void> {
    const doc = await repo.findDocument(db, documentId);
    if (doc?.status !== 'autorizada') return;
    let to: { name: string; email: string } | null = null;
    let about = '';
    if (doc.registrationId) {
      const r = await repo.registrationForNota(db, doc.registrationId);
      if (r) {
        to = { name: r.fullName, email: r.email };
        about = `sua inscrição nº ${r.id} em ${r.eventName}`;
      }
    } else if (doc.orderId) {
      const o = await repo.orderForNota(db, doc.orderId);
      if (o?.buyerEmail) {
        to = { name: o.buyerName ?? '', email: o.buyerEmail };
        about = `seu pedido nº ${o.id}`;
      }
    }
    if (!to) return;
    await deps.mail.send(
      notaMail({
        env: deps.env,
        to,
        about,
        kind: doc.kind,
        number: doc.providerNumber ?? String(doc.number),
        accessKey: doc.accessKey,
        pdfUrl: `${deps.env.publicUrl}${fileUrl(doc, 'pdf')}`,
        xmlUrl: `${deps.env.publicUrl}${fileUrl(doc, 'xml')}`,
        demo: doc.provider === 'offline',
      }),
    );
  }

  async function file(documentId: number, token: string, ext: 'pdf' | 'xml') {
    const doc = await repo.findDocument(db, documentId);
    if (!doc || doc.accessToken !== token || !(ext === 'pdf' ? doc.pdf : doc.xml))
      throw notFound('Nota não encontrada.');
    return {
      bytes: (ext === 'pdf' ? doc.pdf : doc.xml)!,
      kind: doc.kind,
      number: doc.providerNumber ?? String(doc.number),
    };
  }

  return {
    refs,
    readSettings,
    saveSettings,
    productFiscal,
    saveProductFiscal: (tx: Tx, productId: number, body: ProductFiscal) =>
      repo.saveProductFiscal(tx, productId, body.ncm, body.origem),
    process,
    issueOrder,
    issueRegistration,
    issueEventMonth,
    issueLastMonth,
    issueWaiting,
    monthNotas,
    cancelOrder,
    cancelRegistration,
    returnRefunded,
    retry,
    retryPending,
    sendMail,
    file,
    /** The buyer's view of an order's notas (authorised or cancelled ones, with links once ready). */
    async notasOfOrder(orderId: number): Promise<Nota[]> {
      return (await repo.documentsOfOrder(db, orderId)).map(toNota);
    },
    /** Every nota of an account: its orders' (by order) and its registrations' (by registration). */
    async notasOfUser(
      userId: number,
    ): Promise<{ pedidos: Record<string, Nota[]>; inscricoes: Record<string, Nota[]> }> {
      const pedidos: Record<string, Nota[]> = {};
      const inscricoes: Record<string, Nota[]> = {};
      for (const d of await repo.documentsOfUser(db, userId)) {
        const [list, key] = d.registrationId ? [inscricoes, d.registrationId] : [pedidos, d.orderId];
        if (key === null) continue;
        list[key] = [...(list[key] ?? []), toNota(d)];
      }
      return { pedidos, inscricoes };
    },
    /** The runner's view of a registration's NFS-e. */
    async notaOfRegistration(registrationId: number): Promise<Nota | null> {
      const [doc] = await repo.documentsOfRegistrations(db, [registrationId]);
      return doc ? toNota(doc) : null;
    },
    /** Staff's view: every nota of the order with its state and reason. */
    async painelNotasOfOrder(orderId: number): Promise<PainelNota[]> {
      return (await repo.documentsOfOrder(db, orderId)).map(toPainelNota);
    },
    async painelNotasOfRegistration(registrationId: number): Promise<PainelNota[]> {
      return (await repo.documentsOfRegistrations(db, [registrationId])).map(toPainelNota);
    },
    /**
     * The authorised NF-e access key of an order (44 digits), or null while it has none: the shipping
     * label asks for it (carriers print it on the label).
     */
    async authorisedNfeKey(orderId: number): Promise<string | null> {
      const doc = await repo.findByRef(db, refs.orderNfe(orderId));
      return doc?.status === 'autorizada' ? doc.accessKey : null;
    },
  };
}

export type FiscalService = ReturnType<typeof createFiscalService>;
