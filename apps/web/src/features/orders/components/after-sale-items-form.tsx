import type { Order } from '@passada/core/contracts/orders';
import type { OrderAfterSale, OrderReturn, ReturnReason } from '@passada/core/contracts/returns';
import { useId, useState } from 'react';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes.ts';
import { type LineSwap, OrderSwapFields } from '../../../components/order-swap-fields.tsx';
import { formatReais } from '../../../components/price.tsx';
import { type useRequestReturn, type useWithdraw, useWithdrawalQuote } from '../api/after-sale.ts';

/**
 * The buyer's list for one order: before shipping, units to withdraw and units to swap to another colour
 * or size, with the server's quote (what comes back, the swaps, the new total) before confirming, sent
 * with the order's version (docs/decisions/0065); after delivery, units to return with a reason.
 */
export function ItemsForm({
  order,
  data,
  mode,
  withdraw,
  requestReturn,
  onDone,
}: {
  order: Order;
  data: OrderAfterSale;
  mode: 'desistir' | 'devolver';
  withdraw: ReturnType<typeof useWithdraw>;
  requestReturn: ReturnType<typeof useRequestReturn>;
  onDone: (r: OrderReturn) => void;
}) {
  const [units, setUnits] = useState<Record<number, number>>({});
  // Units to swap to another colour or size before shipping, per line.
  const [swaps, setSwaps] = useState<Record<number, LineSwap | undefined>>({});
  const [reason, setReason] = useState<ReturnReason>('arrependimento');
  const [description, setDescription] = useState('');
  const formId = useId();
  const chosen = Object.entries(units)
    .filter(([, n]) => n > 0)
    .map(([id, n]) => ({ item_id: Number(id), quantidade: n }));
  const trocas = Object.entries(swaps).flatMap(([id, s]) =>
    s && s.quantidade > 0 ? [{ item_id: Number(id), ...s }] : [],
  );
  const versao = data.versao;
  const list = { itens: chosen, ...(trocas.length ? { trocas } : {}), versao };
  const changing = chosen.length > 0 || trocas.length > 0;
  // What the list would give back, from the server (the same code as the change, undone).
  const quote = useWithdrawalQuote(order.id, list, mode === 'desistir' && changing);
  const pending = withdraw.isPending || requestReturn.isPending;
  const finish = onDone;
  return (
    <form
      id={formId}
      className="mt-3 flex flex-col gap-2"
      aria-label={mode === 'desistir' ? 'Desistir da compra' : 'Devolver itens'}
      onSubmit={(e) => {
        e.preventDefault();
        if (mode === 'desistir') withdraw.mutate(list, { onSuccess: finish });
        else
          requestReturn.mutate(
            { itens: chosen, motivo: reason, ...(description ? { descricao: description } : {}) },
            { onSuccess: finish },
          );
      }}
    >
      {order.items.map((item) => {
        const left = data.restantes.find((r) => r.item_id === item.item_id)?.quantidade ?? 0;
        if (!item.item_id || left === 0) return null;
        return (
          <div key={item.item_id} className="flex flex-col gap-1">
            <label className="flex items-center justify-between gap-2 text-sm">
              {`Quantidade de ${item.product_name} (${item.product_color}, ${item.product_size})`}
              <input
                type="number"
                min={0}
                max={left}
                value={units[item.item_id] ?? 0}
                onChange={(e) => setUnits({ ...units, [item.item_id!]: Number(e.target.value) })}
                className="w-20 rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900"
              />
            </label>
            {mode === 'desistir' ? (
              <OrderSwapFields
                line={{
                  product_id: item.product,
                  nome: item.product_name,
                  cor: item.product_color,
                  tamanho: item.product_size,
                  quantidade: left,
                }}
                value={swaps[item.item_id]}
                onChange={(swap) => setSwaps({ ...swaps, [item.item_id!]: swap })}
              />
            ) : null}
          </div>
        );
      })}
      {mode === 'desistir' && quote.data && changing ? (
        <p role="status" className="text-sm font-semibold">
          {`Você recebe de volta ${formatReais(quote.data.a_devolver)}.`}
          {(quote.data.trocas ?? [])
            .map((t) => ` Troca: ${t.quantidade} para ${t.cor}, ${t.tamanho}.`)
            .join('')}
          {quote.data.novo_total !== undefined ? ` Novo total: ${formatReais(quote.data.novo_total)}.` : ''}
          {quote.data.cancela_pedido ? ' Nada fica no pedido: ele será cancelado.' : ''}
        </p>
      ) : null}
      {mode === 'desistir' && quote.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {quote.error.message}
        </p>
      ) : null}
      {mode === 'devolver' ? (
        <>
          <label className="flex flex-col text-sm">
            Motivo
            <select
              value={reason}
              onChange={(e) => setReason(e.target.value as ReturnReason)}
              className="rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900"
            >
              <option value="arrependimento">Desisti da compra (até 7 dias)</option>
              <option value="defeito">Defeito (até 90 dias)</option>
            </select>
          </label>
          <label className="flex flex-col text-sm">
            {reason === 'defeito' ? 'Descreva o defeito' : 'Comentário (opcional)'}
            <textarea
              value={description}
              maxLength={500}
              onChange={(e) => setDescription(e.target.value)}
              className="rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900"
            />
          </label>
        </>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          className={primaryButtonClass}
          disabled={pending || (mode === 'desistir' ? !changing : chosen.length === 0)}
        >
          {mode !== 'desistir'
            ? 'Solicitar devolução'
            : chosen.length || !trocas.length
              ? 'Desistir dos itens escolhidos'
              : 'Trocar cor ou tamanho'}
        </button>
        {mode === 'desistir' ? (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={pending}
            onClick={() => withdraw.mutate({ versao }, { onSuccess: finish })}
          >
            Desistir da compra inteira
          </button>
        ) : null}
      </div>
    </form>
  );
}
