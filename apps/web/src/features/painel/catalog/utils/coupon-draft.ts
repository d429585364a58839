import type { ProductCategory } from '@passada/core/contracts/catalog';
import type { CouponInput, PainelCoupon } from '@passada/core/contracts/coupons';
import { formatIsoDateBR } from '@passada/core/events';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { numberText, typedNumber } from '../../shell/utils/typed-number.ts';

/** The form's text fields; numbers stay text while typed, empty means "no limit". */
export interface Draft {
  codigo: string;
  descricao: string;
  tipo: 'percentual' | 'fixo';
  valor: string;
  valido_de: string;
  valido_ate: string;
  usos_max: string;
  usos_por_cpf: string;
  usos_por_conta: string;
  valor_minimo: string;
  escopo: 'loja' | 'corridas';
  categorias_produto: ProductCategory[];
  eventos: number[];
  categorias_evento: number[];
  ativo: boolean;
}

export const blank: Draft = {
  codigo: '',
  descricao: '',
  tipo: 'percentual',
  valor: '',
  valido_de: '',
  valido_ate: '',
  usos_max: '',
  usos_por_cpf: '',
  usos_por_conta: '',
  valor_minimo: '',
  escopo: 'loja',
  categorias_produto: [],
  eventos: [],
  categorias_evento: [],
  ativo: true,
};

export function fromCoupon(c: PainelCoupon): Draft {
  return {
    codigo: c.codigo,
    descricao: c.descricao,
    tipo: c.tipo,
    valor: String(c.valor),
    valido_de: c.valido_de ?? '',
    valido_ate: c.valido_ate ?? '',
    usos_max: numberText(c.usos_max),
    usos_por_cpf: numberText(c.usos_por_cpf),
    usos_por_conta: numberText(c.usos_por_conta),
    valor_minimo: numberText(c.valor_minimo),
    escopo: c.escopo,
    categorias_produto: c.categorias_produto,
    eventos: c.eventos,
    categorias_evento: c.categorias_evento,
    ativo: c.ativo,
  };
}

export function toInput(d: Draft): CouponInput {
  return {
    codigo: d.codigo,
    descricao: d.descricao,
    tipo: d.tipo,
    valor: typedNumber(d.valor) ?? 0,
    valido_de: d.valido_de || null,
    valido_ate: d.valido_ate || null,
    usos_max: typedNumber(d.usos_max),
    usos_por_cpf: typedNumber(d.usos_por_cpf),
    usos_por_conta: typedNumber(d.usos_por_conta),
    valor_minimo: typedNumber(d.valor_minimo),
    escopo: d.escopo,
    categorias_produto: d.escopo === 'loja' ? d.categorias_produto : [],
    eventos: d.escopo === 'corridas' ? d.eventos : [],
    categorias_evento: d.escopo === 'corridas' ? d.categorias_evento : [],
    ativo: d.ativo,
  };
}

export const discountText = (c: PainelCoupon) =>
  c.tipo === 'percentual' ? `${c.valor}%` : formatBRL(reaisToCents(c.valor));
export const validityText = (c: PainelCoupon) =>
  c.valido_de || c.valido_ate
    ? `${c.valido_de ? formatIsoDateBR(c.valido_de) : '…'} a ${c.valido_ate ? formatIsoDateBR(c.valido_ate) : '…'}`
    : 'Sem prazo';
export const usesText = (c: PainelCoupon) =>
  `${c.usos_confirmados}${c.usos_max === null ? '' : ` de ${c.usos_max}`} pagos` +
  (c.usos_reservados > 0 ? `, ${c.usos_reservados} em pagamento` : '') +
  (c.desconto_total > 0 ? ` (${formatBRL(reaisToCents(c.desconto_total))})` : '');

export const toggle = <T>(list: T[], value: T, on: boolean) =>
  on ? [...list, value] : list.filter((v) => v !== value);
