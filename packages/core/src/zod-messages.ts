import { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: 'um texto',
  number: 'um número',
  int: 'um número inteiro',
  boolean: 'verdadeiro ou falso',
  bigint: 'um número inteiro',
  date: 'uma data',
  array: 'uma lista',
  object: 'um objeto',
  file: 'um arquivo',
};

const FORMAT_NAMES: Record<string, string> = {
  email: 'E-mail inválido.',
  url: 'Endereço (URL) inválido.',
  uuid: 'Identificador inválido.',
  datetime: 'Data e hora inválidas.',
  date: 'Data inválida.',
  time: 'Hora inválida.',
};

function unitFor(origin: string | undefined, count: number): string | null {
  if (origin === 'string') return count === 1 ? 'caractere' : 'caracteres';
  if (origin === 'array' || origin === 'set') return count === 1 ? 'item' : 'itens';
  if (origin === 'file') return 'bytes';
  return null;
}

function bound(issue: Issue & { code: 'too_small' | 'too_big' }): string {
  const small = issue.code === 'too_small';
  const limit = Number(small ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  const unit = unitFor(issue.origin, limit);
  if (unit) {
    if (small && limit === 1 && issue.origin === 'string') return 'Campo obrigatório.';
    if (small) return `Deve ter pelo menos ${limit} ${unit}.`;
    return `Deve ter no máximo ${limit} ${unit}.`;
  }
  if (issue.origin === 'date') return small ? 'Data anterior à permitida.' : 'Data posterior à permitida.';
  const shown = limit.toLocaleString('pt-BR');
  if (small) return inclusive ? `Deve ser maior ou igual a ${shown}.` : `Deve ser maior que ${shown}.`;
  return inclusive ? `Deve ser menor ou igual a ${shown}.` : `Deve ser menor que ${shown}.`;
}

/**
 * Our wording of zod's messages in Brazilian Portuguese: what a shopper or an integrator reads in an API
 * error or under a form field. zod's own Portuguese locale (European) covers anything not worded here.
 */
export function brazilianZodMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'Campo obrigatório.';
      return `Valor inválido: esperava ${TYPE_NAMES[issue.expected] ?? 'outro tipo de valor'}.`;
    case 'too_small':
    case 'too_big':
      return bound(issue);
    case 'invalid_format':
      return FORMAT_NAMES[issue.format] ?? 'Formato inválido.';
    case 'invalid_value':
      return issue.values.length === 1
        ? `Valor inválido: esperava ${String(issue.values[0])}.`
        : `Opção inválida: use uma destas: ${issue.values.map(String).join(', ')}.`;
    case 'not_multiple_of':
      return `Deve ser múltiplo de ${String(issue.divisor)}.`;
    case 'unrecognized_keys':
      return issue.keys.length === 1
        ? `Campo não reconhecido: ${issue.keys[0]}.`
        : `Campos não reconhecidos: ${issue.keys.join(', ')}.`;
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
    case 'custom':
      return 'Valor inválido.';
    default:
      return undefined;
  }
}

/** Call once per process (server start, browser entry): zod's configuration is global. */
export function configureZodMessages(): void {
  z.config(z.locales.pt());
  z.config({ customError: brazilianZodMessage });
}
