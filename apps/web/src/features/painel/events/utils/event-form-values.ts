import type { PainelEvent } from '@passada/core/contracts/painel';
import { reaisToCents } from '@passada/core/money';
import type { RegulationFacts } from '@passada/core/race-rules';
import type { FieldPath } from 'react-hook-form';
import { amountText, numberText, typedNumber } from '../../shell/utils/typed-number.ts';

/** The form holds what people type (numbers as text, "79,90"); `toInput` turns it into the API's shape. */
export interface LotValues {
  nome: string;
  preco_inscricao: string;
  ate_data: string;
  ate_inscricoes: string;
}
export interface CategoryValues {
  id?: number | undefined;
  nome_categoria: string;
  preco_inscricao: string;
  /** Total places (sold ones included), never what is left: the server works that out when it saves. */
  capacidade: string;
  /** Age limits on the race day, as typed; empty is none. */
  idade_minima: string;
  idade_maxima: string;
  /** A relay's runners ('2', '4', '8'), or '' for an individual race (docs/decisions/0078). */
  revezamento: string;
  lotes: LotValues[];
}
export interface DayValues {
  data: string;
  categorias: CategoryValues[];
}
export interface KitSizeValues {
  id?: number | undefined;
  tamanho: string;
  /** Total shirts of the size, as for places. */
  capacidade: string;
}
export interface EventFormValues {
  nome_evento: string;
  organizer: string;
  city: string;
  state: string;
  prazo_inscricao: string;
  hora_evento: string;
  descricao_evento: string;
  regulamento: string;
  imagem_evento: string;
  kit_tamanhos: KitSizeValues[];
  kit_local_retirada: string;
  kit_horarios_retirada: string;
  /** The event's own termo; empty shows the store's standard one. */
  termo_responsabilidade: string;
  oferece_pcd: boolean;
  /** The event's own NFS-e codes; empty uses the shop's fiscal settings. */
  nfse_codigo_tributacao_nacional: string;
  nfse_nbs: string;
  dias_evento: DayValues[];
}
export type Path = FieldPath<EventFormValues>;

export const blankLot = (): LotValues => ({
  nome: '',
  preco_inscricao: '',
  ate_data: '',
  ate_inscricoes: '',
});
export const blankCategory = (): CategoryValues => ({
  nome_categoria: '',
  preco_inscricao: '',
  capacidade: '100',
  idade_minima: '',
  idade_maxima: '',
  revezamento: '',
  lotes: [],
});
export const blankDay = (): DayValues => ({ data: '', categorias: [blankCategory()] });
export const blankKitSize = (): KitSizeValues => ({ tamanho: '', capacidade: '' });
export const blank: EventFormValues = {
  nome_evento: '',
  organizer: '',
  city: '',
  state: '',
  prazo_inscricao: '',
  hora_evento: '06:00',
  descricao_evento: '',
  regulamento: '',
  imagem_evento: '',
  kit_tamanhos: [],
  kit_local_retirada: '',
  kit_horarios_retirada: '',
  termo_responsabilidade: '',
  oferece_pcd: false,
  nfse_codigo_tributacao_nacional: '',
  nfse_nbs: '',
  dias_evento: [blankDay()],
};

export function toValues(e: PainelEvent): EventFormValues {
  return {
    nome_evento: e.nome_evento,
    organizer: e.organizer,
    city: e.city,
    state: e.state,
    prazo_inscricao: e.prazo_inscricao,
    hora_evento: e.hora_evento,
    descricao_evento: e.descricao_evento,
    regulamento: e.regulamento,
    imagem_evento: e.imagem_evento,
    kit_tamanhos: e.kit_tamanhos.map((k) => ({
      id: k.id,
      tamanho: k.tamanho,
      capacidade: numberText(k.capacidade),
    })),
    kit_local_retirada: e.kit_local_retirada,
    kit_horarios_retirada: e.kit_horarios_retirada,
    termo_responsabilidade: e.termo_responsabilidade,
    oferece_pcd: e.oferece_pcd,
    nfse_codigo_tributacao_nacional: e.nfse_codigo_tributacao_nacional,
    nfse_nbs: e.nfse_nbs,
    dias_evento: e.dias_evento.map((d) => ({
      data: d.data,
      categorias: d.categorias.map((c) => ({
        id: c.id,
        nome_categoria: c.nome_categoria,
        preco_inscricao: amountText(c.preco_inscricao),
        capacidade: numberText(c.capacidade),
        idade_minima: numberText(c.idade_minima),
        idade_maxima: numberText(c.idade_maxima),
        revezamento: numberText(c.revezamento),
        lotes: (c.lotes ?? []).map((l) => ({
          nome: l.nome,
          preco_inscricao: amountText(l.preco_inscricao),
          ate_data: l.ate_data ?? '',
          ate_inscricoes: numberText(l.ate_inscricoes),
        })),
      })),
    })),
  };
}

export function toInput(v: EventFormValues) {
  return {
    ...v,
    kit_tamanhos: v.kit_tamanhos.map((k) => ({
      ...(k.id ? { id: k.id } : {}),
      tamanho: k.tamanho,
      capacidade: typedNumber(k.capacidade),
    })),
    dias_evento: v.dias_evento.map((d) => ({
      data: d.data,
      categorias: d.categorias.map((c) => ({
        ...(c.id ? { id: c.id } : {}),
        nome_categoria: c.nome_categoria,
        preco_inscricao: typedNumber(c.preco_inscricao),
        capacidade: typedNumber(c.capacidade),
        // Empty is no limit (null), as an empty "até inscrições" is no count.
        idade_minima: typedNumber(c.idade_minima),
        idade_maxima: typedNumber(c.idade_maxima),
        revezamento: typedNumber(c.revezamento),
        lotes: c.lotes.map((l) => ({
          nome: l.nome,
          preco_inscricao: typedNumber(l.preco_inscricao),
          ate_data: l.ate_data || null,
          ate_inscricoes: l.ate_inscricoes.trim() ? typedNumber(l.ate_inscricoes) : null,
        })),
      })),
    })),
  };
}

/**
 * What the default regulation and termo are built from: the form as it is now (what was typed, saved
 * or not), so the texts match the categories, prices, places and ages on screen.
 */
export function factsOf(v: EventFormValues): RegulationFacts {
  return {
    name: v.nome_evento.trim() || 'prova',
    organizer: v.organizer.trim() || 'a organização',
    city: v.city.trim(),
    state: v.state.trim().toUpperCase(),
    place: '',
    time: v.hora_evento,
    deadline: v.prazo_inscricao,
    days: v.dias_evento.map((d) => ({
      date: d.data,
      categories: d.categorias.map((c) => ({
        name: c.nome_categoria.trim(),
        priceCents: reaisToCents(typedNumber(c.preco_inscricao) ?? 0),
        places: typedNumber(c.capacidade) ?? 0,
        minAge: typedNumber(c.idade_minima),
        maxAge: typedNumber(c.idade_maxima),
      })),
    })),
  };
}
