import { describe, expect, it } from 'vitest';
import {
  categoryDistanceKm,
  formatRaceTime,
  pacePerKm,
  parseRaceTime,
  parseResultStatus,
} from './results.ts';

describe('race times, statuses and pace', () => {
  it('reads the times timers write, with a point or a comma before the fractions', () => {
    expect(parseRaceTime('0:41:23')).toBe(2_483_000);
    expect(parseRaceTime('01:41:23,4')).toBe(6_083_400);
    expect(parseRaceTime('41:23.25')).toBe(2_483_250);
    expect(parseRaceTime(' 2:05:00 ')).toBe(7_500_000);
    for (const bad of ['', '41', '0:61:00', '1:2x:00', '1:00:00,1234', '-0:10:00'])
      expect(parseRaceTime(bad), bad).toBeNull();
  });

  it('writes them back as results pages print them', () => {
    expect(formatRaceTime(2_483_000)).toBe('0:41:23');
    expect(formatRaceTime(6_083_400)).toBe('1:41:23,4');
    expect(formatRaceTime(2_483_250)).toBe('0:41:23,25');
  });

  it('keeps DNF, DSQ and DNS apart and knows their Portuguese words', () => {
    expect(['', 'OK', 'Concluiu'].map(parseResultStatus)).toEqual(['OK', 'OK', 'OK']);
    expect(['dnf', 'NC', 'Não concluiu'].map(parseResultStatus)).toEqual(['DNF', 'DNF', 'DNF']);
    expect(['DSQ', 'DQ', 'Desclassificado'].map(parseResultStatus)).toEqual(['DSQ', 'DSQ', 'DSQ']);
    expect(['DNS', 'NL', 'Não largou'].map(parseResultStatus)).toEqual(['DNS', 'DNS', 'DNS']);
    expect(parseResultStatus('talvez')).toBeNull();
  });

  it('reads the distance from the category name and the pace per km from it', () => {
    expect(
      ['10 km', 'Meia maratona 21,1 km', '5K', 'Caminhada 3 km', 'Kids'].map(categoryDistanceKm),
    ).toEqual([10, 21.1, 5, 3, null]);
    expect(pacePerKm(2_483_000, 10)).toBe('4:08/km');
    expect(pacePerKm(2_483_000, null)).toBeNull();
  });
});
