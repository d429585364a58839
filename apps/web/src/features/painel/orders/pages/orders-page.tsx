import { ORDER_STATUSES, type OrderStatus, PAYMENT_METHOD_LABEL } from '@passada/core/contracts/orders';
import { isUnpaidOrderStatus, type PainelUnpaidCharge } from '@passada/core/contracts/painel-orders';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { formatReais } from '../../../../components/price.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { Pager } from '../../shell/components/pager.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { saveFile } from '../../shell/utils/save-file.ts';
import { printLabels, printPackingSlips, useBuyLabels } from '../api/labels.ts';
import { fetchOrderLinesCsv, fetchOrdersCsv, ORDER_STATUS_LABEL, useOrders } from '../api/orders.ts';

/** Orders with filters kept in the address, so a filtered list can be shared or reloaded. */
export default function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('busca') ?? '');
  const page = Number(params.get('pagina') ?? '1') || 1;
  const status = params.get('status') as OrderStatus | null;
  const method = params.get('metodo') as 'pix' | 'cartao' | 'gratuito' | null;
  const filters = {
    status: status ?? undefined,
    metodo: method ?? undefined,
    de: params.get('de') ?? undefined,
    ate: params.get('ate') ?? undefined,
    busca: params.get('busca') ?? undefined,
  };
  const orders = useOrders({ ...filters, pagina: page });
  const unpaid = isUnpaidOrderStatus(status ?? undefined);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const download = async (lines = false) => {
    setDownloadError(null);
    const file = await (lines ? fetchOrderLinesCsv : fetchOrdersCsv)(filters);
    if (file) saveFile(file);
    else setDownloadError(errorMessage(null));
  };
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'pagina') next.delete('pagina');
    setParams(next);
  };
  const pages = orders.data ? Math.max(1, Math.ceil(orders.data.count / orders.data.page_size)) : 1;
  // Orders chosen for shipping labels and packing slips (this page's), several at once.
  const [chosen, setChosen] = useState<number[]>([]);
  const toggle = (id: number, on: boolean) =>
    setChosen((now) => (on ? [...new Set([...now, id])] : now.filter((c) => c !== id)));
  const buy = useBuyLabels();
  const [printError, setPrintError] = useState<string | null>(null);
  const [printing, setPrinting] = useState<'etiquetas' | 'romaneios' | null>(null);
  const print = async (what: 'etiquetas' | 'romaneios') => {
    setPrintError(null);
    setPrinting(what);
    try {
      setPrintError(await (what === 'etiquetas' ? printLabels : printPackingSlips)(chosen));
    } finally {
      setPrinting(null);
    }
  };

  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Pedidos</h1>
      <form
        className="mb-4 grid gap-3 md:grid-cols-6"
        onSubmit={(e) => {
          e.preventDefault();
          set('busca', search.trim());
        }}
      >
        <div className="md:col-span-2">
          <FormField
            label="Buscar (número, nome, e-mail ou CPF)"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <SelectField label="Status" value={status ?? ''} onChange={(e) => set('status', e.target.value)}>
          <option value="">Todos</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ORDER_STATUS_LABEL[s]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Pagamento" value={method ?? ''} onChange={(e) => set('metodo', e.target.value)}>
          <option value="">Todos</option>
          <option value="pix">Pix</option>
          <option value="cartao">Cartão</option>
          <option value="gratuito">Gratuito</option>
        </SelectField>
        <FormField
          label="De"
          type="date"
          value={params.get('de') ?? ''}
          onChange={(e) => set('de', e.target.value)}
        />
        <FormField
          label="Até"
          type="date"
          value={params.get('ate') ?? ''}
          onChange={(e) => set('ate', e.target.value)}
        />
      </form>
      <p className="mb-4 flex flex-wrap gap-2">
        <button type="button" className={secondaryButtonClass} onClick={() => void download()}>
          Exportar CSV
        </button>
        {/* One row per line (SKU, colour, size): for picking, suppliers and stock; paid orders only. */}
        {status !== 'aguardando pagamento' && status !== 'expirado' ? (
          <button type="button" className={secondaryButtonClass} onClick={() => void download(true)}>
            Exportar itens (CSV)
          </button>
        ) : null}
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={!chosen.length || buy.isPending}
          onClick={() => buy.mutate({ pedidos: chosen.map((id) => ({ id })) })}
        >
          {buy.isPending ? 'Gerando etiquetas…' : 'Gerar etiquetas'}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={!chosen.length || printing !== null}
          onClick={() => void print('etiquetas')}
        >
          {printing === 'etiquetas' ? 'Preparando PDF…' : 'Imprimir etiquetas'}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={!chosen.length || printing !== null}
          onClick={() => void print('romaneios')}
        >
          {printing === 'romaneios' ? 'Preparando PDF…' : 'Imprimir romaneios'}
        </button>
      </p>
      <FormStatus message={downloadError} tone="error" />
      <FormStatus message={printError} tone="error" />
      {buy.isError ? <p role="alert">{errorMessage(buy.error)}</p> : null}
      {buy.data ? (
        <ul role="status" aria-label="Etiquetas" className="mb-4 text-sm">
          {buy.data.resultados.map((r) => (
            <li key={r.pedido}>
              Pedido nº {r.pedido}:{' '}
              {r.situacao === 'comprada' ? `etiqueta comprada, rastreio ${r.codigo_rastreio}` : r.erro}
            </li>
          ))}
        </ul>
      ) : null}
      {orders.isError ? <p role="alert">{errorMessage(orders.error)}</p> : null}
      {unpaid ? (
        <UnpaidCharges charges={orders.data?.cobrancas} expired={status === 'expirado'} />
      ) : (
        <DataTable
          label="Pedidos"
          rows={orders.data?.results}
          rowKey={(o) => o.id}
          empty="Nenhum pedido encontrado."
          columns={[
            {
              header: 'Etiqueta',
              cell: (o) => (
                <input
                  type="checkbox"
                  aria-label={`Selecionar pedido nº ${o.id}`}
                  checked={chosen.includes(o.id)}
                  onChange={(e) => toggle(o.id, e.target.checked)}
                />
              ),
            },
            {
              header: 'Nº',
              rowHeader: true,
              cell: (o) => (
                <Link to={`/painel/pedidos/${o.id}`} className={linkClass}>
                  {o.id}
                </Link>
              ),
            },
            { header: 'Data', cell: (o) => formatDateTime(o.data) },
            {
              header: 'Cliente',
              cell: (o) => (
                <>
                  {o.cliente}
                  {o.email ? <span className="block text-xs text-stone-600">{o.email}</span> : null}
                  {o.destinatario ? (
                    <span className="block text-xs text-stone-600">Entrega para {o.destinatario}</span>
                  ) : null}
                </>
              ),
            },
            { header: 'Pagamento', cell: (o) => PAYMENT_METHOD_LABEL[o.metodo_pagamento] },
            { header: 'Itens', cell: (o) => o.itens },
            { header: 'Total', cell: (o) => formatReais(o.total) },
            { header: 'Status', cell: (o) => ORDER_STATUS_LABEL[o.status] },
          ]}
        />
      )}
      <Pager
        page={page}
        pages={pages}
        label="Páginas"
        extra={`(${orders.data?.count ?? 0} ${unpaid ? 'cobranças' : 'pedidos'})`}
        onPage={(next) => set('pagina', String(next))}
      />
    </section>
  );
}

/**
 * The shop's unpaid charges ("Aguardando pagamento": a Pix waiting or a card under review, holding its
 * units; "Expirado": its deadline passed and everything went back). No order exists for them yet.
 */
function UnpaidCharges({
  charges,
  expired,
}: {
  charges: PainelUnpaidCharge[] | undefined;
  expired: boolean;
}) {
  return (
    <>
      <p className="mb-2 text-sm text-stone-700">
        {expired
          ? 'Cobranças que venceram sem pagamento: os itens e as vagas voltaram ao estoque. Não viraram pedido.'
          : 'Cobranças ainda sem pagamento: os itens e as vagas ficam reservados até o prazo. Viram pedido quando pagas.'}
      </p>
      <DataTable
        label={expired ? 'Cobranças expiradas' : 'Cobranças aguardando pagamento'}
        rows={charges}
        rowKey={(c) => c.cobranca_id}
        empty={expired ? 'Nenhuma cobrança expirada.' : 'Nenhuma cobrança aguardando pagamento.'}
        columns={[
          { header: 'Cobrança', rowHeader: true, cell: (c) => c.cobranca_id },
          { header: 'Criada em', cell: (c) => formatDateTime(c.criada_em) },
          { header: expired ? 'Venceu em' : 'Vence em', cell: (c) => formatDateTime(c.expira_em) },
          {
            header: 'Cliente',
            cell: (c) => (
              <>
                {c.cliente || 'Não informado'}
                {c.email ? <span className="block text-xs text-stone-600">{c.email}</span> : null}
              </>
            ),
          },
          {
            header: 'Itens',
            cell: (c) => (
              <ul>
                {c.itens.map((i) => (
                  <li key={`${i.nome}-${i.cor}-${i.tamanho}`}>
                    {i.quantidade}× {i.nome} ({i.cor}, {i.tamanho})
                  </li>
                ))}
                {c.inscricoes ? (
                  <li>
                    {c.inscricoes} {c.inscricoes === 1 ? 'inscrição' : 'inscrições'}
                  </li>
                ) : null}
              </ul>
            ),
          },
          { header: 'Pagamento', cell: (c) => PAYMENT_METHOD_LABEL[c.metodo_pagamento] },
          { header: 'Total', cell: (c) => formatReais(c.total) },
          { header: 'Situação', cell: (c) => ORDER_STATUS_LABEL[c.status] },
        ]}
      />
    </>
  );
}
