/**
 * Business-day calendar for delivery estimates (docs/brazil.md, "CEP and shipping"): weekends, the
 * national fixed holidays, Good Friday, and Carnival Monday/Tuesday and Corpus Christi, on which the
 * Correios usually do not deliver. Dates are calendar dates as "yyyy-MM-dd"; no clock, no I/O.
 */

export type IsoDate = string;

/** The store is in Fortaleza: "today" for deadlines and delivery dates is its calendar day there. */
export const STORE_TIME_ZONE = 'America/Fortaleza';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parse(date: IsoDate): Date {
  const m = ISO_DATE.exec(date);
  if (!m) throw new Error(`data inválida: ${date}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.toISOString().slice(0, 10) !== date) throw new Error(`data inválida: ${date}`);
  return d;
}

function format(d: Date): IsoDate {
  return d.toISOString().slice(0, 10);
}

/** `date` moved by `days` calendar days. */
export function addDays(date: IsoDate, days: number): IsoDate {
  const d = parse(date);
  d.setUTCDate(d.getUTCDate() + days);
  return format(d);
}

/** The same day `years` later; 29 February becomes 28 February in a common year. */
export function addYears(date: IsoDate, years: number): IsoDate {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const target = y + years;
  const leap = (target % 4 === 0 && target % 100 !== 0) || target % 400 === 0;
  const day = m === 2 && d === 29 && !leap ? 28 : d;
  return `${String(target).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Easter Sunday by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export function easterSunday(year: number): IsoDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Days without delivery in `year`, date → name. */
export function nonBusinessHolidays(year: number): Map<IsoDate, string> {
  const y = String(year);
  const fixed: Array<[string, string]> = [
    ['01-01', 'Confraternização Universal'],
    ['04-21', 'Tiradentes'],
    ['05-01', 'Dia do Trabalho'],
    ['09-07', 'Independência do Brasil'],
    ['10-12', 'Nossa Senhora Aparecida'],
    ['11-02', 'Finados'],
    ['11-15', 'Proclamação da República'],
    ['12-25', 'Natal'],
  ];
  // Lei 14.759/2023 made 20 November a national holiday from 2024 on.
  if (year >= 2024) fixed.push(['11-20', 'Dia Nacional de Zumbi e da Consciência Negra']);
  const holidays = new Map<IsoDate, string>(fixed.map(([md, name]) => [`${y}-${md}`, name]));
  const easter = easterSunday(year);
  holidays.set(addDays(easter, -48), 'Carnaval (segunda-feira)');
  holidays.set(addDays(easter, -47), 'Carnaval (terça-feira)');
  holidays.set(addDays(easter, -2), 'Sexta-feira Santa');
  holidays.set(addDays(easter, 60), 'Corpus Christi');
  return holidays;
}

const holidayCache = new Map<number, Map<IsoDate, string>>();

function holidaysOf(year: number): Map<IsoDate, string> {
  let h = holidayCache.get(year);
  if (!h) {
    h = nonBusinessHolidays(year);
    holidayCache.set(year, h);
  }
  return h;
}

export function isBusinessDay(date: IsoDate): boolean {
  const d = parse(date);
  const weekday = d.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !holidaysOf(d.getUTCFullYear()).has(date);
}

/**
 * The date `days` business days after `start` (start itself not counted, as delivery estimates count
 * from the day after posting). `days` 0 gives `start`.
 */
export function addBusinessDays(start: IsoDate, days: number): IsoDate {
  if (!Number.isInteger(days) || days < 0) throw new Error(`número de dias inválido: ${days}`);
  let date = start;
  let left = days;
  while (left > 0) {
    date = addDays(date, 1);
    if (isBusinessDay(date)) left -= 1;
  }
  return date;
}

/** Building an Intl.DateTimeFormat costs far more than using one: one per time zone, kept. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** The calendar date of `instant` in `timeZone` (e.g. the store's "today" in America/Fortaleza). */
export function dateInTimeZone(instant: Date, timeZone: string): IsoDate {
  const parts = dayFormat(timeZone).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The instant the store's calendar day `day` starts: midnight in America/Fortaleza (UTC−3, no summer time). */
export function storeDayStart(day: IsoDate): Date {
  return new Date(`${day}T00:00:00-03:00`);
}

/** Built on first use, not when a page loads this module (a page's first Intl use is slow: digits.ts). */
let storeDateTime: Intl.DateTimeFormat | undefined;

/** An instant as the store's people read it: "05/12/2026, 06:00" in the store's time zone. */
export function formatStoreDateTime(instant: Date): string {
  storeDateTime ??= new Intl.DateTimeFormat('pt-BR', {
    timeZone: STORE_TIME_ZONE,
    dateStyle: 'short',
    timeStyle: 'short',
  });
  return storeDateTime.format(instant);
}

/** "2026-12-05" → "05/12/2026" (docs/architecture.md §2: dates shown dd/MM/yyyy). */
export function formatIsoDateBR(date: IsoDate): string {
  const m = ISO_DATE.exec(date);
  if (!m) throw new Error(`data inválida: ${date}`);
  return `${m[3]}/${m[2]}/${m[1]}`;
}
