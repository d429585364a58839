/**
 * Race results (docs/decisions/0064): the times a timing company's file holds, read and written the
 * way Brazilian results pages show them, the pace per km and a category's distance. No clock, no I/O.
 */

/** What became of a runner: finished (`OK`), did not finish, was disqualified, did not start. */
export const RESULT_STATUSES = ['OK', 'DNF', 'DSQ', 'DNS'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** How a results page names each status. */
export const RESULT_STATUS_LABEL: Record<ResultStatus, string> = {
  OK: 'Concluiu',
  DNF: 'Não concluiu (DNF)',
  DSQ: 'Desclassificado (DSQ)',
  DNS: 'Não largou (DNS)',
};

const STATUS_WORDS: Record<string, ResultStatus> = {
  '': 'OK',
  ok: 'OK',
  fin: 'OK',
  finisher: 'OK',
  concluiu: 'OK',
  completou: 'OK',
  chegou: 'OK',
  dnf: 'DNF',
  nc: 'DNF',
  'nao concluiu': 'DNF',
  'nao completou': 'DNF',
  abandono: 'DNF',
  dsq: 'DSQ',
  dq: 'DSQ',
  desclassificado: 'DSQ',
  desclassificada: 'DSQ',
  dns: 'DNS',
  nl: 'DNS',
  'nao largou': 'DNS',
  ausente: 'DNS',
};

/** The status a timer wrote ("DNF", "Desclassificado", "NL", empty for a finisher), or null when unknown. */
export function parseResultStatus(text: string): ResultStatus | null {
  const key = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z ]/g, '')
    .trim();
  return STATUS_WORDS[key] ?? null;
}

/**
 * A race time in milliseconds from what timers write: `h:mm:ss`, `hh:mm:ss`, `mm:ss`, with tenths,
 * hundredths or thousandths after a point or a comma (`0:41:23,4`). Null when it is not a time.
 */
export function parseRaceTime(text: string): number | null {
  const m = /^(?:(\d{1,3}):)?([0-5]?\d):([0-5]\d)(?:[.,](\d{1,3}))?$/.exec(text.trim());
  if (!m) return null;
  const [, h = '0', min, s, frac = ''] = m;
  const ms = frac ? Number(frac.padEnd(3, '0')) : 0;
  return ((Number(h) * 60 + Number(min)) * 60 + Number(s)) * 1000 + ms;
}

/** "0:41:23", or "0:41:23,4" when the timer gave tenths (what results pages print). */
export function formatRaceTime(ms: number): string {
  const totalSeconds = Math.floor(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const rest = ms % 1000;
  const base = `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return rest ? `${base},${String(rest).padStart(3, '0').replace(/0+$/, '')}` : base;
}

/**
 * A category's distance in km from its name ("10 km" → 10, "Meia maratona 21,1 km" → 21.1,
 * "5K" → 5), or null when the name says none ("Kids").
 */
export function categoryDistanceKm(name: string): number | null {
  const m = /(\d+(?:[.,]\d+)?)\s*k(?:m|ms|\b)/i.exec(name);
  if (!m) return null;
  const km = Number(m[1]!.replace(',', '.'));
  return km > 0 ? km : null;
}

/** The pace per km, "4:08/km" (seconds rounded down, as watches show it); null without a distance. */
export function pacePerKm(ms: number, km: number | null): string | null {
  if (!km) return null;
  const seconds = Math.floor(ms / 1000 / km);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}/km`;
}
