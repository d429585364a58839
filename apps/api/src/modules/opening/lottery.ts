import { createHash } from 'node:crypto';
import { seededShuffle } from './queue-math.ts';

/**
 * The verifiable draw of a lottery opening (sorteio), free of I/O. Before the entry window closes the
 * shop publishes `commitment(seed)`, the SHA-256 of a secret seed; after the draw it publishes the
 * seed. Anyone can then check that the seed matches the commitment and recompute the winners from the
 * published list of entry ids:
 *
 * 1. sort the entry ids in ascending numeric order and join them with "," (e.g. "3,8,15");
 * 2. the draw's key is SHA-256 of `<seed>:<that list>` (hex), so a changed list changes every draw;
 * 3. shuffle the positions 0..n-1 of the sorted list with Fisher–Yates, i from n-1 down to 1,
 *    j = a uniform integer in [0, i] taken from the stream HMAC-SHA256(key, "0"), HMAC-SHA256(key,
 *    "1"), … read as big-endian 32-bit words, a word w used only when w < 2^32 − (2^32 mod (i+1)) and
 *    then j = w mod (i+1), otherwise the next word (no modulo bias);
 * 4. the entries in the shuffled order are the ranking: the first `places` win; further draws for
 *    places left unpaid take the next ones in the same ranking.
 */

/** The commitment published before the window closes: SHA-256 of the seed, hex. */
export function commitment(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}

/** The key of a draw: the seed bound to the exact list of entries. */
export function drawKey(seed: string, entryIds: readonly number[]): { key: string; sorted: number[] } {
  const sorted = [...entryIds].sort((a, b) => a - b);
  const key = createHash('sha256')
    .update(`${seed}:${sorted.join(',')}`)
    .digest('hex');
  return { key, sorted };
}

/** Every entry in the drawn order (the ranking); the first `places` are the winners of the first draw. */
export function drawRanking(seed: string, entryIds: readonly number[]): number[] {
  const { key, sorted } = drawKey(seed, entryIds);
  const order = seededShuffle(key, sorted.length);
  return Array.from(order, (i) => sorted[i]!);
}

/**
 * The winners of draw number `round` (1 = the first): the first draw takes `places` entries from the
 * ranking, each further draw the next `places` (the places left unpaid by the earlier winners).
 */
export function drawWinners(
  seed: string,
  entryIds: readonly number[],
  places: number,
  alreadyDrawn = 0,
): number[] {
  return drawRanking(seed, entryIds).slice(alreadyDrawn, alreadyDrawn + places);
}
