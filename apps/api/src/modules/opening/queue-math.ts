import { createHmac } from 'node:crypto';

/**
 * The waiting room's arithmetic, free of I/O (docs/decisions/0046-opening-day.md).
 *
 * Every runner who joins gets an arrival number from one counter (1, 2, 3…). Those who arrived
 * before the opening (the pre-queue, numbers 1..P) get their place in the queue drawn at the opening:
 * a uniform shuffle of 1..P seeded by the event's secret. Those who arrive after it keep their
 * arrival order behind them (place = arrival number). Admission is a schedule: `admittedUpTo(t)` places
 * are admitted at instant t, growing by `perMinute` each minute from the opening, so every process
 * computes the same figure from the same small row, and a runner's turn starts at a known instant.
 */

/** A stream of uniform 32-bit integers from HMAC-SHA256(seed, counter): the same seed, the same stream. */
export function seededStream(seed: string | Buffer): () => number {
  let counter = 0;
  let block: Buffer = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset + 4 > block.length) {
      block = createHmac('sha256', seed).update(String(counter++)).digest();
      offset = 0;
    }
    const value = block.readUInt32BE(offset);
    offset += 4;
    return value;
  };
}

/** A uniform integer in [0, n) from the stream, without modulo bias (rejection sampling). */
export function uniformBelow(next: () => number, n: number): number {
  if (n <= 0 || n > 2 ** 32) throw new RangeError(`n fora do intervalo: ${n}`);
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const x = next();
    if (x < limit) return x % n;
  }
}

/**
 * A uniform shuffle (Fisher–Yates) of 0..n-1 from the seed: `order[i]` is the i-th drawn. Deterministic:
 * the same seed and n give the same order in every process.
 */
export function seededShuffle(seed: string | Buffer, n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const next = seededStream(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = uniformBelow(next, i + 1);
    const tmp = order[i]!;
    order[i] = order[j]!;
    order[j] = tmp;
  }
  return order;
}

/**
 * The place in the queue of each pre-queue arrival: `places[a]` is the 1-based place of arrival a+1.
 * The inverse of the shuffle, so place p is taken by the arrival drawn p-th.
 */
export function preQueuePlaces(seed: string | Buffer, preQueueSize: number): Uint32Array {
  const order = seededShuffle(seed, preQueueSize);
  const places = new Uint32Array(preQueueSize);
  for (let p = 0; p < preQueueSize; p++) places[order[p]!] = p + 1;
  return places;
}

/** The admission schedule of an opening, as stored in its row. */
export interface Schedule {
  /** When admissions (re)started at `baseAdmitted` (the opening, or the last change of the rate). */
  baseAt: number;
  /** Places already admitted at `baseAt`. */
  baseAdmitted: number;
  /** Places admitted per minute from `baseAt`. */
  perMinute: number;
}

const MINUTE = 60_000;

/** How many places are admitted at instant `at` (ms): a first batch at baseAt, then `perMinute` a minute. */
export function admittedUpTo(s: Schedule, at: number): number {
  if (at < s.baseAt) return s.baseAdmitted;
  return s.baseAdmitted + Math.floor(((at - s.baseAt) * s.perMinute) / MINUTE) + s.perMinute;
}

/**
 * When place `place` is (or was) admitted. A place admitted before the schedule's base (a rate change)
 * is reported as admitted at the base: a turn is never shortened by a change, at most lengthened.
 */
export function admittedAt(s: Schedule, place: number): number {
  if (place <= s.baseAdmitted + s.perMinute) return s.baseAt;
  const minutes = (place - s.baseAdmitted - s.perMinute) / s.perMinute;
  return s.baseAt + Math.ceil(minutes * MINUTE);
}

/**
 * Places per minute in the automatic mode: enough runners to fill every place left within one turn
 * (each admitted runner holds the turn for `turnMinutes`), never fewer than one a minute.
 */
export function automaticPerMinute(placesLeft: number, turnMinutes: number): number {
  return Math.max(1, Math.ceil(placesLeft / Math.max(1, turnMinutes)));
}

/**
 * An honest estimate of the wait for `place` while `admitted` places are in: the places ahead divided by
 * the rate, in whole minutes rounded up (0 when it is this runner's turn).
 */
export function waitMinutes(place: number, admitted: number, perMinute: number): number {
  if (place <= admitted) return 0;
  return Math.ceil((place - admitted) / Math.max(1, perMinute));
}
