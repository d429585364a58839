import {
  type PainelProduct,
  STOCK_MOVEMENT_LABELS,
  STOCK_REASON_LABELS,
  type StockReason,
} from '@passada/core/contracts/painel';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import {
  FormStatus,
  inputClass,
  linkClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useAdjustStock, useStockHistory } from '../api/stock.ts';

type Entry = PainelProduct['stock'][number];

const comboLabel = (entry: Entry) => `${entry.color.name} ${entry.size.name}`;

function History({ productId, entry }: { productId: number; entry: Entry }) {
  const history = useStockHistory({
    product_id: productId,
    color_id: entry.color.id,
    size_id: entry.size.id,
  });
  if (history.isPending) return <p>Carregando…</p>;
  if (!history.data?.length)
    return <p className="text-sm text-stone-600">Nenhuma movimentação registrada.</p>;
  return (
    <ul className="text-sm">
      {history.data.map((m) => (
        <li key={m.id}>
          {formatDateTime(m.at)}: {m.delta > 0 ? `+${m.delta}` : m.delta} ({STOCK_MOVEMENT_LABELS[m.reason]}
          {m.note ? `, ${m.note}` : ''}) → {m.quantity_after}
          {m.staff_email
            ? `, por ${m.staff_email}`
            : m.reason in STOCK_REASON_LABELS
              ? ', por conta removida'
              : ''}
          {m.order_id ? (
            <>
              {' · '}
              <Link to={`/painel/pedidos/${m.order_id}`} className={linkClass}>
                pedido nº {m.order_id}
              </Link>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** One combination's adjustment form, its answer and its history; keeps its state per row. */
function StockAdjust({ productId, entry }: { productId: number; entry: Entry }) {
  const adjust = useAdjustStock();
  const [mode, setMode] = useState<'ajustar' | 'definir'>('ajustar');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<StockReason>('entrada');
  const [note, setNote] = useState('');
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const label = comboLabel(entry);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const result = await adjust.mutateAsync({
        product_id: productId,
        color_id: entry.color.id,
        size_id: entry.size.id,
        modo: mode,
        quantidade: Number(amount),
        motivo: reason,
        observacao: note,
      });
      setAmount('');
      setNote('');
      setStatus({ message: `Estoque de ${label}: ${result.after}.`, tone: 'success' });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label={`Estoque de ${label}`}>
        <select
          aria-label={`Operação em ${label}`}
          value={mode}
          onChange={(e) => setMode(e.target.value as 'ajustar' | 'definir')}
          className={`${inputClass} w-auto`}
        >
          <option value="ajustar">Somar/subtrair</option>
          <option value="definir">Definir contagem</option>
        </select>
        <input
          aria-label={`Quantidade em ${label}`}
          type="number"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          className={`${inputClass} w-24`}
          required
        />
        <select
          aria-label={`Motivo em ${label}`}
          value={reason}
          onChange={(e) => setReason(e.target.value as StockReason)}
          className={`${inputClass} w-auto`}
        >
          {Object.entries(STOCK_REASON_LABELS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
        <input
          aria-label={`Observação em ${label}`}
          placeholder="Observação"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          className={`${inputClass} w-40`}
        />
        <button type="submit" className={secondaryButtonClass}>
          Salvar
        </button>
        <button
          type="button"
          className="text-sm underline"
          onClick={() => setOpen(!open)}
          aria-expanded={open}
        >
          Histórico
        </button>
      </form>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
      {open ? <History productId={productId} entry={entry} /> : null}
    </>
  );
}

/** Stock per colour × size, each with its adjustment form and history. */
export function StockTable({ product }: { product: PainelProduct }) {
  return (
    <section aria-labelledby="estoque-titulo" className="mt-8">
      <h2 id="estoque-titulo" className="mb-2 text-xl font-semibold">
        Estoque por cor e tamanho
      </h2>
      <DataTable
        label="Estoque por cor e tamanho"
        rows={product.stock}
        rowKey={(entry) => `${entry.color.id}-${entry.size.id}`}
        empty="Nenhuma combinação de cor e tamanho."
        columns={[
          {
            header: 'Combinação',
            rowHeader: true,
            cell: (entry) => (
              <>
                <span
                  className="mr-2 inline-block size-3 rounded-full border"
                  style={{ background: entry.color.hex }}
                />
                {comboLabel(entry)}
              </>
            ),
          },
          { header: 'Quantidade', className: 'text-lg font-semibold', cell: (entry) => entry.quantity },
          { header: 'Ajuste', cell: (entry) => <StockAdjust productId={product.id} entry={entry} /> },
        ]}
      />
    </section>
  );
}
