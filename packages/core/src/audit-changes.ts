import { formatBRL } from './money.ts';

/** One field of an audit entry that changed, as people read it: a Portuguese label, values as text. */
export interface AuditChange {
  campo: string;
  antes: string;
  depois: string;
}

/** Labels of the fields the back office writes in the audit log; others are spelled from their key. */
const LABELS: Record<string, string> = {
  name: 'Nome',
  nome: 'Nome',
  email: 'E-mail',
  role: 'Perfil',
  active: 'Conta ativa',
  ativo: 'Ativo',
  totp_enabled: 'Verificação em duas etapas',
  eventos: 'Eventos do check-in',
  description: 'Descrição',
  category: 'Categoria',
  price: 'Preço',
  preco: 'Preço',
  weight_grams: 'Peso (g)',
  hidden: 'Oculto',
  oculto: 'Oculto',
  status: 'Situação',
  codigo_rastreio: 'Código de rastreio',
  motivo: 'Motivo',
  retirada: 'Retirada do kit',
  registrado_por: 'Registrado por',
  quantity: 'Quantidade',
  quantidade: 'Quantidade',
  total: 'Total',
  valor: 'Valor',
  codigo: 'Código',
  ip: 'Endereço IP',
  metodo: 'Método',
  nome_evento: 'Nome do evento',
  inscricoes_canceladas: 'Inscrições canceladas',
  codigos_recuperacao_gerados: 'Códigos de recuperação gerados',
  codigos_recuperacao_restantes: 'Códigos de recuperação restantes',
};

/** Keys whose number is an amount in reais (the wire's prices); `*_cents` keys are centavos. */
const REAIS = /^(price|preco|preco_inscricao|total|valor|valor_desconto|subtotal|frete)$/;

function label(path: string[]): string {
  return path
    .map((key) => LABELS[key] ?? key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' '))
    .join(' › ');
}

function text(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number' && key.endsWith('_cents')) return formatBRL(value);
  if (typeof value === 'number' && REAIS.test(key)) return formatBRL(Math.round(value * 100));
  if (Array.isArray(value)) return value.length ? value.map((v) => text(key, v)).join(', ') : '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What an audit entry changed, field by field (nested objects as "Campo › Subcampo"): a field equal
 * before and after is left out, so a whole record saved for one new price reads as that one line.
 */
export function auditChanges(before: unknown, after: unknown, path: string[] = []): AuditChange[] {
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    // One side not an object (a value became a record, or the other way): compare as a whole.
    if ((before != null && !isRecord(before)) || (after != null && !isRecord(after))) {
      return [
        {
          campo: label(path),
          antes: text(path.at(-1) ?? '', before),
          depois: text(path.at(-1) ?? '', after),
        },
      ];
    }
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return keys.flatMap((key) => auditChanges(b[key], a[key], [...path, key]));
  }
  const key = path.at(-1) ?? '';
  const antes = text(key, before);
  const depois = text(key, after);
  return antes === depois ? [] : [{ campo: label(path), antes, depois }];
}
