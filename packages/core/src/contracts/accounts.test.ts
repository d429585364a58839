import { describe, expect, it } from 'vitest';
import { AddressInputSchema, PasswordResetConfirmSchema, SignUpRequestSchema } from './accounts.ts';

const address = {
  full_name: 'Maria Silva',
  zip_code: '60165-121',
  state: 'CE',
  city: 'Fortaleza',
  neighborhood: 'Meireles',
  street: 'Av. Beira Mar',
  number: '100',
  phone: '(85) 99999-9999',
};

function fieldErrors(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('accounts contracts', () => {
  it('normalises a valid address', () => {
    const parsed = AddressInputSchema.parse(address);
    expect(parsed.zip_code).toBe('60165121');
    expect(parsed.phone).toBe('85999999999');
    expect(parsed.is_primary).toBe(false);
  });

  it('refuses a CEP from another state, a bad UF and a bad phone', () => {
    expect(fieldErrors(AddressInputSchema.safeParse({ ...address, state: 'SP' })).zip_code).toBe(
      'Este CEP não pertence ao estado escolhido.',
    );
    expect(fieldErrors(AddressInputSchema.safeParse({ ...address, state: 'XX' })).state).toBe(
      'Escolha um estado válido.',
    );
    expect(fieldErrors(AddressInputSchema.safeParse({ ...address, phone: '(20) 9999-9999' })).phone).toBe(
      'Digite um telefone válido com DDD.',
    );
    expect(fieldErrors(AddressInputSchema.safeParse({ ...address, zip_code: '123' })).zip_code).toBe(
      'Digite um CEP válido!',
    );
  });

  it('asks the number apart (S/N when there is none); the complement is optional', () => {
    expect(fieldErrors(AddressInputSchema.safeParse({ ...address, number: ' ' })).number).toBe(
      'Informe o número (ou S/N, se não houver).',
    );
    expect(AddressInputSchema.parse({ ...address, number: 'S/N' })).toMatchObject({
      number: 'S/N',
      complement: '',
    });
    expect(
      fieldErrors(AddressInputSchema.safeParse({ ...address, complement: 'x'.repeat(61) })).complement,
    ).toBe('Use no máximo 60 caracteres.');
  });

  it('says a street is too long, not missing', () => {
    const errors = fieldErrors(AddressInputSchema.safeParse({ ...address, street: 'Rua '.repeat(75) }));
    expect(errors.street).toBe('Use no máximo 200 caracteres.');
    expect(fieldErrors(AddressInputSchema.safeParse({ ...address, street: '  ' })).street).toBe(
      'Informe a rua.',
    );
  });

  it('applies the password length rule without composition rules', () => {
    const base = { username: 'maria', email: 'Maria@Example.com ', full_name: 'Maria' };
    expect(SignUpRequestSchema.safeParse({ ...base, password: 'curta' }).success).toBe(false);
    expect(SignUpRequestSchema.safeParse({ ...base, password: 'x'.repeat(129) }).success).toBe(false);
    const ok = SignUpRequestSchema.parse({ ...base, password: 'só minúsculas e espaços' });
    expect(ok.email).toBe('maria@example.com');
    expect(fieldErrors(SignUpRequestSchema.safeParse({ ...base, username: 'a@b' })).username).toBeDefined();
  });

  it('requires both new-password fields to match', () => {
    const r = PasswordResetConfirmSchema.safeParse({
      token: 't',
      password: 'abcdefgh1',
      password_confirm: 'x',
    });
    expect(fieldErrors(r).password_confirm).toBe('As senhas não coincidem.');
  });
});
