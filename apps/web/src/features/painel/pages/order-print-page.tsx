import { useParams } from 'react-router';
import { primaryButtonClass } from '../../../components/form-field.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useOrder } from '../api/orders.ts';
import { errorMessage } from '../utils/error-message.ts';

/**
 * The packing slip and the address label on one sheet. Printed from the browser: the print rules
 * hide everything but the two, and the label starts a page of its own.
 */
export default function OrderPrintPage() {
  const id = Number(useParams().id);
  const order = useOrder(id);
  if (order.isPending) return <p role="status">Carregando…</p>;
  if (order.isError) return <p role="alert">{errorMessage(order.error)}</p>;
  const o = order.data;
  const a = o.endereco;
  return (
    <main className="mx-auto max-w-2xl bg-white p-6 text-black">
      <style>{`@media print {
  body * { visibility: hidden; }
  .print-area, .print-area * { visibility: visible; }
  .print-area { position: absolute; inset: 0; }
  .no-print { display: none !important; }
  .label { break-before: page; }
  @page { margin: 12mm; }
}`}</style>
      <button type="button" className={`${primaryButtonClass} no-print mb-4`} onClick={() => window.print()}>
        Imprimir
      </button>
      <div className="print-area">
        <section aria-label="Romaneio">
          <h1 className="text-xl font-bold">Romaneio – pedido nº {o.id}</h1>
          <p className="text-sm">
            {formatDate(o.data)} · {o.servico_frete}
          </p>
          <table className="mt-3 w-full border-collapse text-left text-sm">
            <thead>
              <tr className="border-b border-black">
                <th className="py-1">Conferido</th>
                <th>Qtd.</th>
                <th>Produto</th>
                <th>Cor</th>
                <th>Tamanho</th>
              </tr>
            </thead>
            <tbody>
              {o.itens.map((i) => (
                <tr key={`${i.product_id}-${i.cor}-${i.tamanho}`} className="border-b border-stone-400">
                  <td className="py-1">☐</td>
                  <td>{i.quantidade}</td>
                  <td>{i.nome}</td>
                  <td>{i.cor}</td>
                  <td>{i.tamanho}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        {a ? (
          <section aria-label="Etiqueta" className="label mt-8 w-[100mm] border-2 border-black p-4">
            <p className="text-xs font-semibold uppercase">Destinatário</p>
            <p className="text-lg font-bold">{a.full_name}</p>
            <p>{a.street}</p>
            <p>{a.neighborhood}</p>
            <p>
              {a.city}/{a.state}
            </p>
            <p className="text-lg font-bold">CEP {a.zip_code.replace(/^(\d{5})(\d{3})$/, '$1-$2')}</p>
            <p className="mt-2 text-xs">
              Pedido nº {o.id} · {o.servico_frete}
              {o.codigo_rastreio ? ` · ${o.codigo_rastreio}` : ''}
            </p>
          </section>
        ) : null}
      </div>
    </main>
  );
}
