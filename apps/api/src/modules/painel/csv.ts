import type { FastifyReply } from 'fastify';

/** A cell a spreadsheet would run as a formula: it starts with = + - @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number (a minus, digits, a decimal comma): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^-?\d+(,\d+)?$/;

/**
 * Excel pt-BR opens `;`-separated UTF-8 with a BOM with accents intact; quotes only where needed.
 * Whatever people typed (a name, a team) could be a formula that runs on the staff member's computer
 * when the file is opened (OWASP, CSV Injection, https://owasp.org/www-community/attacks/CSV_Injection):
 * such a cell gets a leading single quote and is quoted, so Excel and LibreOffice show it as text. A
 * plain number, a negative one included, is left alone so it still reads as a number (decision 0026).
 */
export function csvField(value: string | number): string {
  const raw = String(value);
  const text = FORMULA_START.test(raw) && !PLAIN_NUMBER.test(raw) ? `'${raw}` : raw;
  return text !== raw || /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Sends `;`-separated lines as a UTF-8 download with a BOM and CRLF line ends (what Excel pt-BR opens). */
export function sendCsv(reply: FastifyReply, filename: string, lines: string[]) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(`\uFEFF${lines.join('\r\n')}\r\n`);
}

/** One CSV line from its cells, each escaped. */
export const csvLine = (cells: Array<string | number>) => cells.map(csvField).join(';');
