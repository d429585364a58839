import type { PainelOrderDetail } from '@passada/core/contracts/painel-orders';
import { type FormEvent, useState } from 'react';
import { FormStatus, secondaryButtonClass, TextAreaField } from '../../../../components/form-field.tsx';
import { type LineSwap, OrderSwapFields } from '../../../../components/order-swap-fields.tsx';
import { formatReais } from '../../../../components/price.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useChangeOrder, useOrderChangeQuote } from '../api/orders.ts';

const input = 'w-20 rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900';

/**
 * Units taken off an order before it ships, or swapped to another colour or size, for the shop (a piece
 * damaged at packing, a buyer's call):
 * the server's quote of what goes back is shown before confirming, and the list is sent with the
 * version of the order this page read (docs/decisions/0065). The buyer is e-mailed the reason.
 */
export function OrderChangeForm({
  order,
  className,
  canRefund = true,
}: {
  order: PainelOrderDetail;
  className: string;
  /** Taking units off gives money back: only roles that may move money. Swaps move none. */
  canRefund?: boolean;
}) {
  const [units, setUnits] = useState<Record<number, number>>({});
  const [swaps, setSwaps] = useState<Record<number, LineSwap | undefined>>({});
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const change = useChangeOrder(order.id);
  const itens = Object.entries(units)
    .filter(([, n]) => n > 0)
    .map(([id, n]) => ({ item_id: Number(id), quantidade: n }));
  const trocas = Object.entries(swaps).flatMap(([id, s]) =>
    s && s.quantidade > 0 ? [{ item_id: Number(id), ...s }] : [],
  );
  const list = {
    itens,
    ...(trocas.length ? { trocas } : {}),
    motivo: reason.trim() || '-',
    versao: order.versao ?? 0,
  };
  const any = itens.length > 0 || trocas.length > 0;
  const quote = useOrderChangeQuote(order.id, list, any);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    try {
      await change.mutateAsync({ ...list, motivo: reason.trim() });
      setUnits({});
      setSwaps({});
      setReason('');
      setDone('Pedido alterado: o valor volta ao cliente, que recebe o motivo por e-mail.');
    } catch {
      // The error is shown below from the mutation's state.
    }
  };

  const lines = order.itens.filter((i) => i.item_id !== undefined && i.quantidade > 0);
  if (!lines.length) return null;
  return (
    <form onSubmit={submit} className={className} aria-label="Alterar o pedido antes do envio">
      <h2 className="mb-2 font-semibold">Alterar antes do envio</h2>
      <div className="flex flex-col gap-2">
        {lines.map((i) => (
          <div key={i.item_id} className="flex flex-col gap-1">
            {canRefund ? (
              <label className="flex items-center justify-between gap-2 text-sm">
                {`Tirar unidades de ${i.nome} (${i.cor}, ${i.tamanho})`}
                <input
                  type="number"
                  min={0}
                  max={i.quantidade}
                  value={units[i.item_id!] ?? 0}
                  onChange={(e) => setUnits({ ...units, [i.item_id!]: Number(e.target.value) })}
                  className={input}
                />
              </label>
            ) : null}
            <OrderSwapFields
              line={i}
              value={swaps[i.item_id!]}
              onChange={(swap) => setSwaps({ ...swaps, [i.item_id!]: swap })}
            />
          </div>
        ))}
        <TextAreaField
          label="Motivo (o cliente recebe por e-mail)"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={2}
        />
        {quote.data && any ? (
          <p role="status" className="text-sm font-semibold">
            {`Volta ao cliente: ${formatReais(quote.data.a_devolver)}.`}
            {(quote.data.trocas ?? [])
              .map((t) => ` Troca: ${t.quantidade} para ${t.cor}, ${t.tamanho}.`)
              .join('')}
            {quote.data.cancela_pedido ? ' Nada fica no pedido: ele será cancelado.' : ''}
          </p>
        ) : null}
        <FormStatus message={quote.error ? errorMessage(quote.error) : null} tone="error" />
        <FormStatus message={change.error ? errorMessage(change.error) : null} tone="error" />
        <FormStatus message={done} tone="success" />
        <button
          type="submit"
          className={secondaryButtonClass}
          disabled={change.isPending || !any || !reason.trim()}
        >
          {itens.length || !trocas.length ? 'Tirar do pedido e devolver o valor' : 'Trocar cor ou tamanho'}
        </button>
      </div>
    </form>
  );
}
