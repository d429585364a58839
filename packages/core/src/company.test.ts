import { describe, expect, it } from 'vitest';
import { COMPANY, companyIdentityLine } from './company.ts';
import { isValidCpfOrCnpj } from './documents.ts';

describe('company identity', () => {
  it('carries a CNPJ that passes the check digits (alphanumeric CNPJ, from July 2026)', () => {
    expect(isValidCpfOrCnpj(COMPANY.cnpj)).toBe(true);
  });

  it('reads as the checkout shows it', () => {
    expect(companyIdentityLine()).toBe(
      'Passada Artigos Esportivos Ltda. · CNPJ 12.ABC.345/01DE-35 · Av. Beira Mar, 3000, loja 12, ' +
        'Meireles, Fortaleza-CE, CEP 60165-121 · contato@passada.com.br · (85) 3234-5678',
    );
  });
});
