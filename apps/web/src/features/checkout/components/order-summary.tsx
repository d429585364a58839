import { companyIdentityLine } from '@passada/core/company';
import { formatRegistrationPrice } from '@passada/core/events';
import { chargedCents } from '@passada/core/installments';
import { formatBRL } from '@passada/core/money';
import { type InstallmentChoice, installmentLabel } from '../../../components/payments/card-form.tsx';
import type { PaymentMethod } from '../../../components/payments/payment-step.tsx';
import type { Service } from './shipping-options.tsx';

interface OrderSummaryProps {
  className: string;
  subtotalCents: number;
  service: Service | null;
  shippingCents: number | null;
  /** Nothing ships (only event registrations): no shipping line. */
  shipsNothing?: boolean;
  /** The event registrations in the cart, as the server priced them (null while loading). */
  registrationsCents?: number | null;
  method: PaymentMethod | null;
  installment: InstallmentChoice | null;
  /** The discount coupon applied, as the server priced it. */
  discount?: { code: string; cents: number } | null;
  /** Products, shipping and registrations, less the coupon, before card interest. */
  totalCents: number;
}

/** The order's figures; with card instalments, the interest and the total charged (Decreto 5.903). */
export function OrderSummary(props: OrderSummaryProps) {
  const { subtotalCents, service, shippingCents, method, installment, totalCents } = props;
  const byCard = method === 'cartao' && installment !== null;
  const charged = byCard ? chargedCents(totalCents, installment) : totalCents;
  return (
    <aside className={`${props.className} h-fit`} aria-labelledby="resumo-titulo">
      <h2 id="resumo-titulo" className="mb-3 text-lg font-bold">
        Resumo do pedido
      </h2>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 [&_dd]:text-right">
        {props.shipsNothing ? null : (
          <>
            <dt>Produtos</dt>
            <dd>{formatBRL(subtotalCents)}</dd>
            <dt>Frete{service ? ` (${service})` : ''}</dt>
            <dd>{shippingCents === null ? '—' : formatBRL(shippingCents)}</dd>
          </>
        )}
        {props.registrationsCents !== undefined ? (
          <>
            <dt>Inscrições</dt>
            <dd>
              {props.registrationsCents === null ? '—' : formatRegistrationPrice(props.registrationsCents)}
            </dd>
          </>
        ) : null}
        {props.discount ? (
          <>
            <dt>Desconto (cupom {props.discount.code})</dt>
            <dd>−{formatBRL(props.discount.cents)}</dd>
          </>
        ) : null}
        {byCard ? (
          <>
            <dt>Parcelamento</dt>
            <dd className="text-right">{installmentLabel({ ...installment, currency: '' }, totalCents)}</dd>
            <dt>Juros</dt>
            <dd>{formatBRL(charged - totalCents)}</dd>
          </>
        ) : null}
        <dt className="mt-2 text-lg font-bold">Total</dt>
        <dd className="mt-2 text-lg font-bold" data-testid="total-pedido">
          {charged === 0 ? 'Gratuito' : formatBRL(charged)}
        </dd>
      </dl>
      <p className="mt-4 text-sm font-medium">
        {charged === 0
          ? 'Nada a pagar: você pode corrigir o pedido antes de confirmar.'
          : 'Você pode corrigir o pedido antes de pagar.'}
      </p>
      <p className="mt-4 text-xs text-stone-600 dark:text-stone-400">{companyIdentityLine()}</p>
    </aside>
  );
}
