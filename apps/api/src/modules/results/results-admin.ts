import { STALE_VERSION_CODE } from '@passada/core/contracts/painel';
import {
  type CertificateDesignSave,
  type PainelCertificateDesign,
  RESULT_PROBLEMS,
  type ResultImportBody,
  ResultImportBodySchema,
  type ResultLinks,
  type ResultPreview,
  type ResultProblemCode,
  type ResultPublish,
  type Timer,
  type TimerBody,
  TimerBodySchema,
} from '@passada/core/contracts/results';
import { timingAgeGroup } from '@passada/core/race-rules';
import { parseRaceTime, parseResultStatus, RESULT_STATUSES, type ResultStatus } from '@passada/core/results';
import type { Db, Tx } from '../../db/client.ts';
import type { ImportedLine } from '../../db/schema/index.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import { computePlaces } from './places.ts';
import * as repo from './results.repository.ts';
import { readTimerFile } from './timer-file.ts';

/** What a save from a form opened before someone else's save gets (409 `versao_desatualizada`). */
const STALE_DESIGN =
  'O certificado deste evento foi alterado por outra pessoa depois que você abriu a página. Recarregue para ver a versão atual; suas alterações não foram salvas.';

/** What the back office's side of results needs (docs/decisions/0064). */
/** Bibs a certificate job sends (the queue takes one job a poll per worker). */
const CERTIFICATES_PER_JOB = 25;

export interface ResultsAdminDeps {
  db: Db;
  now: () => Date;
  jobs: Pick<Jobs<AppJobCatalog>, 'sendAll'>;
  /** RESULTS_IMPORT_MAX_LINES. */
  maxLines: number;
  /** A catalogue product and an event, asked of their modules to check the links back to the shop. */
  productExists: (id: number, tx: Tx) => Promise<boolean>;
  findEvent: (id: number, tx: Tx) => Promise<{ id: number; startDate: string } | undefined>;
}

interface Matched {
  line: ImportedLine;
  entry: repo.BibEntry;
  status: ResultStatus;
  gunMs: number | null;
  netMs: number | null;
}

interface Problem {
  linha: number;
  numero: string;
  codigo: ResultProblemCode;
  motivo: string;
}

/**
 * Each line of the file matched to the one race entry holding its bib (on the file's day, when it has
 * one), or the reason it matches none. A bib on two lines matches neither: the shop cannot tell which
 * line is right, so staff fix the file.
 */
export function matchLines(lines: ImportedLine[], entries: repo.BibEntry[], day: string | null) {
  const problems: Problem[] = [];
  const refuse = (line: ImportedLine, codigo: ResultProblemCode) =>
    problems.push({ linha: line.line, numero: line.bib, codigo, motivo: RESULT_PROBLEMS[codigo] });
  const seen = new Map<number, number>();
  for (const line of lines) {
    if (/^\d{1,7}$/.test(line.bib)) seen.set(Number(line.bib), (seen.get(Number(line.bib)) ?? 0) + 1);
  }
  const byBib = new Map<number, repo.BibEntry[]>();
  for (const e of entries) {
    if (day !== null && e.day !== day) continue;
    const list = byBib.get(e.bib);
    if (list) list.push(e);
    else byBib.set(e.bib, [e]);
  }
  const matched: Matched[] = [];
  for (const line of lines) {
    if (!/^\d{1,7}$/.test(line.bib)) {
      refuse(line, 'numero_invalido');
      continue;
    }
    const bib = Number(line.bib);
    // A timer that writes the status in the time column ("DNF") says the same as a status column.
    const inTime = line.status === '' && line.gun !== '' ? parseResultStatus(line.gun) : null;
    const status = inTime && inTime !== 'OK' ? inTime : parseResultStatus(line.status);
    if (status === null) {
      refuse(line, 'situacao_invalida');
      continue;
    }
    const gunMs = status === 'OK' ? parseRaceTime(line.gun) : null;
    const netMs = status === 'OK' && line.net ? parseRaceTime(line.net) : null;
    if (status === 'OK' && (gunMs === null || (line.net !== '' && netMs === null))) {
      refuse(line, 'tempo_invalido');
      continue;
    }
    if ((seen.get(bib) ?? 0) > 1) {
      refuse(line, 'numero_repetido');
      continue;
    }
    const holders = byBib.get(bib) ?? [];
    const standing = holders.filter((e) => !e.cancelled);
    if (standing.length === 0) {
      refuse(line, holders.length ? 'inscricao_cancelada' : 'numero_desconhecido');
      continue;
    }
    if (standing.length > 1) {
      refuse(line, 'numero_em_mais_de_uma_prova');
      continue;
    }
    matched.push({ line, entry: standing[0]!, status, gunMs, netMs });
  }
  return { matched, problems };
}

export function createResultsAdmin(deps: ResultsAdminDeps) {
  const timerWire = (t: repo.TimerRow): Timer => ({ id: t.id, nome: t.name, colunas: t.columns });

  async function timers(): Promise<Timer[]> {
    return (await repo.listTimers(deps.db)).map(timerWire);
  }

  /** Creates a timer, or changes one (`id`): its name and the titles of its file's columns. */
  async function saveTimer(tx: Tx, input: TimerBody, id?: number): Promise<Timer> {
    const body = TimerBodySchema.parse(input);
    const other = await repo.findTimerByName(tx, body.nome);
    if (other && other.id !== id)
      throw conflict('Já existe uma cronometragem com este nome.', 'nome_repetido');
    if (id === undefined) return timerWire(await repo.insertTimer(tx, body.nome, body.colunas));
    const row = await repo.updateTimer(tx, id, body.nome, body.colunas, deps.now());
    if (!row) throw notFound('Cronometragem não encontrada.');
    return timerWire(row);
  }

  function previewOf(imp: repo.ImportRow, entries: repo.BibEntry[]): ResultPreview {
    const { matched, problems } = matchLines(imp.lines, entries, imp.day);
    const porSituacao = Object.fromEntries(RESULT_STATUSES.map((s) => [s, 0])) as Record<
      ResultStatus,
      number
    >;
    for (const m of matched) porSituacao[m.status] += 1;
    return {
      id: imp.id,
      situacao: imp.status as ResultPreview['situacao'],
      arquivo: imp.fileName,
      dia: imp.day,
      linhas: imp.lines.length,
      validas: matched.length,
      por_situacao: porSituacao,
      problemas: problems,
    };
  }

  /**
   * Reads a timer's file for an event and keeps it as a preview: nothing is published. The preview
   * lists every line that matches no runner and why.
   */
  async function importFile(tx: Tx, eventId: number, input: ResultImportBody): Promise<ResultPreview> {
    const body = ResultImportBodySchema.parse(input);
    const timer = await repo.findTimer(tx, body.cronometragem);
    if (!timer) throw notFound('Cronometragem não encontrada.');
    const entries = await repo.bibEntries(tx, eventId);
    if (body.dia !== undefined && !entries.some((e) => e.day === body.dia))
      throw badRequest('Nenhuma inscrição deste evento tem número de peito neste dia.', 'dia_sem_numeros');
    const lines = readTimerFile(body.conteudo, timer.columns, deps.maxLines);
    const imp = await repo.insertImport(tx, {
      eventId,
      timerId: timer.id,
      day: body.dia ?? null,
      fileName: body.nome_arquivo,
      lines,
      at: deps.now(),
    });
    return previewOf(imp, entries);
  }

  async function showImport(eventId: number, id: number): Promise<ResultPreview> {
    const imp = await repo.findImport(deps.db, eventId, id);
    if (!imp) throw notFound('Importação não encontrada.');
    return previewOf(imp, await repo.bibEntries(deps.db, eventId));
  }

  /**
   * Publishes a previewed file: the event's results (of the file's day) are replaced by its matched
   * lines with the places computed here, in the caller's transaction. Lines that matched no runner are
   * left out, as the preview showed.
   */
  async function publish(tx: Tx, eventId: number, id: number): Promise<ResultPublish> {
    const imp = await repo.lockImport(tx, eventId, id);
    if (!imp) throw notFound('Importação não encontrada.');
    if (imp.status !== 'previa')
      throw conflict(
        'Esta importação já foi publicada. Importe o arquivo de novo para publicar outra vez.',
        'importacao_usada',
      );
    const { matched, problems } = matchLines(imp.lines, await repo.bibEntries(tx, eventId), imp.day);
    const placed = computePlaces(
      matched.map((m) => ({
        ...m,
        categoryId: m.entry.categoryId,
        gender: m.entry.gender,
        ageGroup: timingAgeGroup(m.entry.gender, m.entry.birthDate, m.entry.day),
      })),
    );
    const before = await repo.replaceResults(
      tx,
      imp,
      placed.map((p) => ({
        eventId,
        importId: imp.id,
        entryId: p.entry.entryId,
        categoryId: p.categoryId,
        day: p.entry.day,
        bib: p.entry.bib,
        status: p.status,
        gunMs: p.gunMs,
        netMs: p.netMs,
        ageGroup: p.ageGroup,
        placeOverall: p.placeOverall,
        placeGender: p.placeGender,
        placeAgeGroup: p.placeAgeGroup,
      })),
      deps.now(),
    );
    // Each finisher whose result is new or changed is e-mailed the result and the certificate, once per
    // bib (a bib in two races of the day gets one e-mail with both pages); an unchanged result is not
    // sent again by a second publication of the same file.
    const was = new Map(before.map((b) => [`${b.bib}:${b.status}:${b.gunMs}:${b.netMs}`, true]));
    const changed = new Set(
      placed
        .filter((p) => p.status === 'OK' && !was.has(`${p.entry.bib}:${p.status}:${p.gunMs}:${p.netMs}`))
        .map((p) => p.entry.bib),
    );
    const bibs = [...changed];
    const jobs = [];
    for (let i = 0; i < bibs.length; i += CERTIFICATES_PER_JOB) {
      const some = bibs.slice(i, i + CERTIFICATES_PER_JOB);
      jobs.push({ name: 'mail.result-certificate' as const, data: { eventId, bibs: some } });
      // And on WhatsApp to those who opted in at registration, as a job of its own (a retry of one never
      // sends the other again).
      jobs.push({ name: 'whatsapp.result-published' as const, data: { eventId, bibs: some } });
    }
    await deps.jobs.sendAll(jobs, { tx });
    return { publicados: placed.length, ignorados: problems.length, substituidos: before.length };
  }

  const linksWire = (l: Awaited<ReturnType<typeof repo.resultLinks>>): ResultLinks => ({
    camisa_finisher_id: l.finisherProductId,
    proxima_edicao_id: l.nextEditionEventId,
  });

  /** The event's finisher shirt and next edition, as staff set them. */
  async function links(eventId: number): Promise<ResultLinks> {
    return linksWire(await repo.resultLinks(deps.db, eventId));
  }

  /**
   * Sets the event's finisher shirt (a product of the catalogue) and next edition (an event after this
   * one); either may be cleared with null. Each finisher's page shows them from then on.
   */
  async function saveLinks(tx: Tx, eventId: number, body: ResultLinks): Promise<ResultLinks> {
    // Read in the audited transaction: the embedded database has one connection, which it holds.
    const event = await deps.findEvent(eventId, tx);
    if (!event) throw notFound('Evento não encontrado.');
    if (body.camisa_finisher_id !== null && !(await deps.productExists(body.camisa_finisher_id, tx)))
      throw badRequest('Produto não encontrado no catálogo.', 'produto_inexistente');
    if (body.proxima_edicao_id !== null) {
      const next = await deps.findEvent(body.proxima_edicao_id, tx);
      if (!next) throw badRequest('A próxima edição não é um evento da loja.', 'evento_inexistente');
      if (next.startDate <= event.startDate)
        throw badRequest('A próxima edição deve acontecer depois deste evento.', 'edicao_anterior');
    }
    const saved = { finisherProductId: body.camisa_finisher_id, nextEditionEventId: body.proxima_edicao_id };
    await repo.saveResultLinks(tx, eventId, saved, deps.now());
    return linksWire(saved);
  }

  const designWire = (d: repo.CertificateDesignRow, versao: number): PainelCertificateDesign => ({
    modelo: d.layout,
    cor: d.color,
    assinatura_nome: d.signatureName,
    assinatura_cargo: d.signatureRole,
    mensagem: d.message,
    versao,
  });

  /** The event's certificate design with the version its form saves from. */
  async function certificateDesign(eventId: number, db: Db | Tx = deps.db): Promise<PainelCertificateDesign> {
    const { design, version } = await repo.certificateDesign(db, eventId);
    return designWire(design, version);
  }

  /**
   * Saves the design read at `versao` (409 `versao_desatualizada` when someone saved since); answers
   * what it was and what it is, for the audit line. The next certificate drawn, by e-mail or downloaded,
   * uses it.
   */
  async function saveCertificateDesign(tx: Tx, eventId: number, body: CertificateDesignSave) {
    if (!(await deps.findEvent(eventId, tx))) throw notFound('Evento não encontrado.');
    const before = await certificateDesign(eventId, tx);
    const { versao, ...wire } = body;
    const design: repo.CertificateDesignRow = {
      layout: wire.modelo,
      color: wire.cor,
      signatureName: wire.assinatura_nome,
      signatureRole: wire.assinatura_cargo,
      message: wire.mensagem,
    };
    const version = await repo.saveCertificateDesign(tx, eventId, design, versao, deps.now());
    if (version === null) throw conflict(STALE_DESIGN, STALE_VERSION_CODE);
    return { before, after: designWire(design, version) };
  }

  return {
    timers,
    saveTimer,
    importFile,
    showImport,
    publish,
    links,
    saveLinks,
    certificateDesign,
    saveCertificateDesign,
  };
}

export type ResultsAdmin = ReturnType<typeof createResultsAdmin>;
