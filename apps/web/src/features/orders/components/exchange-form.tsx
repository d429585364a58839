import type { Order } from '@passada/core/contracts/orders';
import type { OrderReturn, ReturnReason } from '@passada/core/contracts/returns';
import { useState } from 'react';
import { ComboOptions } from '../../../components/addition-fields.tsx';
import { primaryButtonClass } from '../../../components/button-classes.ts';
import { useExchangeProduct, useRequestExchange } from '../api/after-sale.ts';

const fieldClass = 'rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900';

/**
 * Trocar (docs/decisions/0040): one line, the units, and another colour or size of the same product with
 * stock; the server holds the new unit at once, checks the window and prices the difference.
 */
export function ExchangeForm({
  order,
  left,
  onDone,
}: {
  order: Order;
  left: Array<{ item_id: number; quantidade: number }>;
  onDone: (r: OrderReturn) => void;
}) {
  const lines = order.items.filter(
    (i) => i.item_id && (left.find((l) => l.item_id === i.item_id)?.quantidade ?? 0) > 0,
  );
  const [itemId, setItemId] = useState<number | null>(lines[0]?.item_id ?? null);
  const line = lines.find((l) => l.item_id === itemId) ?? null;
  const product = useExchangeProduct(line?.product ?? null);
  const [combo, setCombo] = useState('');
  const [units, setUnits] = useState(1);
  const [reason, setReason] = useState<ReturnReason>('arrependimento');
  const [description, setDescription] = useState('');
  const exchange = useRequestExchange(order.id);
  if (!lines.length) return null;
  const max = left.find((l) => l.item_id === itemId)?.quantidade ?? 1;
  const options = (product.data?.stock ?? []).filter(
    (s) => s.quantity > 0 && !(s.color.name === line?.product_color && s.size.name === line?.product_size),
  );
  const [colorId, sizeId] = combo.split('-').map(Number);

  return (
    <form
      className="mt-3 flex flex-col gap-2"
      aria-label="Trocar itens"
      onSubmit={(e) => {
        e.preventDefault();
        if (!itemId || !colorId || !sizeId) return;
        exchange.mutate(
          {
            itens: [{ item_id: itemId, quantidade: units, cor_id: colorId, tamanho_id: sizeId }],
            motivo: reason,
            ...(description ? { descricao: description } : {}),
          },
          { onSuccess: onDone },
        );
      }}
    >
      <label className="flex flex-col text-sm">
        Item a trocar
        <select
          value={itemId ?? ''}
          onChange={(e) => {
            setItemId(Number(e.target.value));
            setCombo('');
          }}
          className={fieldClass}
        >
          {lines.map((l) => (
            <option key={l.item_id} value={l.item_id}>
              {`${l.product_name} (${l.product_color}, ${l.product_size})`}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-sm">
        Trocar por
        <select value={combo} onChange={(e) => setCombo(e.target.value)} className={fieldClass}>
          <option value="">Escolha a cor e o tamanho</option>
          <ComboOptions stock={options} />
        </select>
      </label>
      <label className="flex items-center justify-between gap-2 text-sm">
        Unidades a trocar
        <input
          type="number"
          min={1}
          max={max}
          value={units}
          onChange={(e) => setUnits(Number(e.target.value))}
          className={`w-20 ${fieldClass}`}
        />
      </label>
      <label className="flex flex-col text-sm">
        Motivo da troca
        <select
          value={reason}
          onChange={(e) => setReason(e.target.value as ReturnReason)}
          className={fieldClass}
        >
          <option value="arrependimento">Tamanho ou cor (até 7 dias)</option>
          <option value="defeito">Defeito (até 90 dias)</option>
        </select>
      </label>
      {reason === 'defeito' ? (
        <label className="flex flex-col text-sm">
          Descreva o defeito da troca
          <textarea
            value={description}
            maxLength={500}
            onChange={(e) => setDescription(e.target.value)}
            className={fieldClass}
          />
        </label>
      ) : null}
      {exchange.error ? (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {exchange.error.message}
        </p>
      ) : null}
      <button type="submit" className={primaryButtonClass} disabled={exchange.isPending || !combo}>
        Solicitar troca
      </button>
    </form>
  );
}
