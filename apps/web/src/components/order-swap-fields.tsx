import { useQuery } from '@tanstack/react-query';
import { productQuery } from '../lib/product-api.ts';

/** An order line as both order pages show it: its product, what was bought and the units left. */
type Line = { product_id: number; nome: string; cor: string; tamanho: string; quantidade: number };

/** Units of a line to swap to another colour and size of the same product, at the price paid. */
export interface LineSwap {
  quantidade: number;
  cor_id: number;
  tamanho_id: number;
}

const field = 'rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900';

/**
 * A line's swap before shipping (docs/decisions/0065), on the buyer's order page and the back office's: the product's other combinations, read from the
 * shop's catalogue with their stock (a sold-out one cannot be chosen; the server checks again when the
 * list is sent), and how many units move.
 */
export function OrderSwapFields({
  line,
  value,
  onChange,
}: {
  line: Line;
  value: LineSwap | undefined;
  onChange: (swap: LineSwap | undefined) => void;
}) {
  const product = useQuery(productQuery(String(line.product_id)));
  const others = (product.data?.stock ?? []).filter(
    (s) => s.color.name !== line.cor || s.size.name !== line.tamanho,
  );
  const what = `${line.nome} (${line.cor}, ${line.tamanho})`;
  const chosen = value ? `${value.cor_id}:${value.tamanho_id}` : '';
  return (
    <div className="flex flex-wrap items-center justify-end gap-2 text-sm">
      <label className="flex items-center gap-2">
        {`Trocar ${what} por`}
        <select
          value={chosen}
          className={field}
          onChange={(e) => {
            if (!e.target.value) return onChange(undefined);
            const [cor, tamanho] = e.target.value.split(':').map(Number);
            onChange({ quantidade: value?.quantidade ?? 1, cor_id: cor!, tamanho_id: tamanho! });
          }}
        >
          <option value="">Não trocar</option>
          {others.map((s) => (
            <option
              key={`${s.color.id}:${s.size.id}`}
              value={`${s.color.id}:${s.size.id}`}
              disabled={s.quantity <= 0}
            >
              {`${s.color.name}, ${s.size.name}${s.quantity <= 0 ? ' (esgotado)' : ''}`}
            </option>
          ))}
        </select>
      </label>
      {value ? (
        <label className="flex items-center gap-2">
          {`Unidades a trocar de ${what}`}
          <input
            type="number"
            min={1}
            max={line.quantidade}
            value={value.quantidade}
            onChange={(e) => onChange({ ...value, quantidade: Number(e.target.value) })}
            className={`w-20 ${field}`}
          />
        </label>
      ) : null}
    </div>
  );
}
