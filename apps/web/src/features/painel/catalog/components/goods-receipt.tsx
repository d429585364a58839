import type { PainelProduct, StockReason } from '@passada/core/contracts/painel';
import { type FormEvent, useState } from 'react';
import { FormStatus, inputClass, primaryButtonClass } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useStockBatch } from '../api/stock.ts';
import { StockReasonFields } from './stock-reason-fields.tsx';

type Entry = PainelProduct['stock'][number];

const cellKey = (colorId: number, sizeId: number) => `${colorId}-${sizeId}`;

/** The product's colours (rows) and sizes (columns), in the order the stock lists them. */
function gridOf(stock: Entry[]) {
  const colors = new Map<number, Entry['color']>();
  const sizes = new Map<number, Entry['size']>();
  const cells = new Map<string, Entry>();
  for (const entry of stock) {
    colors.set(entry.color.id, entry.color);
    sizes.set(entry.size.id, entry.size);
    cells.set(cellKey(entry.color.id, entry.size.id), entry);
  }
  return { colors: [...colors.values()], sizes: [...sizes.values()], cells };
}

/**
 * A goods receipt as a grid (decision 0081): the units that came in per colour × size, one save for the
 * whole delivery, all or none, each cell filled a line in the stock's history with the same reason and
 * note (the supplier's invoice). Empty cells change nothing.
 */
export function GoodsReceipt({ product }: { product: PainelProduct }) {
  const batch = useStockBatch();
  const { colors, sizes, cells } = gridOf(product.stock);
  const [amounts, setAmounts] = useState<Record<string, string>>({});
  const [reason, setReason] = useState<StockReason>('entrada');
  const [note, setNote] = useState('');
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);

  const filled = Object.entries(amounts).filter(([, v]) => v.trim() !== '' && Number(v) !== 0);
  const total = filled.reduce((sum, [, v]) => sum + Number(v), 0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await batch.mutateAsync({
        modo: 'ajustar',
        motivo: reason,
        observacao: note,
        linhas: filled.map(([key, v]) => {
          const entry = cells.get(key)!;
          return {
            product_id: product.id,
            color_id: entry.color.id,
            size_id: entry.size.id,
            quantidade: Number(v),
          };
        }),
      });
      setAmounts({});
      setNote('');
      const units = answer.linhas.reduce((sum, l) => sum + l.diferenca, 0);
      setStatus({
        message: `Recebimento salvo: ${answer.linhas.length} ${answer.linhas.length === 1 ? 'combinação' : 'combinações'}, ${units > 0 ? '+' : ''}${units} unidades.`,
        tone: 'success',
      });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  if (product.stock.length === 0) return null;
  return (
    <section aria-labelledby="recebimento-titulo" className="mt-8">
      <h2 id="recebimento-titulo" className="mb-1 text-xl font-semibold">
        Recebimento de mercadoria
      </h2>
      <p className="mb-2 text-sm text-stone-600 dark:text-stone-400">
        Digite quantas unidades chegaram de cada cor e tamanho (negativo tira) e salve tudo de uma vez.
        Células vazias não mudam nada; se uma linha não puder ser aplicada, nenhuma é.
      </p>
      <form onSubmit={submit} aria-label="Recebimento de mercadoria">
        <div className="overflow-x-auto">
          <table className="border-collapse text-sm">
            <caption className="sr-only">Unidades recebidas por cor e tamanho</caption>
            <thead>
              <tr>
                <th scope="col" className="p-2 text-left">
                  Cor
                </th>
                {sizes.map((size) => (
                  <th key={size.id} scope="col" className="p-2 text-center">
                    {size.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {colors.map((color) => (
                <tr key={color.id} className="border-t border-stone-200 dark:border-stone-800">
                  <th scope="row" className="p-2 text-left font-medium">
                    <span
                      className="mr-2 inline-block size-3 rounded-full border"
                      style={{ background: color.hex }}
                    />
                    {color.name}
                  </th>
                  {sizes.map((size) => {
                    const key = cellKey(color.id, size.id);
                    const entry = cells.get(key);
                    return (
                      <td key={size.id} className="p-1 text-center">
                        {entry ? (
                          <input
                            type="number"
                            inputMode="numeric"
                            step={1}
                            aria-label={`Entrada de ${color.name} ${size.name} (há ${entry.quantity})`}
                            value={amounts[key] ?? ''}
                            onChange={(e) => setAmounts({ ...amounts, [key]: e.target.value })}
                            className={`${inputClass} w-20 text-center`}
                          />
                        ) : (
                          <span aria-hidden="true">—</span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <StockReasonFields
            reasonLabel="Motivo do recebimento"
            reason={reason}
            onReason={setReason}
            noteLabel="Observação (nota do fornecedor)"
            note={note}
            onNote={setNote}
          />
          <button
            type="submit"
            className={primaryButtonClass}
            disabled={filled.length === 0 || batch.isPending}
          >
            {filled.length === 0
              ? 'Salvar recebimento'
              : `Salvar recebimento (${filled.length} ${filled.length === 1 ? 'combinação' : 'combinações'}, ${total > 0 ? '+' : ''}${total})`}
          </button>
        </div>
      </form>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </section>
  );
}
