import { streetLine } from '@passada/core/address';
import type { OrderStatus } from '@passada/core/contracts/orders';
import { PAYMENT_METHOD_LABEL } from '@passada/core/contracts/orders';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { OrderRegistrations } from '../../../../components/order-registrations.tsx';
import { formatReais } from '../../../../components/price.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { useStaffCan } from '../../shell/api/auth.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { MOVE_LABEL, ORDER_STATUS_LABEL, useMoveOrder, useOrder } from '../api/orders.ts';
import { AdditionOffer, canOfferAddition } from '../components/addition-offer.tsx';
import { OrderChangeForm } from '../components/order-change-form.tsx';
import { OrderLabel } from '../components/order-label.tsx';
import { OrderNotas } from '../components/order-notas.tsx';
import { OrderNotes } from '../components/order-notes.tsx';
import { OrderRefundsSection } from '../components/order-refunds.tsx';
import { cancelQuestion } from '../utils/cancel-question.ts';

const dl = 'grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm';
const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

/** One order: what to pack, where it goes, how it was paid, and the buttons that move it. */
export default function OrderPage() {
  const id = Number(useParams().id);
  const order = useOrder(id);
  const move = useMoveOrder(id);
  const [tracking, setTracking] = useState('');
  const [reason, setReason] = useState('');
  // Cancelling returns the payment: only roles allowed to move money see it.
  const canRefund = useStaffCan('devolver_pagamento');

  if (order.isPending) return <p role="status">Carregando pedido…</p>;
  if (order.isError) return <p role="alert">{errorMessage(order.error)}</p>;
  const o = order.data;
  const moves = o.proximos_status.filter((s) => s !== 'cancelado' || canRefund);
  const refundHidden = !canRefund && o.proximos_status.includes('cancelado');

  const go = (status: OrderStatus) => {
    if (status === 'cancelado' && !window.confirm(cancelQuestion(o.inscricoes))) return;
    move.mutate({
      status,
      // A bought label already filled the code in (the carrier's); staff may still type another.
      ...(status === 'enviado' ? { codigo_rastreio: tracking.trim() || o.codigo_rastreio || '' } : {}),
      ...(status === 'cancelado' && reason.trim() ? { motivo: reason.trim() } : {}),
    });
  };

  return (
    <section className="flex flex-col gap-4">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-bold">Pedido nº {o.id}</h1>
        <p>
          Status: <strong data-testid="order-status">{ORDER_STATUS_LABEL[o.status]}</strong>
        </p>
        <Link to={`/painel/pedidos/${o.id}/imprimir`} className={linkClass}>
          Imprimir romaneio e etiqueta
        </Link>
      </header>
      {o.complemento_de ? (
        <p className={card}>
          Acréscimo pago pelo cliente antes do envio: vai na caixa do{' '}
          <Link to={`/painel/pedidos/${o.complemento_de}`} className={linkClass}>
            pedido nº {o.complemento_de}
          </Link>{' '}
          e muda de status com ele (etiqueta e romaneio são os daquele pedido).
        </p>
      ) : null}
      {o.complementos.length ? (
        <div className={card}>
          <h2 className="mb-2 font-semibold">Acréscimos nesta caixa</h2>
          <ul className="text-sm">
            {o.complementos.map((c) => (
              <li key={c.id}>
                <Link to={`/painel/pedidos/${c.id}`} className={linkClass}>
                  Pedido nº {c.id}
                </Link>
                : {c.unidades} {c.unidades === 1 ? 'unidade' : 'unidades'}, {ORDER_STATUS_LABEL[c.status]}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {moves.length || refundHidden ? (
        <div className={card}>
          <h2 className="mb-2 font-semibold">Próximo passo</h2>
          {o.proximos_status.includes('enviado') ? (
            <div className="mb-3 max-w-xs">
              <FormField
                label="Código de rastreio dos Correios"
                placeholder={o.codigo_rastreio ?? 'AB123456785BR'}
                value={tracking}
                onChange={(e) => setTracking(e.target.value)}
              />
            </div>
          ) : null}
          {moves.includes('cancelado') ? (
            <div className="mb-3 max-w-md">
              <FormField
                label="Motivo do cancelamento (opcional)"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {moves.map((s) => (
              <button
                key={s}
                type="button"
                disabled={move.isPending}
                className={s === 'cancelado' ? secondaryButtonClass : primaryButtonClass}
                onClick={() => go(s)}
              >
                {MOVE_LABEL[s] ?? ORDER_STATUS_LABEL[s]}
              </button>
            ))}
          </div>
          {refundHidden ? (
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
              Cancelar e devolver o pagamento é só para administradores.
            </p>
          ) : null}
          {move.isError ? <FormStatus tone="error" message={errorMessage(move.error)} /> : null}
        </div>
      ) : null}

      <div className="grid gap-4 md:grid-cols-2">
        <div className={card}>
          <h2 className="mb-2 font-semibold">Itens</h2>
          <ul className="text-sm">
            {o.itens.map((i) => (
              <li key={`${i.product_id}-${i.cor}-${i.tamanho}`}>
                {i.quantidade} × {i.nome} ({i.cor}, {i.tamanho}) — {formatReais(i.preco * i.quantidade)}
              </li>
            ))}
          </ul>
          <OrderRegistrations registrations={o.inscricoes} />
          <dl className={`${dl} mt-3`}>
            <dt>Subtotal</dt>
            <dd>{formatReais(o.subtotal)}</dd>
            {o.servico_frete ? (
              <>
                <dt>Frete ({o.servico_frete})</dt>
                <dd>{formatReais(o.frete)}</dd>
              </>
            ) : null}
            {o.cupom ? (
              <>
                <dt>Desconto (cupom {o.cupom})</dt>
                <dd>−{formatReais(o.desconto)}</dd>
              </>
            ) : null}
            <dt>Juros</dt>
            <dd>{formatReais(o.juros)}</dd>
            <dt className="font-bold">Total</dt>
            <dd className="font-bold">{formatReais(o.total)}</dd>
          </dl>
        </div>
        <div className={card}>
          <h2 className="mb-2 font-semibold">Entrega</h2>
          {o.endereco ? (
            <address className="text-sm not-italic">
              {o.endereco.full_name}
              <br />
              {streetLine(o.endereco)} – {o.endereco.neighborhood}
              <br />
              {o.endereco.city}/{o.endereco.state} – CEP {o.endereco.zip_code}
              <br />
              Telefone: {o.endereco.phone}
            </address>
          ) : (
            <p className="text-sm">Nada a enviar: o pedido tem só inscrições em eventos.</p>
          )}
          <p className="mt-2 text-sm">
            Cliente: {o.cliente.nome} {o.cliente.email ? `(${o.cliente.email})` : ''}
          </p>
          <p className="mt-1 text-sm">
            {/* Only card payments ask for a CPF (the holder's); Pix orders, and cards paid with a CNPJ, have none. */}
            CPF:{' '}
            {o.cliente.cpf ??
              (o.metodo_pagamento === 'cartao'
                ? 'não informado'
                : `não informado (${PAYMENT_METHOD_LABEL[o.metodo_pagamento]})`)}
          </p>
          {o.codigo_rastreio && o.rastreio_url ? (
            <p className="mt-2 text-sm">
              Rastreio:{' '}
              <a href={o.rastreio_url} target="_blank" rel="noreferrer" className={linkClass}>
                {o.codigo_rastreio}
              </a>
            </p>
          ) : null}
        </div>
        <div className={card}>
          <h2 className="mb-2 font-semibold">Pagamento</h2>
          <dl className={dl}>
            <dt>Forma</dt>
            <dd>
              {o.metodo_pagamento === 'cartao'
                ? `Cartão, ${o.parcelas}×`
                : PAYMENT_METHOD_LABEL[o.metodo_pagamento]}
            </dd>
            <dt>Situação</dt>
            <dd data-testid="payment-status">{o.pagamento.status}</dd>
            <dt>Identificador</dt>
            <dd className="break-all">{o.pagamento.txid}</dd>
            {o.pagamento.atencao ? (
              <>
                <dt>Atenção</dt>
                <dd className="font-semibold text-red-700">{o.pagamento.atencao}</dd>
              </>
            ) : null}
            {o.pagamento.devolucao ? (
              <>
                <dt>Devolução</dt>
                <dd data-testid="refund">
                  {formatReais(o.pagamento.devolucao.valor)} — {o.pagamento.devolucao.status}
                </dd>
              </>
            ) : null}
          </dl>
          <h3 className="mt-3 text-sm font-semibold">Eventos do pagamento</h3>
          <ol className="text-xs">
            {o.pagamento.eventos.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows and is never reordered
              <li key={i}>
                {formatDateTime(e.em)} · {e.origem} · {e.tipo}
              </li>
            ))}
          </ol>
        </div>
        <div className={card}>
          <h2 className="mb-2 font-semibold">Linha do tempo</h2>
          <ol className="text-sm" aria-label="Linha do tempo">
            {o.linha_do_tempo.map((e) => (
              <li key={`${e.status}-${e.em}`}>
                {formatDateTime(e.em)} · {ORDER_STATUS_LABEL[e.status]}
                {e.codigo_rastreio ? ` (${e.codigo_rastreio})` : ''}
                {e.por ? ` · por ${e.por}` : ''}
              </li>
            ))}
          </ol>
        </div>
        {o.status === 'pago' || o.status === 'em separação' ? (
          <OrderChangeForm order={o} canRefund={canRefund} className={card} />
        ) : null}
        {canOfferAddition(o) ? <AdditionOffer order={o} className={card} /> : null}
        <OrderNotes orderId={o.id} notes={o.notas} className={card} />
        <OrderNotas orderId={o.id} className={card} />
        {o.itens.length > 0 ? (
          <OrderLabel orderId={o.id} cancelled={o.status === 'cancelado'} className={card} />
        ) : null}
        {o.metodo_pagamento === 'gratuito' ? null : <OrderRefundsSection orderId={o.id} className={card} />}
      </div>
      <Link to="/painel/pedidos" className={linkClass}>
        Voltar aos pedidos
      </Link>
    </section>
  );
}
