import { stripAccents } from '@passada/core/text';
import { parse } from 'csv-parse/sync';
import { badRequest } from './errors.ts';

/**
 * A spreadsheet's CSV or TXT as people send it (a timing company's file, a captain's list of members):
 * its cells separated by `;` (Excel pt-BR), `,` or a tab, whichever the title line uses most; quotes as
 * spreadsheets write them; a BOM or none. Columns are found by their titles, read without case, accents
 * or extra spaces.
 */

const SEPARATORS = [';', '\t', ','] as const;

/** A column title as compared: "Tempo Líquido " and "tempo liquido" are the same column. */
export const columnKey = (title: string) => stripAccents(title).toLowerCase().replace(/\s+/g, ' ').trim();

function separatorOf(firstLine: string): string {
  let best: string = SEPARATORS[0];
  let most = 0;
  for (const sep of SEPARATORS) {
    const count = firstLine.split(sep).length - 1;
    if (count > most) {
      best = sep;
      most = count;
    }
  }
  return best;
}

/** The file read into rows of trimmed cells, the title line first; a 400 with `unreadable` when it cannot be. */
export function readCsvRows(content: string, unreadable: string): string[][] {
  const text = content.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  try {
    return parse(text, {
      delimiter: separatorOf(firstLine),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch {
    throw badRequest(unreadable, 'arquivo_ilegivel');
  }
}
