import { describe, expect, it } from 'vitest';
import { formatEstimatedTime, parseEstimatedTime, waveCandidates, wavesProblem } from './waves.ts';

describe('waves by estimated finish time', () => {
  it('reads h:mm and h:mm:ss estimates and refuses anything else', () => {
    expect(parseEstimatedTime('0:55')).toBe(55 * 60);
    expect(parseEstimatedTime(' 1:45:30 ')).toBe(6330);
    for (const bad of ['55', '0:60', '1:5', '0:00', '24:00', 'abc', '1:00:61'])
      expect(parseEstimatedTime(bad)).toBeNull();
    expect(formatEstimatedTime(6330)).toBe('1:45:30');
    expect(formatEstimatedTime(3000)).toBe('0:50');
  });

  it('tries the wave whose bound holds the estimate, then each slower one; no estimate starts at the back', () => {
    const waves = [{ upToSeconds: 2700 }, { upToSeconds: 3300 }, { upToSeconds: null }];
    expect(waveCandidates(waves, 2400)).toEqual([0, 1, 2]);
    expect(waveCandidates(waves, 2700)).toEqual([0, 1, 2]);
    expect(waveCandidates(waves, 2701)).toEqual([1, 2]);
    expect(waveCandidates(waves, 9000)).toEqual([2]);
    expect(waveCandidates(waves, null)).toEqual([2]);
    expect(waveCandidates([], 100)).toEqual([]);
  });

  it('asks rising bounds and a last wave without bound nor cap', () => {
    expect(
      wavesProblem([
        { upToSeconds: 2700, capacity: 100 },
        { upToSeconds: null, capacity: null },
      ]),
    ).toBeNull();
    expect(wavesProblem([{ upToSeconds: 2700, capacity: 100 }])).toMatch(/última onda/);
    expect(wavesProblem([{ upToSeconds: null, capacity: 10 }])).toMatch(/última onda/);
    expect(
      wavesProblem([
        { upToSeconds: 3000, capacity: null },
        { upToSeconds: 2700, capacity: null },
        { upToSeconds: null, capacity: null },
      ]),
    ).toMatch(/crescer/);
    expect(
      wavesProblem([
        { upToSeconds: null, capacity: null },
        { upToSeconds: null, capacity: null },
      ]),
    ).toMatch(/Só a última/);
  });
});
