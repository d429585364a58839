import { reaisToCents } from '@passada/core/money';
import { unitPrice } from '@passada/core/sale-price';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { productQuery } from '../lib/product-api.ts';

/** A product's colours × sizes as a select's options, valued `<colour id>-<size id>`. */
export function ComboOptions({
  stock,
}: {
  stock: Array<{ color: { id: number; name: string }; size: { id: number; name: string } }>;
}) {
  return stock.map((s) => (
    <option key={`${s.color.id}-${s.size.id}`} value={`${s.color.id}-${s.size.id}`}>
      {`${s.color.name}, ${s.size.name}`}
    </option>
  ));
}

const field = 'rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900';

/** Most units of one colour and size an addition offers at once (the server has its own caps). */
const MAX_UNITS = 10;

/** What an addition starts from: a link's choice (the shop's proposal), else the order's first product. */
export interface AdditionStart {
  product?: number | undefined;
  color?: number | undefined;
  size?: number | undefined;
  units?: number | undefined;
}

/**
 * The choice of an addition to an order before it ships (docs/decisions/0087), shared by the buyer's
 * "Acrescentar itens ao pedido" and staff's proposal: one of the order's products, a colour and size in
 * stock (read from the shop's catalogue; the server checks again), the units, and their price today.
 */
export function useAdditionChoice(products: Array<[number, string]>, start: AdditionStart = {}) {
  const known = (id: number | undefined) =>
    id !== undefined && products.some(([p]) => p === id) ? id : null;
  const [productId, setProductId] = useState(known(start.product) ?? products[0]?.[0] ?? null);
  const [combo, setCombo] = useState(
    start.color !== undefined && start.size !== undefined ? `${start.color}-${start.size}` : '',
  );
  const [units, setUnits] = useState(start.units ?? 1);
  const product = useQuery({ ...productQuery(String(productId)), enabled: productId !== null });
  const options = (product.data?.stock ?? []).filter((s) => s.quantity > 0);
  const chosen = options.find((s) => `${s.color.id}-${s.size.id}` === combo);
  const max = Math.min(MAX_UNITS, chosen?.quantity ?? MAX_UNITS);
  const count = Math.max(1, Math.min(units, max));
  return {
    products,
    productId,
    combo,
    count,
    max,
    options,
    loading: product.isPending,
    chosen,
    totalCents: product.data && chosen ? reaisToCents(unitPrice(product.data, chosen)) * count : 0,
    /** The line as the order draft and staff's proposal name it; null until a colour and size is chosen. */
    line:
      chosen && productId !== null
        ? { product: productId, color: chosen.color.id, size: chosen.size.id, quantity: count }
        : null,
    setProductId: (id: number) => {
      setProductId(id);
      setCombo('');
    },
    setCombo,
    setUnits,
  };
}

export type AdditionChoice = ReturnType<typeof useAdditionChoice>;

/** The choice's three fields; `onEdit` runs on any change (a charge made before is no longer it). */
export function AdditionFields({ choice, onEdit }: { choice: AdditionChoice; onEdit?: () => void }) {
  const edited = () => onEdit?.();
  return (
    <>
      <label className="flex flex-col text-sm">
        Produto a acrescentar
        <select
          value={choice.productId ?? ''}
          className={field}
          onChange={(e) => {
            choice.setProductId(Number(e.target.value));
            edited();
          }}
        >
          {choice.products.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-sm">
        Cor e tamanho
        <select
          value={choice.chosen ? choice.combo : ''}
          className={field}
          onChange={(e) => {
            choice.setCombo(e.target.value);
            edited();
          }}
        >
          <option value="">{choice.loading ? 'Carregando...' : 'Escolha a cor e o tamanho'}</option>
          <ComboOptions stock={choice.options} />
        </select>
      </label>
      <label className="flex items-center justify-between gap-2 text-sm">
        Unidades a acrescentar
        <input
          type="number"
          min={1}
          max={choice.max}
          value={choice.count}
          className={`w-20 ${field}`}
          onChange={(e) => {
            choice.setUnits(Number(e.target.value));
            edited();
          }}
        />
      </label>
    </>
  );
}
