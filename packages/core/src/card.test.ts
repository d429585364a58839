import { describe, expect, it } from 'vitest';
import {
  detectCardBrand,
  luhnValid,
  maskCardNumber,
  validateAccountId,
  validateCardData,
  validateCardTotal,
  validateEnvironment,
} from './card.ts';

const NOW = new Date(2026, 10, 22, 12); // 22 Nov 2026, local time
const good = {
  brand: 'visa',
  number: '4111 1111 1111 1111',
  cvv: '123',
  expirationMonth: '12',
  expirationYear: '2027',
  holderName: 'Maria da Silva',
  holderDocument: '403.644.788-29',
  reuse: false,
};
const errorOf = (input: unknown) => {
  const r = validateCardData(input, NOW);
  return r.ok ? null : r.error;
};

describe('Luhn', () => {
  it('accepts test numbers and refuses one changed digit', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('41111a1111111111')).toBe(false);
  });
});

describe('brand detection from 6 digits', () => {
  it.each([
    ['411111', 'visa'],
    ['555555', 'mastercard'],
    ['222100', 'mastercard'],
    ['272099', 'mastercard'],
    ['378282', 'amex'],
    ['341111', 'amex'],
    ['606282', 'hipercard'],
    ['384100', 'hipercard'],
    ['636368', 'elo'],
    ['506699', 'elo'],
    ['509123', 'elo'],
    ['650500', 'elo'],
    ['655058', 'elo'],
    ['301234', 'unsupported'], // Diners
    ['601111', 'unsupported'], // Discover
    ['353011', 'unsupported'], // JCB
  ])('%s is %s', (bin, brand) => {
    expect(detectCardBrand(`${bin}0000000000`)).toBe(brand);
  });
  it('checks Elo before Visa: 4011 78… and 4389 35… are Elo', () => {
    expect(detectCardBrand('4011780000000006')).toBe('elo');
    expect(detectCardBrand('438935')).toBe('elo');
    expect(detectCardBrand('401177')).toBe('visa');
  });
  it('waits for 6 digits', () => {
    expect(detectCardBrand('41111')).toBe('undefined');
  });
  it('masks a number keeping the bin and the last four', () => {
    expect(maskCardNumber('4111 1111 1111 1111')).toBe('411111******1111');
  });
});

describe('card rules (spec section 5), one by one', () => {
  it('accepts a good card and normalises it', () => {
    const r = validateCardData(good, NOW);
    expect(r).toEqual({
      ok: true,
      value: { ...good, number: '4111111111111111', holderDocument: '40364478829' },
    });
  });
  it('reuse defaults to true', () => {
    const { reuse: _, ...noReuse } = good;
    const r = validateCardData(noReuse, NOW);
    expect(r.ok && r.value.reuse).toBe(true);
  });
  it('requires an object with brand, number, cvv, expirationMonth, expirationYear', () => {
    expect(errorOf(null)?.error).toBe('dados_cartao_invalido');
    const { cvv: _, ...noCvv } = good;
    expect(errorOf(noCvv)).toEqual({
      code: 400,
      error: 'dados_cartao_invalido',
      error_description: 'O atributo [cvv] é obrigatório',
    });
  });
  it('brand among visa, mastercard, amex, elo, hipercard', () => {
    expect(errorOf({ ...good, brand: 'diners' })?.error).toBe('bandeira_invalida');
    expect(errorOf({ ...good, brand: 'VISA' })).toBeNull();
  });
  it('number: digits only, 13 to 19, Luhn, matching the brand', () => {
    expect(errorOf({ ...good, number: '4111-1111-1111-1111' })?.error).toBe('numero_cartao_invalido');
    expect(errorOf({ ...good, number: '411111111111' })?.error_description).toMatch(/entre 13 e 19/);
    expect(errorOf({ ...good, number: '4111111111111112' })?.error).toBe('numero_cartao_invalido');
    expect(errorOf({ ...good, number: '5555555555554444' })?.error_description).toMatch(/bandeira visa/);
  });
  it('CVV 3 or 4 digits, 4 for Amex; the message does not repeat it', () => {
    const e = errorOf({ ...good, cvv: '12' });
    expect(e?.error).toBe('cvv_cartao_invalido');
    expect(e?.error_description).not.toContain('12');
    expect(errorOf({ ...good, cvv: '1234' })).toBeNull();
    expect(errorOf({ ...good, brand: 'amex', number: '378282246310005', cvv: '123' })?.error).toBe(
      'cvv_cartao_invalido',
    );
    expect(errorOf({ ...good, brand: 'amex', number: '378282246310005', cvv: '1234' })).toBeNull();
  });
  it('month 01 to 12 with two digits', () => {
    for (const m of ['00', '13', '1', 'ab'])
      expect(errorOf({ ...good, expirationMonth: m })?.error).toBe('validade_cartao_invalida');
    expect(errorOf({ ...good, expirationMonth: '01' })).toBeNull();
  });
  it('year from the current one to 11 ahead; this year only after this month', () => {
    expect(errorOf({ ...good, expirationYear: '2025' })?.error).toBe('validade_cartao_invalida');
    expect(errorOf({ ...good, expirationYear: '2037' })).toBeNull();
    expect(errorOf({ ...good, expirationYear: '2038' })?.error).toBe('validade_cartao_invalida');
    expect(errorOf({ ...good, expirationYear: '2026', expirationMonth: '11' })?.error_description).toMatch(
      /expirada/,
    );
    expect(errorOf({ ...good, expirationYear: '2026', expirationMonth: '12' })).toBeNull();
  });
  it('holder name 3 to 50 characters with two words', () => {
    expect(errorOf({ ...good, holderName: 'Al' })?.error).toBe('nome_titular_cartao_invalido');
    expect(errorOf({ ...good, holderName: 'Maria' })?.error).toBe('nome_titular_cartao_invalido');
    expect(errorOf({ ...good, holderName: `Maria ${'a'.repeat(50)}` })?.error).toBe(
      'nome_titular_cartao_invalido',
    );
  });
  it('holder document a valid CPF or CNPJ (alphanumeric too)', () => {
    expect(errorOf({ ...good, holderDocument: '40364478837' })?.error).toBe(
      'documento_titular_cartao_invalido',
    );
    expect(errorOf({ ...good, holderDocument: '12.ABC.345/01DE-35' })).toBeNull();
  });
  it('reuse must be boolean', () => {
    expect(errorOf({ ...good, reuse: 'sim' })?.error).toBe('reuse_invalido');
  });
  it('account id 32 alphanumerics, environment, total of at least 300 integer centavos', () => {
    expect(validateAccountId('a'.repeat(32)).ok).toBe(true);
    expect(validateAccountId('a'.repeat(31))).toMatchObject({
      ok: false,
      error: { error: 'identificador_invalido' },
    });
    expect(validateEnvironment('Sandbox')).toEqual({ ok: true, value: 'sandbox' });
    expect(validateEnvironment('homolog')).toMatchObject({
      ok: false,
      error: { error: 'ambiente_invalido' },
    });
    expect(validateCardTotal(300).ok).toBe(true);
    expect(validateCardTotal(299)).toMatchObject({
      ok: false,
      error: { error: 'valor_invalido', code: 400 },
    });
    expect(validateCardTotal(300.5)).toMatchObject({ ok: false, error: { error: 'valor_invalido' } });
  });
});
