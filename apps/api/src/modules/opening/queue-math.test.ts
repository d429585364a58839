import { describe, expect, it } from 'vitest';
import {
  admittedAt,
  admittedUpTo,
  automaticPerMinute,
  preQueuePlaces,
  type Schedule,
  seededShuffle,
  waitMinutes,
} from './queue-math.ts';

describe('the pre-queue shuffle', () => {
  it('is a permutation, the same for the same seed and different for another', () => {
    const a = seededShuffle('segredo-1', 1000);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(seededShuffle('segredo-1', 1000)).toEqual(a);
    expect(seededShuffle('segredo-2', 1000)).not.toEqual(a);
  });

  it('gives every pre-queue arrival one place from 1 to P', () => {
    const places = preQueuePlaces('segredo', 500);
    expect([...places].sort((x, y) => x - y)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
  });

  // Pearson's chi-square over many seeds: each arrival is equally likely to land in each place, and
  // each of the 24 orders of four arrivals is equally likely. The seeds are fixed, so the test is
  // deterministic; the thresholds are the 0.001 critical values (16 and 23 degrees of freedom).
  it('puts each arrival in each place uniformly (chi-square over 5,000 seeds)', () => {
    const n = 5;
    const seeds = 5000;
    const counts = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let s = 0; s < seeds; s++) {
      const places = preQueuePlaces(`semente-${s}`, n);
      for (let arrival = 0; arrival < n; arrival++) counts[arrival]![places[arrival]! - 1]!++;
    }
    const expected = seeds / n;
    const chi = counts.flat().reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(39.25);
  });

  it('draws each of the 24 orders of four arrivals uniformly (chi-square over 12,000 seeds)', () => {
    const seeds = 12_000;
    const counts = new Map<string, number>();
    for (let s = 0; s < seeds; s++) {
      const key = [...seededShuffle(`ordem-${s}`, 4)].join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    const expected = seeds / 24;
    const chi = [...counts.values()].reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(49.73);
  });
});

describe('the admission schedule', () => {
  const opening = Date.parse('2026-12-01T12:00:00Z');
  const s: Schedule = { baseAt: opening, baseAdmitted: 0, perMinute: 100 };

  it('admits nobody before the opening, a first batch at it, then the rate each minute', () => {
    expect(admittedUpTo(s, opening - 1)).toBe(0);
    expect(admittedUpTo(s, opening)).toBe(100);
    expect(admittedUpTo(s, opening + 30_000)).toBe(150);
    expect(admittedUpTo(s, opening + 60_000)).toBe(200);
    expect(admittedUpTo(s, opening + 10 * 60_000)).toBe(1100);
  });

  it('says when each place was admitted, consistent with the count', () => {
    for (const place of [1, 100, 101, 150, 151, 999, 1000, 1001]) {
      const at = admittedAt(s, place);
      expect(admittedUpTo(s, at)).toBeGreaterThanOrEqual(place);
      if (at > opening) expect(admittedUpTo(s, at - 1)).toBeLessThan(place);
    }
  });

  it('continues from where a changed rate left it', () => {
    const changedAt = opening + 5 * 60_000;
    const before = admittedUpTo(s, changedAt);
    const next: Schedule = { baseAt: changedAt, baseAdmitted: before - 10, perMinute: 10 };
    expect(admittedUpTo(next, changedAt)).toBe(before);
    expect(admittedUpTo(next, changedAt + 60_000)).toBe(before + 10);
  });

  it('estimates the wait from the places ahead and the rate', () => {
    expect(waitMinutes(50, 100, 100)).toBe(0);
    expect(waitMinutes(101, 100, 100)).toBe(1);
    expect(waitMinutes(1000, 100, 100)).toBe(9);
    expect(waitMinutes(1001, 100, 100)).toBe(10);
  });

  it('fills the places left within one turn in the automatic mode', () => {
    expect(automaticPerMinute(1000, 10)).toBe(100);
    expect(automaticPerMinute(5, 10)).toBe(1);
    expect(automaticPerMinute(0, 10)).toBe(1);
  });
});
