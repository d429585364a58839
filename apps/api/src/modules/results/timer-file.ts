import type { TimerColumns } from '@passada/core/contracts/results';
import type { ImportedLine } from '../../db/schema/index.ts';
import { columnKey, readCsvRows } from '../../plugins/csv-read.ts';
import { badRequest } from '../../plugins/errors.ts';

export { columnKey };

/**
 * A timing company's file (docs/decisions/0064): CSV or TXT, its cells separated by `;` (Excel pt-BR),
 * `,` or a tab, whichever the title line uses most; quotes as spreadsheets write them; a BOM or none.
 * The columns are found by their titles, read without case, accents or extra spaces, so the same timer's
 * file with its columns in another order reads the same.
 */

/** A timer's file read into rows of trimmed cells, the title line first; a 400 when it cannot be read. */
export const readTimerRows = (content: string) =>
  readCsvRows(content, 'Não foi possível ler o arquivo: confira se é um CSV ou TXT da cronometragem.');

/** The file's lines with the mapped cells picked out; refuses a file without a mapped column or too long. */
export function readTimerFile(content: string, columns: TimerColumns, maxLines: number): ImportedLine[] {
  const [titles, ...body] = readTimerRows(content);
  if (!titles || body.length === 0)
    throw badRequest('O arquivo não tem linhas de resultado depois da linha de títulos.', 'arquivo_vazio');
  if (body.length > maxLines)
    throw badRequest(`O arquivo tem ${body.length} linhas; o limite é ${maxLines}.`, 'arquivo_grande_demais');
  const keys = titles.map(columnKey);
  const at = (title: string | null) => (title === null ? -1 : keys.indexOf(columnKey(title)));
  const bibAt = at(columns.numero);
  const gunAt = at(columns.tempo_bruto);
  const netAt = at(columns.tempo_liquido);
  const statusAt = at(columns.situacao);
  const missing = [
    bibAt < 0 ? columns.numero : null,
    gunAt < 0 ? columns.tempo_bruto : null,
    columns.tempo_liquido !== null && netAt < 0 ? columns.tempo_liquido : null,
    columns.situacao !== null && statusAt < 0 ? columns.situacao : null,
  ].filter((t): t is string => t !== null);
  if (missing.length)
    throw badRequest(
      `O arquivo não tem ${missing.length === 1 ? 'a coluna' : 'as colunas'} ${missing.map((m) => `"${m}"`).join(', ')} que esta cronometragem usa. Confira o arquivo ou as colunas da cronometragem.`,
      'colunas_ausentes',
    );
  const mapped = new Set([bibAt, gunAt, netAt, statusAt]);
  const cell = (row: string[], i: number) => (i < 0 ? '' : (row[i] ?? '').trim());
  return body.map((row, i) => {
    const other: Record<string, string> = {};
    titles.forEach((title, c) => {
      if (!mapped.has(c) && title.trim()) other[title.trim()] = cell(row, c);
    });
    return {
      // The title line is line 1; skipped blank lines are not counted, as spreadsheets number rows.
      line: i + 2,
      bib: cell(row, bibAt),
      gun: cell(row, gunAt),
      net: cell(row, netAt),
      status: cell(row, statusAt),
      other,
    };
  });
}
