import { MIN_CARD_TOTAL_CENTS } from '@passada/core/card';
import { type Order, takesAddition } from '@passada/core/contracts/orders';
import { formatBRL } from '@passada/core/money';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  AdditionFields,
  type AdditionStart,
  useAdditionChoice,
} from '../../../components/addition-fields.tsx';
import { choiceButtonClass, secondaryButtonClass } from '../../../components/button-classes.ts';
import { CardForm } from '../../../components/payments/card-form.tsx';
import { PixPanel } from '../../../components/payments/pix-panel.tsx';
import { ordersQuery } from '../../../lib/orders-api.ts';
import { useSession } from '../../../lib/session.tsx';

/** Whether more units can still join this order's parcel (the server checks it again). */
export const canAddTo = (order: Order) =>
  order.items.length > 0 &&
  takesAddition({
    status: order.status,
    ships: order.servico_frete !== null,
    isAddition: order.complemento_de !== undefined,
  });

/**
 * "Acrescentar itens ao pedido" (docs/decisions/0087): before the order ships, more units of a product it
 * has, in any colour and size in stock, at today's price and with no shipping, since they go in the same
 * parcel. Paid here by Pix or card; the addition is an order of its own that names this one. `start`: the
 * shop's proposal from its e-mail's link, opened and filled in.
 */
export function AddToOrder({ order, start }: { order: Order; start?: AdditionStart | undefined }) {
  const client = useQueryClient();
  const { profile } = useSession();
  const choice = useAdditionChoice(
    [...new Map(order.items.map((i) => [i.product, i.product_name])).entries()],
    start,
  );
  const [open, setOpen] = useState(start !== undefined);
  const [method, setMethod] = useState<'pix' | 'cartao' | null>(null);
  const [paid, setPaid] = useState<number | null>(null);
  if (!canAddTo(order) && paid === null) return null;

  const draft = choice.line
    ? { items: [choice.line], metodo_pagamento: method ?? 'pix', complemento_de: order.id }
    : null;
  const description = `Acréscimo ao pedido nº ${order.id}`;
  const done = (fulfilledId?: number) => {
    setPaid(fulfilledId ?? 0);
    setMethod(null);
    setOpen(false);
    void client.invalidateQueries({ queryKey: ordersQuery.queryKey });
  };

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
          {/* Any change to what is added asks for a new charge. */}
          <AdditionFields choice={choice} onEdit={() => setMethod(null)} />
          {draft ? (
            <>
              <p className="font-semibold">Total do acréscimo: {formatBRL(choice.totalCents)} (sem frete)</p>
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={choiceButtonClass}
                  aria-pressed={method === 'pix'}
                  onClick={() => setMethod('pix')}
                >
                  Pagar o acréscimo por Pix
                </button>
                {choice.totalCents >= MIN_CARD_TOTAL_CENTS ? (
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
                  key={`${choice.combo}-${choice.count}`}
                  finalidade="pedido"
                  draft={draft}
                  totalCents={choice.totalCents}
                  descricao={description}
                  onPaid={({ fulfilledId }) => done(fulfilledId)}
                />
              ) : null}
              {method === 'cartao' ? (
                <CardForm
                  finalidade="pedido"
                  draft={draft}
                  totalCents={choice.totalCents}
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
