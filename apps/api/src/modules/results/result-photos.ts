import type { PainelResultPhoto, ResultPhotoFileAnswer, RunnerPhoto } from '@passada/core/contracts/results';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, notFound } from '../../plugins/errors.ts';
import * as repo from './result-photos.repository.ts';
import { notifyResultsChanged } from './results.repository.ts';
import { columnKey, readTimerRows } from './timer-file.ts';

/** Titles the photo's column may have in a timer's file of bibs per photo, and the bibs' column. */
const PHOTO_TITLES = ['foto', 'arquivo', 'imagem', 'nome do arquivo'];
const BIB_TITLES = ['numeros', 'numero', 'peito', 'numeros de peito', 'numero de peito'];

/** The bibs a cell lists: "101 102", "101,102", "101|102" or one a line. */
const bibsOf = (cell: string) =>
  [...new Set((cell.match(/\d{1,6}/g) ?? []).map(Number).filter((n) => n > 0))].sort((a, b) => a - b);

/** A photo's larger copy: the pipeline names its widths in the file (…-800.webp, …-1200.webp). */
const largeOf = (url: string) => url.replace(/-800\.webp$/, '-1200.webp');

/**
 * Photos of a race by bib (docs/decisions/0064, later). The photo pipeline stores and resizes them with the
 * brand's mark; this module keeps which event and bibs each shows and its state, and answers a runner's
 * page with the ready photos of the bib. Every change notifies RESULTS_CHANGED: the runner's page is kept
 * built until then.
 */
export function createResultPhotos(deps: { db: Db; maxLines: number }) {
  const wire = (r: repo.ResultPhotoRow): PainelResultPhoto => ({
    id: r.id,
    url: r.url,
    nome_arquivo: r.fileName,
    numeros: r.bibs,
    status: r.status as PainelResultPhoto['status'],
  });

  /** Records an uploaded photo of the event, in the pipeline's transaction. */
  async function add(tx: Tx, eventId: number, url: string, fileName: string): Promise<PainelResultPhoto> {
    const name = fileName.trim().slice(0, 200) || 'foto';
    return wire(await repo.insertPhoto(tx, eventId, url, name));
  }

  /** The pipeline finished (or gave up on) a photo: shown from now on, or never. */
  async function done(tx: Tx, url: string, status: 'pronta' | 'falhou'): Promise<void> {
    const eventId = await repo.setStatus(tx, url, status);
    if (eventId !== undefined) await notifyResultsChanged(tx, eventId);
  }

  async function list(eventId: number): Promise<PainelResultPhoto[]> {
    return (await repo.photosOfEvent(deps.db, eventId)).map(wire);
  }

  /** Tags a photo by hand with the bibs seen in it. */
  async function tag(tx: Tx, eventId: number, photoId: number, bibs: number[]): Promise<PainelResultPhoto> {
    const row = await repo.setBibs(
      tx,
      eventId,
      photoId,
      [...new Set(bibs)].sort((a, b) => a - b),
    );
    if (!row) throw notFound('Foto não encontrada neste evento.');
    await notifyResultsChanged(tx, eventId);
    return wire(row);
  }

  /**
   * The timer's file of bibs per photo: each photo named by its file's name gets the bibs of its lines
   * (a photo on several lines gets them all), replacing what it had; a line naming no photo of the
   * event, or no bib, is listed with why and changes nothing.
   */
  async function tagFromFile(tx: Tx, eventId: number, content: string): Promise<ResultPhotoFileAnswer> {
    const [titles, ...body] = readTimerRows(content);
    const keys = (titles ?? []).map(columnKey);
    const photoAt = keys.findIndex((k) => PHOTO_TITLES.includes(k));
    const bibsAt = keys.findIndex((k) => BIB_TITLES.includes(k));
    if (photoAt < 0 || bibsAt < 0)
      throw badRequest(
        'O arquivo precisa de uma linha de títulos com a coluna da foto ("Foto" ou "Arquivo") e a dos números de peito ("Números" ou "Peito").',
        'colunas_ausentes',
      );
    if (body.length > deps.maxLines)
      throw badRequest(
        `O arquivo tem ${body.length} linhas; o limite é ${deps.maxLines}.`,
        'arquivo_grande_demais',
      );
    const lines = body.map((row, i) => ({
      line: i + 2,
      file: (row[photoAt] ?? '').trim(),
      bibs: bibsOf(row[bibsAt] ?? ''),
    }));
    const found = new Map(
      (await repo.photosByFileName(tx, eventId, [...new Set(lines.map((l) => l.file))])).map((p) => [
        p.fileName,
        p.id,
      ]),
    );
    const refused: ResultPhotoFileAnswer['linhas_recusadas'] = [];
    const bibsOfPhoto = new Map<number, Set<number>>();
    for (const l of lines) {
      const id = found.get(l.file);
      const why =
        id === undefined
          ? 'nenhuma foto do evento com este nome'
          : l.bibs.length
            ? null
            : 'sem número de peito';
      if (why) refused.push({ linha: l.line, arquivo: l.file, motivo: why });
      else {
        const set = bibsOfPhoto.get(id!) ?? new Set<number>();
        for (const b of l.bibs) set.add(b);
        bibsOfPhoto.set(id!, set);
      }
    }
    for (const [id, bibs] of bibsOfPhoto)
      await repo.setBibs(
        tx,
        eventId,
        id,
        [...bibs].sort((a, b) => a - b),
      );
    if (bibsOfPhoto.size) await notifyResultsChanged(tx, eventId);
    return { fotos_marcadas: bibsOfPhoto.size, linhas_recusadas: refused };
  }

  /** Removes a photo of the event; its URL, whose files the pipeline then forgets. */
  async function remove(tx: Tx, eventId: number, photoId: number): Promise<string> {
    const row = await repo.deletePhoto(tx, eventId, photoId);
    if (!row) throw notFound('Foto não encontrada neste evento.');
    await notifyResultsChanged(tx, eventId);
    return row.url;
  }

  /** A runner's ready photos, for their page. */
  async function ofBib(eventId: number, bib: number): Promise<RunnerPhoto[]> {
    return (await repo.readyPhotosOfBib(deps.db, eventId, bib)).map((p) => ({
      id: p.id,
      url: p.url,
      grande: largeOf(p.url),
    }));
  }

  return { add, done, list, tag, tagFromFile, remove, ofBib };
}

export type ResultPhotos = ReturnType<typeof createResultPhotos>;
