/**
 * Event registration rules shared by the server and the browser, so both agree on who pays what and
 * until when (docs/product.md §4 and §9; docs/brazil.md, Estatuto do Idoso art. 23). No clock, no I/O: the
 * caller passes "now" and the dates.
 */
import { dateInTimeZone, formatIsoDateBR, type IsoDate, STORE_TIME_ZONE } from './calendar.ts';
import { type Cents, formatBRL, halfPriceCents } from './money.ts';

/** Events page size (docs/product.md §9). */
export const EVENTS_PAGE_SIZE = 9;
/** Age from which the Estatuto do Idoso (Lei 10.741/2003, art. 23) grants half price. */
export const SENIOR_AGE = 60;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function dateParts(date: IsoDate): [number, number, number] {
  const m = ISO_DATE.exec(date);
  if (!m) throw new Error(`data inválida: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Registration is open while today, in America/Fortaleza, is on or before the deadline day. */
export function isRegistrationOpen(deadline: IsoDate, now: Date): boolean {
  return dateInTimeZone(now, STORE_TIME_ZONE) <= deadline;
}

/** Full years of age on `onDate`; a 29 February birthday counts from 1 March in common years. */
export function ageOn(birthDate: IsoDate, onDate: IsoDate): number {
  const [by, bm, bd] = dateParts(birthDate);
  const [y, m, d] = dateParts(onDate);
  const hadBirthday = m > bm || (m === bm && d >= bd);
  return y - by - (hadBirthday ? 0 : 1);
}

/** Aged 60 or more on the event day (the 60th birthday itself counts). */
export function isSenior(birthDate: IsoDate, eventDate: IsoDate): boolean {
  return ageOn(birthDate, eventDate) >= SENIOR_AGE;
}

/**
 * What one category costs this participant: half for a senior on that day's date (`halfPriceCents`
 * rounds an odd centavo in the participant's favour).
 */
export function registrationPrice(priceCents: Cents, birthDate: IsoDate, eventDate: IsoDate): Cents {
  return isSenior(birthDate, eventDate) ? halfPriceCents(priceCents) : priceCents;
}

/** A registration price as buyers read it: "Gratuita" for nothing to pay, otherwise "R$ 49,90". */
export function formatRegistrationPrice(cents: Cents): string {
  return cents === 0 ? 'Gratuita' : formatBRL(cents);
}

/** The sum of the chosen categories for this participant, each priced on its own day. */
export function registrationTotal(
  choices: ReadonlyArray<{ priceCents: Cents; date: IsoDate }>,
  birthDate: IsoDate,
): Cents {
  return choices.reduce((sum, c) => sum + registrationPrice(c.priceCents, birthDate, c.date), 0);
}

// The browser imports the date format from here too; it lives in calendar.ts.
export { formatIsoDateBR };

/** "05/12/2026", or "05/12/2026 a 06/12/2026" for an event over several days. */
export function formatEventDates(start: IsoDate, end: IsoDate): string {
  return start === end ? formatIsoDateBR(start) : `${formatIsoDateBR(start)} a ${formatIsoDateBR(end)}`;
}

/** What the event page hands to /eventos/register/{id}/finalizar (docs/product.md §4). */
export interface RegistrationStart {
  paraMim: boolean;
  eventoId: number;
  categorias: number[];
}

/**
 * The same hand-over as a query string, so a reload of /finalizar keeps it:
 * `paraMim=true&eventoId=3&categorias=12,15`.
 */
export function registrationStartToSearch(start: RegistrationStart): string {
  const params = new URLSearchParams({
    paraMim: String(start.paraMim),
    eventoId: String(start.eventoId),
    categorias: start.categorias.join(','),
  });
  return params.toString();
}

/** Reads the query string back; null when anything is missing or malformed. */
export function registrationStartFromSearch(search: string): RegistrationStart | null {
  const params = new URLSearchParams(search);
  const paraMim = params.get('paraMim');
  const eventoId = Number(params.get('eventoId'));
  const raw = params.get('categorias') ?? '';
  const categorias = raw.split(',').map(Number);
  if (paraMim !== 'true' && paraMim !== 'false') return null;
  if (!Number.isInteger(eventoId) || eventoId <= 0) return null;
  if (raw === '' || categorias.some((c) => !Number.isInteger(c) || c <= 0)) return null;
  return { paraMim: paraMim === 'true', eventoId, categorias };
}

/** The longest distance among categories, in km, read from their names ("Caminhada 3 km" → 3). */
export function longestDistanceKm(categoryNames: readonly string[]): number {
  return Math.max(0, ...categoryNames.map((name) => Number(/(\d+)\s*km/i.exec(name)?.[1] ?? 0)));
}

/** How long the course stays open, by the longest distance run that day (as Brazilian street races set it). */
export function courseTimeLimitMinutes(categoryNames: readonly string[]): number {
  const km = longestDistanceKm(categoryNames);
  if (km <= 5) return 60;
  if (km <= 10) return 75;
  if (km <= 21) return 180;
  return 360;
}

/** "6:00" + 75 → "7:15". */
export function addMinutesToTime(time: string, minutes: number): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  const total = h * 60 + m + minutes;
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/**
 * The race-day programme (docs/product.md §9) from the start time and the day's categories: awards
 * start when the course closes, so nobody still running misses them. A 06:00 start of up to 10 km
 * gives Concentração 5:15, Aquecimento 5:35, Largada 6:00, Premiação 7:15, Encerramento 8:00.
 */
export function raceProgramme(start: string, categoryNames: readonly string[]): Array<[string, string]> {
  const limit = courseTimeLimitMinutes(categoryNames);
  return [
    ['Concentração', addMinutesToTime(start, -45)],
    ['Aquecimento', addMinutesToTime(start, -25)],
    ['Largada', addMinutesToTime(start, 0)],
    ['Premiação', addMinutesToTime(start, limit)],
    ['Encerramento', addMinutesToTime(start, limit + 45)],
  ];
}

/**
 * A price period of a category (lote): in force until the end of `untilDate` (America/Fortaleza) and
 * while fewer than `untilCount` places of the category are sold, whichever comes first. A lot with
 * neither limit lasts until the event.
 */
export interface PriceLot {
  name: string;
  priceCents: Cents;
  untilDate: IsoDate | null;
  untilCount: number | null;
}

export interface LotPrice {
  /** The lot in force, or null when every lot has passed (the category's own price applies). */
  current: PriceLot | null;
  priceCents: Cents;
  /** What the place costs once the current lot ends; null when nothing comes after it. */
  next: { name: string | null; priceCents: Cents } | null;
}

function lotOpen(lot: PriceLot, today: IsoDate, sold: number): boolean {
  return (
    (lot.untilDate === null || today <= lot.untilDate) && (lot.untilCount === null || sold < lot.untilCount)
  );
}

/**
 * The price of a category today, given its lots in order and the places already sold (held places
 * count: a charge waiting for payment took one). After the last lot, the category's own price.
 */
export function lotPrice(
  lots: ReadonlyArray<PriceLot>,
  basePriceCents: Cents,
  today: IsoDate,
  sold: number,
): LotPrice {
  const index = lots.findIndex((lot) => lotOpen(lot, today, sold));
  if (index < 0) return { current: null, priceCents: basePriceCents, next: null };
  const current = lots[index] as PriceLot;
  const following = lots.slice(index + 1).find((lot) => lot.untilDate === null || lot.untilDate >= today);
  const unlimited = current.untilDate === null && current.untilCount === null;
  const next = unlimited
    ? null
    : following
      ? { name: following.name, priceCents: following.priceCents }
      : { name: null, priceCents: basePriceCents };
  return { current, priceCents: current.priceCents, next };
}

/** "1º lote até 10/01 ou 300 inscrições". */
export function describeLot(lot: PriceLot): string {
  const limits = [
    lot.untilDate ? `até ${formatIsoDateBR(lot.untilDate).slice(0, 5)}` : null,
    lot.untilCount !== null ? `${lot.untilCount} inscrições` : null,
  ].filter((x): x is string => x !== null);
  return limits.length === 0 ? lot.name : `${lot.name} ${limits.join(' ou ')}`;
}

/**
 * Age group (faixa etária) by age on the event day, in the five-year bands race results use:
 * "Até 19 anos", "20 a 24 anos", …, "75 a 79 anos", "80 anos ou mais".
 */
export function ageGroup(birthDate: IsoDate, eventDate: IsoDate): string {
  const age = ageOn(birthDate, eventDate);
  if (age < 20) return 'Até 19 anos';
  if (age >= 80) return '80 anos ou mais';
  const from = Math.floor(age / 5) * 5;
  return `${from} a ${from + 4} anos`;
}

/**
 * What the public may take of a category (docs/decisions/0047, 0076): nothing while someone waits in its
 * waitlist, else the places left less those held for someone (the waitlist's offers, the teams' quotas).
 * Every screen that says how many places are left says this figure.
 */
export function publicPlacesLeft(placesLeft: number, held: { waiting: number; offers: number } | undefined) {
  if (!held) return placesLeft;
  return held.waiting > 0 ? 0 : Math.max(0, placesLeft - held.offers);
}
