import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commitment, drawRanking, drawWinners } from './lottery.ts';

const entries = Array.from({ length: 200 }, (_, i) => 1000 + i * 7);
const SEED = 'c0ffee-semente-do-sorteio';

/** The algorithm as the event page documents it, written again from that text alone. */
function recompute(seed: string, ids: number[], places: number): number[] {
  const sorted = [...ids].sort((a, b) => a - b);
  const key = createHash('sha256')
    .update(`${seed}:${sorted.join(',')}`)
    .digest('hex');
  let counter = 0;
  let words: number[] = [];
  const next = () => {
    if (words.length === 0) {
      const block = createHmac('sha256', key).update(String(counter++)).digest();
      words = Array.from({ length: 8 }, (_, k) => block.readUInt32BE(k * 4));
    }
    return words.shift()!;
  };
  const order = sorted.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let w = next();
    while (w >= limit) w = next();
    const j = w % n;
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, places).map((i) => sorted[i]!);
}

describe('the verifiable lottery draw', () => {
  it('publishes the SHA-256 of the seed as the commitment', () => {
    expect(commitment(SEED)).toBe(createHash('sha256').update(SEED).digest('hex'));
    expect(commitment(SEED)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same winners for the same seed and entries, whatever order the list comes in', () => {
    const first = drawWinners(SEED, entries, 20);
    expect(first).toHaveLength(20);
    expect(new Set(first).size).toBe(20);
    expect(drawWinners(SEED, entries, 20)).toEqual(first);
    expect(drawWinners(SEED, [...entries].reverse(), 20)).toEqual(first);
  });

  it('draws differently when the entry list changes or the seed does', () => {
    const first = drawWinners(SEED, entries, 20);
    expect(drawWinners(SEED, entries.slice(1), 20)).not.toEqual(first);
    expect(drawWinners(SEED, [...entries, 99_999], 20)).not.toEqual(first);
    expect(drawWinners(`${SEED}x`, entries, 20)).not.toEqual(first);
  });

  it('is what anyone recomputes from the published seed and entry ids', () => {
    expect(drawWinners(SEED, entries, 30)).toEqual(recompute(SEED, entries, 30));
  });

  it('takes the next entries of the same ranking in a further draw', () => {
    const ranking = drawRanking(SEED, entries);
    expect(drawWinners(SEED, entries, 10, 20)).toEqual(ranking.slice(20, 30));
    expect(new Set(ranking).size).toBe(entries.length);
  });
});
