import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configureZodMessages } from './zod-messages.ts';

/** Words of zod's English messages; none may reach a person. */
const ENGLISH_VALIDATION_WORDS =
  /\b(too small|too big|expected|invalid input|invalid option|received|required|must|unrecognized)\b/i;

const messages = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('zod messages in Brazilian Portuguese', () => {
  beforeAll(configureZodMessages);

  it('words bounds on numbers, texts and lists', () => {
    expect(messages(z.number().positive(), 0)).toEqual(['Deve ser maior que 0.']);
    expect(messages(z.number().int().max(999), 1000)).toEqual(['Deve ser menor ou igual a 999.']);
    expect(messages(z.string().min(1), '')).toEqual(['Campo obrigatório.']);
    expect(messages(z.string().min(8), 'abc')).toEqual(['Deve ter pelo menos 8 caracteres.']);
    expect(messages(z.string().max(100), 'a'.repeat(101))).toEqual(['Deve ter no máximo 100 caracteres.']);
    expect(messages(z.array(z.number()).min(1), [])).toEqual(['Deve ter pelo menos 1 item.']);
  });

  it('words missing fields, wrong types, formats and options', () => {
    expect(messages(z.object({ nome: z.string() }), {})).toEqual(['Campo obrigatório.']);
    expect(messages(z.number(), 'abc')).toEqual(['Valor inválido: esperava um número.']);
    expect(messages(z.email(), 'x@')).toEqual(['E-mail inválido.']);
    expect(messages(z.enum(['PAC', 'SEDEX']), 'X')).toEqual(['Opção inválida: use uma destas: PAC, SEDEX.']);
    expect(messages(z.strictObject({}), { a: 1 })).toEqual(['Campo não reconhecido: a.']);
  });

  it('keeps the messages a schema words itself', () => {
    expect(messages(z.string().min(11, 'CPF inválido.'), '1')).toEqual(['CPF inválido.']);
  });

  it('leaves no English validation word in any of them', () => {
    const all = [
      ...messages(z.number().positive(), -1),
      ...messages(z.boolean(), 'sim'),
      ...messages(z.iso.date(), '2026-13-40'),
      ...messages(z.union([z.number(), z.boolean()]), 'x'),
      ...messages(z.literal('pix'), 'boleto'),
    ];
    expect(all.length).toBe(5);
    for (const m of all) expect(m).not.toMatch(ENGLISH_VALIDATION_WORDS);
  });
});
