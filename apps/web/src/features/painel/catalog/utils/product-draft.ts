import type { PainelProduct } from '@passada/core/contracts/painel';
import { amountText, typedNumber } from '../../shell/utils/typed-number.ts';

/** The product form's fields as typed (price "79,90", weight as text). */
export interface Draft {
  name: string;
  description: string;
  price: string;
  category: 'feminino' | 'masculino' | 'acessorios';
  aparecer_home: boolean;
  oculto: boolean;
  weight_grams: string;
  color_ids: number[];
  size_ids: number[];
}

export const empty: Draft = {
  name: '',
  description: '',
  price: '',
  category: 'feminino',
  aparecer_home: false,
  oculto: false,
  weight_grams: '300',
  color_ids: [],
  size_ids: [],
};

export function fromProduct(p: PainelProduct): Draft {
  return {
    name: p.name,
    description: p.description,
    price: amountText(p.price),
    category: p.category,
    aparecer_home: p.aparecer_home,
    oculto: p.oculto,
    weight_grams: String(p.weight_grams),
    color_ids: [...new Set(p.stock.map((s) => s.color.id))],
    size_ids: [...new Set(p.stock.map((s) => s.size.id))],
  };
}

/** The wire's body from the draft: price in reais as a number, weight in grams. */
export function toBody(d: Draft) {
  return {
    ...d,
    // An empty price goes as 0, which the server refuses with its own message.
    price: typedNumber(d.price) ?? 0,
    weight_grams: Number(d.weight_grams),
  };
}

/** Only what the person changed since the form was filled: a PATCH changes only the fields it sends. */
export function changedFields(draft: Draft, from: PainelProduct) {
  const now = toBody(draft);
  const was = toBody(fromProduct(from));
  return Object.fromEntries(
    Object.entries(now).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(was[key as keyof typeof was]),
    ),
  );
}
