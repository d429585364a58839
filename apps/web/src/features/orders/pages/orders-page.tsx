import { streetLine } from '@passada/core/address';
import { formatCep } from '@passada/core/cep';
import type { Order } from '@passada/core/contracts/orders';
import { PAYMENT_METHOD_LABEL } from '@passada/core/contracts/orders';
import { formatBRL } from '@passada/core/money';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { AccountLayout } from '../../../components/account-layout.tsx';
import type { AdditionStart } from '../../../components/addition-fields.tsx';
import { OrderNotas } from '../../../components/nota-links.tsx';
import { OrderRegistrations } from '../../../components/order-registrations.tsx';
import { AccountPayments } from '../../../components/payments/account-payments.tsx';
import { formatReais } from '../../../components/price.tsx';
import { ProductLineSummary } from '../../../components/product-line.tsx';
import { formatDate } from '../../../lib/format.ts';
import { ordersQuery, useOrders } from '../../../lib/orders-api.ts';
import { useAfterSale } from '../api/after-sale.ts';
import { AddToOrder } from '../components/add-to-order.tsx';
import { AfterSaleSection } from '../components/after-sale-section.tsx';
import { OrderReviews } from '../components/order-reviews.tsx';
import {
  formatOrderDate,
  lineTotalCents,
  newestFirst,
  orderTimeline,
  STATUS_LABEL,
} from '../utils/order-view.ts';

/** Pago → Em separação → Enviado → Entregue, each reached step with its day. */
function OrderTimeline({ order }: { order: Order }) {
  // Delivery is dated by the after-sale answer's day, which the section below reads too (one request).
  const after = useAfterSale(order.id, order.status !== 'aguardando pagamento');
  const dated = orderTimeline(order, after.data?.entregue_em ?? null, formatDate);
  if (!dated) return null;
  return (
    <ol aria-label={`Andamento do pedido ${order.id}`} className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-4">
      {dated.map((step) => (
        <li
          key={step.label}
          aria-current={step.current ? 'step' : undefined}
          className={`rounded-lg border-t-4 px-2 pt-1 text-sm ${
            step.reached
              ? 'border-brand-700 font-semibold dark:border-brand-500'
              : 'border-stone-300 text-stone-600 dark:border-stone-700 dark:text-stone-400'
          }`}
        >
          {step.label}
          <span className="block font-normal">{step.date ?? (step.reached ? '' : 'a seguir')}</span>
        </li>
      ))}
    </ol>
  );
}

function OrderCard({ order, start }: { order: Order; start?: AdditionStart | undefined }) {
  return (
    <article
      id={`pedido-${order.id}`}
      aria-label={`Pedido ${order.id}`}
      className="rounded-xl border border-stone-200 p-5 dark:border-stone-800"
    >
      <header className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-bold">Pedido nº {order.id}</h2>
        <p className="text-sm text-stone-700 dark:text-stone-300">
          {formatOrderDate(order.order_date)} ·{' '}
          <span className="font-semibold">{STATUS_LABEL[order.status] ?? order.status}</span>
        </p>
      </header>
      {order.complemento_de ? (
        <p className="mb-2 text-sm">
          Acréscimo ao{' '}
          <a className="underline" href={`#pedido-${order.complemento_de}`}>
            pedido nº {order.complemento_de}
          </a>
          : vai na mesma caixa.
        </p>
      ) : null}
      {order.complementos?.length ? (
        <p className="mb-2 text-sm">
          Vai junto nesta caixa:{' '}
          {order.complementos.map((id, i) => (
            <span key={id}>
              {i ? ', ' : ''}
              <a className="underline" href={`#pedido-${id}`}>
                acréscimo nº {id}
              </a>
            </span>
          ))}
          .
        </p>
      ) : null}
      <OrderTimeline order={order} />
      <ul className="flex flex-col gap-3 empty:hidden" aria-label="Itens">
        {order.items.map((item) => (
          <li
            key={`${item.product}-${item.product_color}-${item.product_size}`}
            className="flex items-center gap-3"
          >
            <ProductLineSummary
              image={item.product_image}
              name={item.product_name}
              color={item.product_color}
              size={item.product_size}
              quantity={item.quantity}
              imageSize={56}
            />
            <p className="ml-auto text-right">
              <span className="block text-sm text-stone-700 dark:text-stone-300">
                {item.quantity} × {formatReais(item.product_price)}
              </span>
              <span className="font-semibold">
                {formatBRL(lineTotalCents(item.product_price, item.quantity))}
              </span>
            </p>
          </li>
        ))}
      </ul>
      <OrderReviews order={order} />
      <OrderRegistrations registrations={order.inscricoes ?? []} orderId={order.id} />
      <dl className="mt-4 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 [&_dd]:text-right border-t border-stone-200 pt-3 dark:border-stone-800">
        {order.servico_frete ? (
          <>
            <dt>Frete ({order.servico_frete})</dt>
            <dd>{formatReais(order.frete)}</dd>
          </>
        ) : null}
        {order.cupom && order.desconto ? (
          <>
            <dt>Desconto (cupom {order.cupom})</dt>
            <dd>−{formatReais(order.desconto)}</dd>
          </>
        ) : null}
        <dt>Pagamento</dt>
        <dd>
          {order.metodo_pagamento === 'cartao'
            ? `Cartão de crédito, ${order.parcelas}×`
            : PAYMENT_METHOD_LABEL[order.metodo_pagamento]}
        </dd>
        {/* The server's figure: the page adds nothing up itself (registrations are in the total, not the subtotal). */}
        {order.juros > 0 ? (
          <>
            <dt>Juros</dt>
            <dd>{formatReais(order.juros)}</dd>
          </>
        ) : null}
        <dt className="font-bold">Total</dt>
        <dd className="font-bold">{formatReais(order.total)}</dd>
        {order.reembolsado ? (
          <>
            <dt>Reembolsado</dt>
            <dd>{formatReais(order.reembolsado)}</dd>
          </>
        ) : null}
      </dl>
      {order.address ? (
        <address className="mt-3 text-sm not-italic text-stone-700 dark:text-stone-300">
          Entrega para {order.address.full_name}: {streetLine(order.address)}, {order.address.neighborhood},{' '}
          {order.address.city}-{order.address.state}, CEP {formatCep(order.address.zip_code)}
        </address>
      ) : null}
      {order.codigo_rastreio && order.rastreio_url ? (
        <p className="mt-2 text-sm">
          Rastreio dos Correios:{' '}
          <a className="font-semibold underline" href={order.rastreio_url} target="_blank" rel="noreferrer">
            {order.codigo_rastreio}
          </a>
        </p>
      ) : null}
      {order.status === 'cancelado' ? (
        <p className="mt-2 text-sm">
          Pedido cancelado: o valor pago é devolvido pela mesma forma de pagamento.
        </p>
      ) : null}
      <OrderNotas orderId={order.id} />
      <AfterSaleSection order={order} />
      <AddToOrder order={order} start={start} />
    </article>
  );
}

/** The shop's proposal of an addition, from its e-mail's link (docs/decisions/0087, later). */
function proposalOf(params: URLSearchParams): { orderId: number; start: AdditionStart } | null {
  const n = (key: string) => {
    const v = Number(params.get(key));
    return Number.isInteger(v) && v > 0 ? v : undefined;
  };
  const orderId = n('acrescentar');
  if (orderId === undefined) return null;
  return {
    orderId,
    start: { product: n('produto'), color: n('cor'), size: n('tamanho'), units: n('unidades') },
  };
}

function Orders() {
  const orders = useOrders();
  const [params] = useSearchParams();
  const proposal = proposalOf(params);
  if (orders.isPending) return <p role="status">Carregando pedidos...</p>;
  const list = newestFirst(orders.data ?? []);
  if (list.length === 0) return <p>Você ainda não fez nenhum pedido.</p>;
  return (
    <div className="flex flex-col gap-5">
      {list.map((order) => (
        <OrderCard
          key={order.id}
          order={order}
          start={proposal?.orderId === order.id ? proposal.start : undefined}
        />
      ))}
    </div>
  );
}

/** /user/pedidos (spec §2): the signed-in user's order history, inside the account menu. */
export default function Page() {
  const queryClient = useQueryClient();
  return (
    <AccountLayout title="Pedidos">
      <AccountPayments
        purpose="pedido"
        onSettled={() => void queryClient.invalidateQueries({ queryKey: ordersQuery.queryKey })}
      />
      <Orders />
    </AccountLayout>
  );
}
