import type {
  MyResults,
  ResultListQuery,
  ResultPage,
  ResultRow,
  RunnerPhoto,
  RunnerResult,
} from '@passada/core/contracts/results';
import { categoryDistanceKm, formatRaceTime, pacePerKm } from '@passada/core/results';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, HttpError, notFound } from '../../plugins/errors.ts';
import {
  type CertificateDesign,
  certificateToken,
  readCertificateToken,
  renderCertificatePdf,
} from './certificate.ts';
import * as repo from './results.repository.ts';

export { RESULTS_CHANGED } from './results.repository.ts';

/** What the public side of results needs: the database and the event's name and date. */
export interface ResultsServiceDeps {
  db: Db;
  /** A bib's ready photos of the race (result-photos.ts). */
  photosOfBib: (eventId: number, bib: number) => Promise<RunnerPhoto[]>;
  findEvent: (
    id: number,
  ) => Promise<{ id: number; name: string; startDate: string; city: string } | undefined>;
  /** CHECKIN_TOKEN_SECRET: certificates are signed with it, under their own prefix. */
  secret: string;
  /** The shop's address, for the certificate's QR code. */
  publicUrl: string;
}

/**
 * Published results as anyone reads them (docs/decisions/0064): names, teams, gender and the age group,
 * never a CPF, a birth date or a contact.
 */
export function createResultsService(deps: ResultsServiceDeps) {
  const rowWire = (r: repo.PublicResult): ResultRow => {
    const time = r.netMs ?? r.gunMs;
    return {
      numero: r.bib,
      nome: r.name,
      equipe: r.team,
      categoria_id: r.categoryId,
      categoria: r.category,
      dia: r.day,
      genero: r.gender,
      faixa_etaria: r.ageGroup,
      situacao: r.status,
      tempo_bruto: r.gunMs === null ? null : formatRaceTime(r.gunMs),
      tempo_liquido: r.netMs === null ? null : formatRaceTime(r.netMs),
      ritmo: time === null ? null : pacePerKm(time, categoryDistanceKm(r.category)),
      colocacao_geral: r.placeOverall,
      colocacao_genero: r.placeGender,
      colocacao_faixa: r.placeAgeGroup,
    };
  };

  async function eventOrNotFound(id: number) {
    const event = await deps.findEvent(id);
    if (!event) throw notFound('Evento não encontrado.');
    return event;
  }

  /** A page of an event's results, searched by name, bib or team and filtered by category, gender and age group. */
  async function list(eventId: number, query: ResultListQuery): Promise<ResultPage> {
    const event = await eventOrNotFound(eventId);
    const page = query.page ?? 1;
    const { rows, total } = await repo.resultsPage(
      deps.db,
      eventId,
      {
        search: query.busca,
        categoryId: query.categoria,
        gender: query.genero,
        ageGroup: query.faixa,
      },
      { limit: query.page_size, offset: (page - 1) * query.page_size },
    );
    const filters = await repo.resultFilters(deps.db, eventId);
    return {
      evento: { id: event.id, nome: event.name, data: event.startDate },
      publicado: filters.categories.length > 0,
      results: rows.map(rowWire),
      count: total,
      page,
      pages: Math.max(1, Math.ceil(total / query.page_size)),
      filtros: {
        categorias: filters.categories.map((c) => ({ id: c.id, nome: c.name, dia: c.day })),
        faixas: [...filters.ageGroups].sort((a, b) => a.localeCompare(b, 'pt-BR', { numeric: true })),
      },
    };
  }

  /**
   * Some bibs' published rows, the finisher counts of their races and the event, read once for all of
   * them: a runner's page reads one bib, the certificate job 25.
   */
  async function readBibs(eventId: number, bibs: number[]) {
    const event = await eventOrNotFound(eventId);
    const { rows } = await repo.resultsPage(
      deps.db,
      eventId,
      { bibs },
      { limit: bibs.length * 10, offset: 0 },
    );
    const countsOf = await repo.finisherCounts(deps.db, eventId, [...new Set(rows.map((r) => r.categoryId))]);
    const rowsOf = new Map<number, repo.PublicResult[]>();
    for (const r of rows) rowsOf.set(r.bib, [...(rowsOf.get(r.bib) ?? []), r]);
    return { event, rowsOf, countsOf };
  }
  type Read = Awaited<ReturnType<typeof readBibs>>;

  async function runnerOf(read: Read, bib: number, links: RunnerResult['depois_da_chegada']) {
    const rows = read.rowsOf.get(bib);
    if (!rows) return undefined;
    const { event, countsOf } = read;
    return {
      evento: { id: event.id, nome: event.name, data: event.startDate, cidade: event.city },
      depois_da_chegada: links,
      fotos: await deps.photosOfBib(event.id, bib),
      provas: rows.map((r) => {
        const counts = countsOf(r);
        return {
          ...rowWire(r),
          distancia_km: categoryDistanceKm(r.category),
          concluintes_geral: counts.overall,
          concluintes_genero: counts.gender,
          concluintes_faixa: counts.ageGroup,
        };
      }),
    } satisfies RunnerResult;
  }

  /** A runner's own result by bib: each race of the event that bib ran, with how many finished in each group. */
  async function runner(eventId: number, bib: number): Promise<RunnerResult> {
    const result = await runnerOf(await readBibs(eventId, [bib]), bib, await backToShop(eventId));
    if (!result) throw notFound('Nenhum resultado com este número de peito.');
    return result;
  }

  /** The finisher shirt and the next edition staff linked to the event (a next edition still listed). */
  async function backToShop(eventId: number): Promise<RunnerResult['depois_da_chegada']> {
    const links = await repo.resultLinks(deps.db, eventId);
    const next =
      links.nextEditionEventId === null ? undefined : await deps.findEvent(links.nextEditionEventId);
    return {
      camisa_finisher_id: links.finisherProductId,
      proxima_edicao: next ? { id: next.id, nome: next.name, data: next.startDate } : null,
    };
  }

  /** The results of the registrations `userId` made, for "Minha conta". */
  async function ofAccount(userId: number): Promise<MyResults> {
    const rows = await repo.resultsOfAccount(deps.db, userId);
    const nextOf = new Map<number, MyResults[number]['proxima_edicao']>();
    for (const eventId of new Set(rows.map((r) => r.eventId)))
      nextOf.set(eventId, (await backToShop(eventId)).proxima_edicao);
    return rows.map((r) => ({
      evento_id: r.eventId,
      evento: r.eventName,
      data: r.day,
      numero: r.bib,
      nome: r.name,
      categoria: r.category,
      situacao: r.status,
      tempo: r.status === 'OK' ? formatRaceTime((r.netMs ?? r.gunMs)!) : null,
      colocacao_geral: r.placeOverall,
      inscricao: r.entryId,
      proxima_edicao: nextOf.get(r.eventId) ?? null,
    }));
  }

  /** The certificate of `bib` from rows read already, in the event's design; undefined when it finished no race. */
  function certificateOf(read: Read, bib: number, design: CertificateDesign): Promise<Buffer> | undefined {
    const finished = (read.rowsOf.get(bib) ?? []).filter((r) => r.status === 'OK' && r.gunMs !== null);
    if (!finished.length) return undefined;
    const { event, countsOf } = read;
    const base = deps.publicUrl.replace(/\/+$/, '');
    return renderCertificatePdf(
      finished.map((r) => {
        const token = certificateToken(deps.secret, {
          eventId: event.id,
          bib,
          categoryId: r.categoryId,
          gunMs: r.gunMs!,
          netMs: r.netMs,
        });
        return {
          name: r.name,
          event: event.name,
          city: event.city,
          day: r.day,
          category: r.category,
          gunMs: r.gunMs!,
          netMs: r.netMs,
          pace: pacePerKm(r.netMs ?? r.gunMs!, categoryDistanceKm(r.category)),
          placeOverall: r.placeOverall,
          finishers: countsOf(r).overall,
          verifyUrl: `${base}/api/resultados/certificados/${token}/`,
        };
      }),
      design,
    );
  }

  /** The design staff chose for the event's certificates (the default one when they chose none). */
  const designOf = async (eventId: number) => (await repo.certificateDesign(deps.db, eventId)).design;

  /** The finisher's certificate (a page per race finished), each with a QR code that verifies it. */
  async function certificate(eventId: number, bib: number): Promise<Buffer> {
    const pdf = certificateOf(await readBibs(eventId, [bib]), bib, await designOf(eventId));
    if (!pdf) throw notFound('Só quem concluiu a prova tem certificado.');
    return pdf;
  }

  /** A certificate of a made-up finisher in the event's design, for staff to see it (its code verifies nothing). */
  async function sampleCertificate(eventId: number): Promise<Buffer> {
    const event = await eventOrNotFound(eventId);
    const base = deps.publicUrl.replace(/\/+$/, '');
    return renderCertificatePdf(
      [
        {
          name: 'Nome da Participante',
          event: event.name,
          city: event.city,
          day: event.startDate,
          category: '10 km',
          gunMs: 2_730_000,
          netMs: 2_712_000,
          pace: pacePerKm(2_712_000, 10),
          placeOverall: 123,
          finishers: 1_234,
          verifyUrl: `${base}/api/resultados/certificados/amostra/`,
        },
      ],
      await designOf(eventId),
    );
  }

  /**
   * Several bibs' results read at once (the certificate job's 25 bibs: one read of the rows, the counts,
   * the event and its links instead of one per bib), each runner's answer and certificate made from them.
   * An event no longer listed reads as no results.
   */
  async function finishers(eventId: number, bibs: number[]) {
    const read = await readBibs(eventId, bibs).catch((err: unknown) => {
      if (err instanceof HttpError && err.statusCode === 404) return undefined;
      throw err;
    });
    const links = read ? await backToShop(eventId) : undefined;
    const design = read ? await designOf(eventId) : undefined;
    return {
      /** The runner's answer, as their page shows it; undefined without a published result. */
      runner: (bib: number) => (read && links ? runnerOf(read, bib, links) : Promise.resolve(undefined)),
      /** The certificate; undefined when the bib finished no race. */
      certificate: (bib: number) => (read && design ? certificateOf(read, bib, design) : undefined),
    };
  }

  /** Whether a certificate's code is the shop's and still matches the published result. */
  async function verify(token: string) {
    const certified = readCertificateToken(deps.secret, token);
    if (!certified)
      throw badRequest(
        'Certificado inválido: o código não foi emitido pela loja ou foi alterado.',
        'certificado_invalido',
      );
    const event = await eventOrNotFound(certified.eventId);
    const { rows } = await repo.resultsPage(
      deps.db,
      certified.eventId,
      { bib: certified.bib, categoryId: certified.categoryId },
      { limit: 1, offset: 0 },
    );
    const [r] = rows;
    if (r?.status !== 'OK') throw notFound('Este resultado não está mais publicado.');
    if (r.gunMs !== certified.gunMs || r.netMs !== certified.netMs)
      throw conflict(
        'O resultado foi corrigido depois da emissão deste certificado: emita um novo.',
        'certificado_desatualizado',
      );
    return {
      valido: true as const,
      evento: event.name,
      nome: r.name,
      numero: r.bib,
      categoria: r.category,
      tempo_bruto: formatRaceTime(r.gunMs!),
      tempo_liquido: r.netMs === null ? null : formatRaceTime(r.netMs),
      colocacao_geral: r.placeOverall,
    };
  }

  return { list, runner, ofAccount, certificate, sampleCertificate, finishers, verify, backToShop };
}

export type ResultsService = ReturnType<typeof createResultsService>;
