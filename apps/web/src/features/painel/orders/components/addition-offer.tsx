import { takesAddition } from '@passada/core/contracts/orders';
import type { PainelOrderDetail } from '@passada/core/contracts/painel-orders';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { type FormEvent, useState } from 'react';
import { AdditionFields, useAdditionChoice } from '../../../../components/addition-fields.tsx';
import { FormStatus, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useOfferAddition } from '../api/orders.ts';

/** Whether staff may propose an addition to this order (the server checks it again). */
export const canOfferAddition = (o: PainelOrderDetail) =>
  o.itens.length > 0 &&
  takesAddition({ status: o.status, ships: o.servico_frete !== null, isAddition: o.complemento_de !== null });

/**
 * "Propor acréscimo ao cliente" (docs/decisions/0087, later): the shop cannot charge the buyer, so staff
 * choose more units of one of the order's products and the buyer gets an e-mail whose link opens them
 * in "Meus pedidos", to pay there. Nothing is held nor charged until then.
 */
export function AdditionOffer({ order, className }: { order: PainelOrderDetail; className: string }) {
  const choice = useAdditionChoice([...new Map(order.itens.map((i) => [i.product_id, i.nome])).entries()]);
  const offer = useOfferAddition(order.id);
  const [sent, setSent] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!choice.line) return;
    setSent(null);
    offer.mutate(
      {
        produto: choice.line.product,
        cor_id: choice.line.color,
        tamanho_id: choice.line.size,
        quantidade: choice.line.quantity,
      },
      {
        onSuccess: (a) =>
          setSent(
            `Proposta enviada para ${a.email}: ${formatBRL(reaisToCents(a.total))} pelo preço de hoje. O cliente confirma e paga em "Meus pedidos".`,
          ),
      },
    );
  };
  return (
    <form
      className={`${className} flex flex-col gap-2`}
      aria-label="Propor acréscimo ao cliente"
      onSubmit={submit}
    >
      <h2 className="font-semibold">Propor acréscimo ao cliente</h2>
      <p className="text-sm">
        Mais unidades de um produto deste pedido, sem frete, na mesma caixa. O cliente recebe um e-mail com o
        link e paga por Pix ou cartão; nada é reservado nem cobrado antes disso.
      </p>
      <AdditionFields choice={choice} onEdit={() => setSent(null)} />
      {choice.line ? <p className="text-sm">Preço de hoje: {formatBRL(choice.totalCents)}</p> : null}
      <button type="submit" className={secondaryButtonClass} disabled={!choice.line || offer.isPending}>
        Enviar proposta por e-mail
      </button>
      <FormStatus message={sent} tone="success" />
      <FormStatus message={offer.error ? errorMessage(offer.error) : null} tone="error" />
    </form>
  );
}
