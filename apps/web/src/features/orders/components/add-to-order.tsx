import { MIN_CARD_TOTAL_CENTS } from '@passada/core/card';
import type { Order } from '@passada/core/contracts/orders';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { unitPrice } from '@passada/core/sale-price';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { choiceButtonClass, secondaryButtonClass } from '../../../components/button-classes.ts';
import { CardForm } from '../../../components/payments/card-form.tsx';
import { PixPanel } from '../../../components/payments/pix-panel.tsx';
import { ordersQuery } from '../../../lib/orders-api.ts';
import { useSession } from '../../../lib/session.tsx';
import { useExchangeProduct } from '../api/after-sale.ts';

const fieldClass = 'rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900';

/** Most units of one colour and size an addition offers at once (the server has its own cap). */
const MAX_UNITS = 10;

/** Whether more units can still join this order's parcel (the server checks it again). */
export const canAddTo = (order: Order) =>
  (order.status === 'pago' || order.status === 'em separação') &&
  order.servico_frete !== null &&
  order.complemento_de === undefined &&
  order.items.length > 0;

/**
 * "Acrescentar ao pedido" (docs/decisions/0087): before the order ships, more units of a product it has,
 * in any colour and size in stock, at today's price and with no shipping, since they go in the same
 * parcel. Paid here by Pix or card; the addition is an order of its own that names this one.
 */
export function AddToOrder({ order }: { order: Order }) {
  const client = useQueryClient();
  const { profile } = useSession();
  const products = [...new Map(order.items.map((i) => [i.product, i.product_name])).entries()];
  const [open, setOpen] = useState(false);
  const [productId, setProductId] = useState(products[0]?.[0] ?? null);
  const product = useExchangeProduct(open ? productId : null);
  const [combo, setCombo] = useState('');
  const [units, setUnits] = useState(1);
  const [method, setMethod] = useState<'pix' | 'cartao' | null>(null);
  const [paid, setPaid] = useState<number | null>(null);
  if (!canAddTo(order) && paid === null) return null;

  const options = (product.data?.stock ?? []).filter((s) => s.quantity > 0);
  const chosen = options.find((s) => `${s.color.id}-${s.size.id}` === combo);
  const max = Math.min(MAX_UNITS, chosen?.quantity ?? 1);
  const count = Math.max(1, Math.min(units, max));
  const totalCents = product.data && chosen ? reaisToCents(unitPrice(product.data, chosen)) * count : 0;
  const draft = chosen
    ? {
        items: [{ product: productId, color: chosen.color.id, size: chosen.size.id, quantity: count }],
        metodo_pagamento: method ?? 'pix',
        complemento_de: order.id,
      }
    : null;
  const description = `Acréscimo ao pedido nº ${order.id}`;
  const done = (fulfilledId?: number) => {
    setPaid(fulfilledId ?? 0);
    setMethod(null);
    setOpen(false);
    void client.invalidateQueries({ queryKey: ordersQuery.queryKey });
  };
  // Any change to what is added asks for a new charge.
  const reset = () => setMethod(null);

  return (
    <section
      aria-label={`Acrescentar ao pedido ${order.id}`}
      className="mt-4 border-t pt-3 dark:border-stone-800"
    >
      {paid !== null ? (
        <p role="status" className="font-semibold">
          Acréscimo pago{paid ? ` (pedido nº ${paid})` : ''}: vai na mesma caixa do pedido nº {order.id}.
          Enviamos a confirmação por e-mail.
        </p>
      ) : null}
      {canAddTo(order) ? (
        <button
          type="button"
          className={`mt-2 ${secondaryButtonClass}`}
          aria-expanded={open}
          onClick={() => {
            setOpen(!open);
            setPaid(null);
          }}
        >
          Acrescentar itens ao pedido
        </button>
      ) : null}
      {open ? (
        <div className="mt-3 flex flex-col gap-2">
          <p className="text-sm">
            Antes do envio, você pode acrescentar mais unidades a este pedido: pelo preço de hoje, sem frete,
            na mesma caixa.
          </p>
          <label className="flex flex-col text-sm">
            Produto a acrescentar
            <select
              value={productId ?? ''}
              className={fieldClass}
              onChange={(e) => {
                setProductId(Number(e.target.value));
                setCombo('');
                reset();
              }}
            >
              {products.map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col text-sm">
            Cor e tamanho
            <select
              value={combo}
              className={fieldClass}
              onChange={(e) => {
                setCombo(e.target.value);
                reset();
              }}
            >
              <option value="">{product.isPending ? 'Carregando...' : 'Escolha a cor e o tamanho'}</option>
              {options.map((s) => (
                <option key={`${s.color.id}-${s.size.id}`} value={`${s.color.id}-${s.size.id}`}>
                  {`${s.color.name}, ${s.size.name}`}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center justify-between gap-2 text-sm">
            Unidades a acrescentar
            <input
              type="number"
              min={1}
              max={max}
              value={count}
              className={`w-20 ${fieldClass}`}
              onChange={(e) => {
                setUnits(Number(e.target.value));
                reset();
              }}
            />
          </label>
          {draft ? (
            <>
              <p className="font-semibold">Total do acréscimo: {formatBRL(totalCents)} (sem frete)</p>
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={choiceButtonClass}
                  aria-pressed={method === 'pix'}
                  onClick={() => setMethod('pix')}
                >
                  Pagar o acréscimo por Pix
                </button>
                {totalCents >= MIN_CARD_TOTAL_CENTS ? (
                  <button
                    type="button"
                    className={choiceButtonClass}
                    aria-pressed={method === 'cartao'}
                    onClick={() => setMethod('cartao')}
                  >
                    Pagar o acréscimo com cartão
                  </button>
                ) : null}
              </div>
              {method === 'pix' ? (
                <PixPanel
                  key={`${combo}-${count}`}
                  finalidade="pedido"
                  draft={draft}
                  totalCents={totalCents}
                  descricao={description}
                  onPaid={({ fulfilledId }) => done(fulfilledId)}
                />
              ) : null}
              {method === 'cartao' ? (
                <CardForm
                  finalidade="pedido"
                  draft={draft}
                  totalCents={totalCents}
                  produto={description}
                  payer={{ email: profile?.email ?? '' }}
                  onPaid={({ fulfilledId }) => done(fulfilledId)}
                />
              ) : null}
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
