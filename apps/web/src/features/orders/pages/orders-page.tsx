import { streetLine } from '@passada/core/address';
import { formatCep } from '@passada/core/cep';
import type { Order } from '@passada/core/contracts/orders';
import { PAYMENT_METHOD_LABEL } from '@passada/core/contracts/orders';
import { useQueryClient } from '@tanstack/react-query';
import { AccountLayout } from '../../../components/account-layout.tsx';
import { OrderNotas } from '../../../components/nota-links.tsx';
import { OrderRegistrations } from '../../../components/order-registrations.tsx';
import { AccountPayments } from '../../../components/payments/account-payments.tsx';
import { formatReais } from '../../../components/price.tsx';
import { ProductLineSummary } from '../../../components/product-line.tsx';
import { ordersQuery, useOrders } from '../../../lib/orders-api.ts';
import { AfterSaleSection } from '../components/after-sale-section.tsx';
import { formatOrderDate, newestFirst, STATUS_LABEL } from '../utils/order-view.ts';

function OrderCard({ order }: { order: Order }) {
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
            <p className="font-semibold">{formatReais(item.product_price)}</p>
          </li>
        ))}
      </ul>
      <OrderRegistrations registrations={order.inscricoes ?? []} />
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
    </article>
  );
}

function Orders() {
  const orders = useOrders();
  if (orders.isPending) return <p role="status">Carregando pedidos...</p>;
  const list = newestFirst(orders.data ?? []);
  if (list.length === 0) return <p>Você ainda não fez nenhum pedido.</p>;
  return (
    <div className="flex flex-col gap-5">
      {list.map((order) => (
        <OrderCard key={order.id} order={order} />
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
