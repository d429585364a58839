import { nfeKeyCheckDigit } from '@passada/core/nfe-key';
import { describe, expect, it } from 'vitest';
import { buildAccessKey, formatAccessKey, isValidAccessKey } from './access-key.ts';

/** The worked example of the NF-e Manual de Orientação do Contribuinte (check digit 5, sum 644). */
const MANUAL_KEY = '52060433009911002506550120000007800267301615';

describe('NF-e access key', () => {
  it('computes the published example check digit', () => {
    expect(nfeKeyCheckDigit(MANUAL_KEY.slice(0, 43))).toBe(5);
    expect(isValidAccessKey(MANUAL_KEY)).toBe(true);
  });

  it('refuses a key with a wrong check digit, a wrong length or an unknown state', () => {
    expect(isValidAccessKey(`${MANUAL_KEY.slice(0, 43)}4`)).toBe(false);
    expect(isValidAccessKey(MANUAL_KEY.slice(1))).toBe(false);
    expect(isValidAccessKey(`99${MANUAL_KEY.slice(2)}`)).toBe(false);
  });

  it('builds the key from its parts: state, AAMM in Brasília time, CNPJ, model 55, series, number, type, code', () => {
    const key = buildAccessKey({
      uf: 'CE',
      // 01:00 UTC on 1 December is still November in Brasília.
      issuedAt: new Date('2026-12-01T01:00:00Z'),
      cnpj: '12345678000195',
      series: 1,
      number: 42,
      code: 12345678,
    });
    expect(key).toHaveLength(44);
    expect(key.slice(0, 2)).toBe('23');
    expect(key.slice(2, 6)).toBe('2611');
    expect(key.slice(6, 20)).toBe('12345678000195');
    expect(key.slice(20, 22)).toBe('55');
    expect(key.slice(22, 25)).toBe('001');
    expect(key.slice(25, 34)).toBe('000000042');
    expect(key[34]).toBe('1');
    expect(key.slice(35, 43)).toBe('12345678');
    expect(isValidAccessKey(key)).toBe(true);
    expect(formatAccessKey(key).split(' ')).toHaveLength(11);
  });

  it('takes an alphanumeric CNPJ, its letters weighing their ASCII code minus 48', () => {
    const key = buildAccessKey({
      uf: 'CE',
      issuedAt: new Date('2026-11-25T12:00:00Z'),
      cnpj: '12ABC34501DE35',
      series: 1,
      number: 7,
      code: 1,
    });
    expect(key.slice(6, 20)).toBe('12ABC34501DE35');
    const body = key.slice(0, 43);
    let sum = 0;
    [...body].reverse().forEach((c, i) => {
      sum += (c.charCodeAt(0) - 48) * ((i % 8) + 2);
    });
    expect(Number(key[43])).toBe(sum % 11 < 2 ? 0 : 11 - (sum % 11));
    expect(isValidAccessKey(key)).toBe(true);
  });

  it('rebuilds the manual example from its parts', () => {
    // The 2006 example carried a 9-digit cNF; with today's 8-digit code and tpEmis 0 it is the same digits.
    const key = buildAccessKey({
      uf: 'GO',
      issuedAt: new Date('2006-04-15T12:00:00Z'),
      cnpj: '33009911002506',
      series: 12,
      number: 780,
      emissionType: 0,
      code: 26730161,
    });
    expect(key).toBe(MANUAL_KEY);
  });
});
