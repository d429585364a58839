import { describe, expect, it } from 'vitest';
import { formatCnpj, formatCpf, isValidCnpj, isValidCpf, isValidCpfOrCnpj, maskCpf } from './documents.ts';

describe('CPF', () => {
  it.each(['40364478829', '962.718.458-60'])('accepts the valid example %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });
  it.each(['40364478837', '11111111111', '4036447882', '403644788290', 'abcdefghijk'])(
    'rejects %s',
    (cpf) => {
      expect(isValidCpf(cpf)).toBe(false);
    },
  );
  it('formats and masks', () => {
    expect(formatCpf('40364478829')).toBe('403.644.788-29');
    expect(maskCpf('403.644.788-29')).toBe('***.644.788-**');
  });
});

describe('CNPJ', () => {
  it.each(['11.222.333/0001-81', '11222333000181', '12.ABC.345/01DE-35', '12abc34501de35'])(
    'accepts the valid example %s',
    (cnpj) => {
      expect(isValidCnpj(cnpj)).toBe(true);
    },
  );
  it.each(['11444777000162', '00000000000000', '12.ABC.345/01DE-36', '12.ABC.345/01DE-3A', '1122233300018'])(
    'rejects %s',
    (cnpj) => {
      expect(isValidCnpj(cnpj)).toBe(false);
    },
  );
  it('formats the alphanumeric form', () => {
    expect(formatCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
  });
  it('tells a CPF from a CNPJ by length', () => {
    expect(isValidCpfOrCnpj('403.644.788-29')).toBe(true);
    expect(isValidCpfOrCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCpfOrCnpj('4036447882')).toBe(false);
  });
});
