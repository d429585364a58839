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
  rascunho: 'Rascunho',
  publicar_em: 'Lançamento agendado',
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
  aparecer_home: 'Na página inicial',
  images: 'Fotos',
  stock: 'Estoque',
  color: 'Cor',
  cor: 'Cor',
  size: 'Tamanho',
  cor_id: 'Cor',
  tamanho_id: 'Tamanho',
  combinacoes: 'Só nas combinações',
  promocao: 'Promoção',
  hex: 'Cor (hexadecimal)',
  foto: 'Foto',
  url: 'Endereço',
  alt: 'Texto alternativo',
  posicao: 'Posição',
  observacao: 'Observação',
  ncm: 'NCM',
  cest: 'CEST',
  origem: 'Origem da mercadoria',
  cfop: 'CFOP',
  cnpj: 'CNPJ',
  inscricao_estadual: 'Inscrição estadual',
  inscricao_municipal: 'Inscrição municipal',
  razao_social: 'Razão social',
  regime: 'Regime tributário',
  logradouro: 'Logradouro',
  numero: 'Número',
  bairro: 'Bairro',
  municipio: 'Município',
  codigo_municipio: 'Código do município (IBGE)',
  uf: 'UF',
  cep: 'CEP',
  codigo_servico_nfse: 'Código do serviço (NFS-e)',
  serie_nfe: 'Série da NF-e',
  codigo_tributacao_nacional: 'Código de tributação nacional',
  nbs: 'NBS',
  cnae: 'CNAE',
  codigo_tributario_municipio: 'Código tributário do município',
  regras: 'Regras fiscais',
  destino: 'Destino',
  situacao_icms: 'Situação do ICMS',
  situacao_pis: 'Situação do PIS',
  situacao_cofins: 'Situação da Cofins',
  mes: 'Mês',
  notas: 'Notas',
  banners: 'Banners',
  link: 'Link',
  text: 'Texto',
  abertas: 'Inscrições abertas',
  telefone: 'Telefone',
};

/**
 * Keys that are bookkeeping, not something a person changed: the edit version a save sends back moves
 * on every save, so "Versão: 3 → 4" would only hide the real change; what a product lacks to be sold
 * follows its photos and stock, never an edit.
 */
const OMIT = new Set(['versao', 'falta_para_vender']);

/**
 * Names for ids, by the key that holds them: `{ cor: Map { '17' => 'Azul' } }` shows "Cor: Azul", never
 * "Cor: 17" (the back office's audit route reads the names from the catalogue and the events).
 */
export type AuditNames = Readonly<Record<string, ReadonlyMap<string, string>>>;

/** Keys whose number is an amount in reais (the wire's prices); `*_cents` keys are centavos. */
const REAIS = /^(price|preco|preco_inscricao|total|valor|valor_desconto|subtotal|frete)$/;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function label(path: string[]): string {
  return path
    .map((key) => LABELS[key] ?? key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' '))
    .join(' › ');
}

function text(key: string, value: unknown, names: AuditNames = {}): string {
  if (value === null || value === undefined || value === '') return '—';
  const named = names[key]?.get(String(value));
  if (named !== undefined) return named;
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number' && key.endsWith('_cents')) return formatBRL(value);
  if (typeof value === 'number' && REAIS.test(key)) return formatBRL(Math.round(value * 100));
  if (Array.isArray(value)) return value.length ? value.map((v) => text(key, v, names)).join(', ') : '—';
  if (isRecord(value)) return recordText(value, names);
  return String(value);
}

/** A record inside a list (a product's stock line, a photo) as words: its name, or its fields labelled. */
function recordText(value: Record<string, unknown>, names: AuditNames): string {
  if (typeof value.name === 'string') return value.name;
  return Object.entries(value)
    .filter(([key]) => key !== 'id' && !OMIT.has(key))
    .map(([key, v]) => `${label([key])}: ${text(key, v, names)}`)
    .join('; ');
}

/**
 * What an audit entry changed, field by field (nested objects as "Campo › Subcampo"): a field equal
 * before and after is left out, so a whole record saved for one new price reads as that one line.
 */
export function auditChanges(
  before: unknown,
  after: unknown,
  names: AuditNames = {},
  path: string[] = [],
): AuditChange[] {
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    // One side not an object (a value became a record, or the other way): compare as a whole.
    if ((before != null && !isRecord(before)) || (after != null && !isRecord(after))) {
      return [
        {
          campo: label(path),
          antes: text(path.at(-1) ?? '', before, names),
          depois: text(path.at(-1) ?? '', after, names),
        },
      ];
    }
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return keys
      .filter((key) => !OMIT.has(key))
      .flatMap((key) => auditChanges(b[key], a[key], names, [...path, key]));
  }
  const key = path.at(-1) ?? '';
  const antes = text(key, before, names);
  const depois = text(key, after, names);
  return antes === depois ? [] : [{ campo: label(path), antes, depois }];
}

/** What an audit line is about, by the kind of record (the audit log's filter lists the same kinds). */
const SUBJECT: Record<string, string> = {
  equipe: 'Equipe',
  produto: 'Produto',
  estoque: 'Estoque de',
  cor: 'Cor',
  tamanho: 'Tamanho',
  evento: 'Evento',
  inscricao: 'Inscrição nº',
  pedido: 'Pedido nº',
  devolucao: 'Devolução nº',
  cupom: 'Cupom',
  cliente: 'Cliente',
  fiscal: 'Configurações fiscais',
  nota: 'Nota fiscal',
};

/**
 * The record an audit line is about, as people name it: "Produto Camiseta Sertão", "Estoque de Camiseta
 * Sertão · Azul · M" (the line keeps `produto/cor/tamanho` ids), "Pedido nº 12". `names` holds the
 * catalogue's and the events' names by id under `produto`, `cor`, `tamanho` and `evento`; an id with no
 * name (a record since removed) is shown as the id.
 */
export function auditSubject(entity: string, entityId: string | null, names: AuditNames = {}): string {
  const kind = SUBJECT[entity] ?? entity.charAt(0).toUpperCase() + entity.slice(1).replace(/_/g, ' ');
  if (entityId === null || entity === 'fiscal') return kind;
  const name = (key: string, id: string) => names[key]?.get(id) ?? id;
  if (entity === 'estoque') {
    const [product = '', color = '', size = ''] = entityId.split('/');
    return `${kind} ${name('produto', product)} · ${name('cor', color)} · ${name('tamanho', size)}`;
  }
  const key = { produto: 'produto', evento: 'evento', cor: 'cor', tamanho: 'tamanho' }[entity];
  return `${kind} ${key ? name(key, entityId) : entityId}`;
}
