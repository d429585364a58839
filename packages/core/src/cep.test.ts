import { describe, expect, it } from 'vitest';
import { capitalForCep, formatCep, isUF, isValidCep, normalizeCep, regionOf, stateForCep } from './cep.ts';

describe('CEP', () => {
  it('normalises and formats', () => {
    expect(normalizeCep('60.165-121')).toBe('60165121');
    expect(formatCep('60165121')).toBe('60165-121');
    expect(formatCep('123')).toBe('123');
  });

  it('finds the state at the edges of the ranges', () => {
    const cases: Array<[string, string]> = [
      ['01000-000', 'SP'],
      ['19999-999', 'SP'],
      ['20000-000', 'RJ'],
      ['29999-999', 'ES'],
      ['40000-000', 'BA'],
      ['49000-000', 'SE'],
      ['57000-000', 'AL'],
      ['59000-000', 'RN'],
      ['60165-121', 'CE'],
      ['63999-999', 'CE'],
      ['64000-000', 'PI'],
      ['68899-999', 'PA'],
      ['68900-000', 'AP'],
      ['69300-000', 'RR'],
      ['69400-000', 'AM'],
      ['69900-000', 'AC'],
      ['70000-000', 'DF'],
      ['72800-000', 'GO'],
      ['73000-000', 'DF'],
      ['73700-000', 'GO'],
      ['76800-000', 'RO'],
      ['77000-000', 'TO'],
      ['78899-999', 'MT'],
      ['79000-000', 'MS'],
      ['80000-000', 'PR'],
      ['88000-000', 'SC'],
      ['99999-999', 'RS'],
    ];
    for (const [cep, uf] of cases) expect(stateForCep(cep), cep).toBe(uf);
  });

  it('rejects malformed and unassigned CEPs', () => {
    for (const bad of [
      '',
      '6016512',
      '601651211',
      'abcdefgh',
      '00000-000',
      '00999-999',
      '60165x121',
      '78900-000',
    ]) {
      expect(isValidCep(bad), bad).toBe(false);
    }
    expect(isValidCep('01000000')).toBe(true);
    expect(isValidCep(' 60165-121 ')).toBe(true);
  });

  it('groups states into regions', () => {
    expect(regionOf('CE')).toBe('NE');
    expect(regionOf('SP')).toBe('SE');
    expect(regionOf('DF')).toBe('CO');
    expect(regionOf('AM')).toBe('N');
    expect(regionOf('RS')).toBe('S');
    expect(isUF('CE')).toBe(true);
    expect(isUF('XX')).toBe(false);
  });

  it('names the state capital of a CEP in its range, no other city', () => {
    expect(capitalForCep('60165-121')).toBe('Fortaleza');
    expect(capitalForCep('61599999')).toBe('Fortaleza');
    expect(capitalForCep('61600000')).toBeNull();
    expect(capitalForCep('01310-100')).toBe('São Paulo');
    expect(capitalForCep('90010-000')).toBe('Porto Alegre');
    expect(capitalForCep('13010-000')).toBeNull();
    expect(capitalForCep('00500000')).toBeNull();
  });
});
