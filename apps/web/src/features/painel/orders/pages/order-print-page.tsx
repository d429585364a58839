import { streetLine } from '@passada/core/address';
import { useParams } from 'react-router';
import { primaryButtonClass } from '../../../../components/form-field.tsx';
import { formatDate } from '../../../../lib/format.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useOrder, usePackingSlip } from '../api/orders.ts';

/**
 * The packing slip (romaneio, the picking guide): who sends, who receives, what to pick with its SKU,
 * and the order number as a Code 128 barcode drawn by the server (docs/decisions/0039).
 */
function PackingSlipSection({ id }: { id: number }) {
  const slip = usePackingSlip(id);
  if (slip.isPending) return <p role="status">Carregando romaneio…</p>;
  if (slip.isError) return <p role="alert">{errorMessage(slip.error)}</p>;
  const s = slip.data;
  const to = s.destinatario;
  return (
    <section aria-labelledby="romaneio-titulo">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h1 id="romaneio-titulo" className="text-xl font-bold">
            Romaneio – pedido nº {s.pedido}
          </h1>
          <p className="text-sm">
            {formatDate(s.data)}
            {s.servico_frete ? ` · ${s.servico_frete}` : ''}
          </p>
        </div>
        <figure className="text-center">
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(s.codigo_barras.svg)}`}
            alt={`Código de barras do pedido nº ${s.codigo_barras.texto}`}
            className="h-16"
          />
          <figcaption className="font-mono text-sm">{s.codigo_barras.texto}</figcaption>
        </figure>
      </div>
      <div className="mt-3 grid grid-cols-2 gap-4 text-sm">
        <div>
          <h2 className="text-xs font-semibold uppercase">Remetente</h2>
          <p className="font-semibold">{s.remetente.nome}</p>
          <p>
            {s.remetente.razao_social} · CNPJ {s.remetente.cnpj}
          </p>
          <p>{s.remetente.endereco}</p>
          <p>{s.remetente.telefone}</p>
        </div>
        <div>
          <h2 className="text-xs font-semibold uppercase">Destinatário</h2>
          {to ? (
            <>
              <p className="font-semibold">{to.nome}</p>
              <p>{to.endereco}</p>
              <p>
                {to.bairro} · {to.cidade}/{to.uf}
              </p>
              <p>CEP {to.cep}</p>
              <p>{to.telefone}</p>
            </>
          ) : (
            <p>Nada a enviar: o pedido só tem inscrições.</p>
          )}
        </div>
      </div>
      <table className="mt-3 w-full border-collapse text-left text-sm">
        <caption className="sr-only">Itens a separar</caption>
        <thead>
          <tr className="border-b border-black">
            <th scope="col" className="py-1">
              Conferido
            </th>
            <th scope="col">Qtd.</th>
            <th scope="col">SKU</th>
            <th scope="col">Produto</th>
            <th scope="col">Cor</th>
            <th scope="col">Tamanho</th>
          </tr>
        </thead>
        <tbody>
          {s.itens.map((i) => (
            <tr key={i.sku} className="border-b border-stone-400">
              <td className="py-1">☐</td>
              <td>{i.quantidade}</td>
              <td className="font-mono">{i.sku}</td>
              <td>{i.nome}</td>
              <td>{i.cor}</td>
              <td>{i.tamanho}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {s.inscricoes ? (
        <p className="mt-2 text-sm">
          O pedido também tem {s.inscricoes} {s.inscricoes === 1 ? 'inscrição' : 'inscrições'} (nada a
          separar).
        </p>
      ) : null}
    </section>
  );
}

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
        <PackingSlipSection id={o.id} />
        {a ? (
          <section aria-label="Etiqueta" className="label mt-8 w-[100mm] border-2 border-black p-4">
            <p className="text-xs font-semibold uppercase">Destinatário</p>
            <p className="text-lg font-bold">{a.full_name}</p>
            <p>{streetLine(a)}</p>
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
