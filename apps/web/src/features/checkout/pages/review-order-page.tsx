import type { Address } from '@passada/core/contracts/accounts';
import { WHATSAPP_CONSENT } from '@passada/core/contracts/consents';
import { isValidCpf } from '@passada/core/documents';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { useRegistrationPrices } from '../../../components/cart-registration-lines.tsx';
import { CouponField } from '../../../components/coupon-field.tsx';
import { useAlert } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import type { InstallmentChoice } from '../../../components/payments/card-form.tsx';
import {
  type PaymentMethod,
  PaymentStep,
  usePaymentStep,
} from '../../../components/payments/payment-step.tsx';
import { cart } from '../../../lib/cart.ts';
import { cartRegistrations, useCartRegistrations } from '../../../lib/cart-registrations.ts';
import { useCoupon } from '../../../lib/coupons-api.ts';
import { useServerCartSync } from '../../../lib/server-cart-sync.tsx';
import { useSession } from '../../../lib/session.tsx';
import { StorageKeys, writeJson } from '../../../lib/storage.ts';
import { useShippingQuote, useSubmitOrder } from '../api/checkout-api.ts';
import { DeliveryAddress } from '../components/delivery-address.tsx';
import { OrderItems } from '../components/order-items.tsx';
import { OrderSummary } from '../components/order-summary.tsx';
import { PaymentMethodChoice } from '../components/payment-method-choice.tsx';
import { RegistrationItems } from '../components/registration-items.tsx';
import { type Service, ShippingOptions, servicePrice } from '../components/shipping-options.tsx';
import { clearCheckout, useReviewItems } from '../hooks/use-review-items.ts';
import { itemsSubtotalCents, orderDraft, readChosenAddress, readOrderData } from '../utils/order-draft.ts';

const NO_SHIPPING = 'ESCOLHA UMA OPÇÃO DE FRETE ANTES DE CONTINUAR!';
const NO_CPF = 'Informe o CPF para a nota fiscal.';
const sectionClass = 'rounded-xl border border-stone-200 p-5 dark:border-stone-800';
const ADDRESS_FIELDS = [
  'id',
  'street',
  'city',
  'neighborhood',
  'state',
  'zip_code',
  'full_name',
  'phone',
  'is_primary',
] as const;

function Review({ address }: { address: Address | null }) {
  const { profile } = useSession();
  const { items, remove, setQuantity, buyingNow } = useReviewItems();
  const cartRegs = useCartRegistrations();
  const registrations = buyingNow ? [] : cartRegs;
  const registrationPrices = useRegistrationPrices(registrations);
  const participants = registrations.map((r) => r.participant);
  // Only products ship: a cart of registrations alone needs no address and no shipping.
  const ships = items.length > 0;
  const [service, setService] = useState<Service | null>(null);
  const [method, setMethod] = useState<PaymentMethod | null>(null);
  const [installment, setInstallment] = useState<InstallmentChoice | null>(null);
  // LGPD opt-in to WhatsApp messages (docs/decisions/0045): unticked unless the buyer ticks it.
  const [whatsapp, setWhatsapp] = useState(false);
  // "CPF na nota" (docs/decisions/0048): the NF-e of the products needs the buyer's CPF.
  const [cpf, setCpf] = useState('');
  const [cpfError, setCpfError] = useState<string | null>(null);
  const cpfReady = !ships || isValidCpf(cpf);
  const [alertElement, showAlert] = useAlert();
  const quote = useShippingQuote(address?.zip_code ?? null, items);
  const submitOrder = useSubmitOrder();

  const subtotal = itemsSubtotalCents(items);
  const shippingCents = !ships ? 0 : quote.data && service ? servicePrice(quote.data, service) : null;
  const delivery = ships && address && service ? { addressId: address.id, frete: service } : null;
  const deliveryReady = !ships || delivery !== null;
  // The coupon is priced by the server for the cart and the shipping chosen (any method: same price).
  const coupon = useCoupon('pedido', deliveryReady ? orderDraft(items, delivery, 'pix', participants) : null);
  const totalCents = coupon.applied
    ? reaisToCents(coupon.applied.total)
    : subtotal + (shippingCents ?? 0) + (registrationPrices.totalCents ?? 0);

  const step = usePaymentStep({
    // docs/product.md §3: the order payload, with the paid charge's txid.
    fulfil: ({ id, method: paidWith, precoJuros }) => {
      if (shippingCents === null) return Promise.reject(new Error('frete ausente'));
      return submitOrder.mutateAsync({
        txid: id,
        items,
        frete: shippingCents / 100,
        preco_juros: precoJuros ?? totalCents / 100,
        order_date: new Date().toISOString(),
        metodo_pagamento: paidWith,
        ...(ships && address
          ? {
              address: Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, address[f]])) as Pick<
                Address,
                (typeof ADDRESS_FIELDS)[number]
              >,
            }
          : {}),
      });
    },
    texts: {
      finishing: 'Finalizando pedido...',
      failure: 'Erro ao finalizar a compra!',
      successTitle: 'Pedido realizado com sucesso!',
      successText:
        registrations.length > 0
          ? 'Cada participante recebe a confirmação da inscrição por e-mail. Você será levado aos seus pedidos em instantes.'
          : 'Você será levado aos seus pedidos em instantes.',
    },
    redirectTo: '/user/pedidos',
    leaveOnClose: true,
    onLeave: clearCheckout,
    showAlert,
  });

  // A Pix is a charge for one total: another total (an item removed, another service) needs a new
  // one. The card form stays with what was typed and asks for the instalments again.
  const resetPayment = () => {
    if (method !== 'cartao') setMethod(null);
    setInstallment(null);
  };

  const chooseService = (next: Service) => {
    if (!quote.data) return;
    setService(next);
    resetPayment();
    writeJson(StorageKeys.shipping, { ...quote.data, servico: next });
  };

  const chooseMethod = (next: PaymentMethod) => {
    if (!deliveryReady || shippingCents === null) {
      showAlert(NO_SHIPPING);
      return;
    }
    if (!cpfReady) {
      setCpfError(cpf.trim() ? 'CPF inválido.' : NO_CPF);
      document.getElementById('cpf-na-nota')?.focus();
      return;
    }
    setInstallment(null);
    setMethod(next);
  };

  if (items.length === 0 && registrations.length === 0 && !step.succeeded) {
    return (
      <section className={sectionClass}>
        <p>Você ainda não tem nenhum item no carrinho.</p>
        <Link to="/" className="mt-3 inline-block font-medium text-brand-700 underline">
          Continuar comprando
        </Link>
      </section>
    );
  }

  // Nothing to pay (free registrations only, docs/decisions/0028): confirmed without a payment step.
  const free =
    deliveryReady && shippingCents !== null && registrationPrices.totalCents !== null && totalCents === 0;
  const nota = ships && cpfReady ? { cpf } : {};
  const confirmFree = () => {
    if (!cpfReady) {
      setCpfError(cpf.trim() ? 'CPF inválido.' : NO_CPF);
      return;
    }
    void step.confirmWithoutPayment('pedido', {
      ...orderDraft(items, delivery, 'gratuito', participants),
      ...nota,
      ...(coupon.applied ? { cupom: coupon.applied.cupom } : {}),
      ...(whatsapp ? { whatsapp: true } : {}),
    });
  };
  const confirmLabel =
    items.length > 0
      ? 'Confirmar pedido'
      : registrations.length === 1
        ? 'Confirmar inscrição'
        : 'Confirmar inscrições';
  const draft =
    !free && deliveryReady && cpfReady && method && registrationPrices.totalCents !== null
      ? {
          ...orderDraft(items, delivery, method, participants),
          ...nota,
          ...(coupon.applied ? { cupom: coupon.applied.cupom } : {}),
          ...(whatsapp ? { whatsapp: true } : {}),
        }
      : null;
  const payerPhone = (ships && address ? address.phone : (participants[0]?.numero_contato ?? '')).replace(
    /\D/g,
    '',
  );
  return (
    <>
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div className="flex flex-col gap-6">
          {ships ? (
            <section className={sectionClass} aria-labelledby="itens-titulo">
              <h2 id="itens-titulo" className="mb-3 text-lg font-bold">
                Produtos
              </h2>
              <OrderItems
                items={items}
                onRemove={(key) => {
                  resetPayment();
                  remove(key);
                }}
                onQuantityChange={(key, quantity) => {
                  resetPayment();
                  setQuantity(key, quantity);
                }}
                disabled={step.locked}
              />
              <p className="mt-3 text-right">
                Subtotal dos produtos: <strong>{formatBRL(subtotal)}</strong>
              </p>
            </section>
          ) : null}
          <RegistrationItems
            registrations={registrations}
            prices={registrationPrices.prices}
            failed={registrationPrices.failed}
            disabled={step.locked}
            className={sectionClass}
            onRemove={(key) => {
              resetPayment();
              cartRegistrations.remove(key);
            }}
          />
          {ships && address ? (
            <>
              <DeliveryAddress address={address} className={sectionClass} />
              <ShippingOptions
                quote={quote}
                service={service}
                disabled={step.locked}
                className={sectionClass}
                onChoose={chooseService}
              />
            </>
          ) : null}
          {ships ? (
            <section className={sectionClass} aria-labelledby="nota-titulo">
              <h2 id="nota-titulo" className="mb-3 text-lg font-bold">
                Nota fiscal
              </h2>
              <FormField
                id="cpf-na-nota"
                label="CPF na nota"
                inputMode="numeric"
                required
                maxLength={14}
                placeholder="000.000.000-00"
                value={cpf}
                disabled={step.locked}
                error={cpfError ?? undefined}
                onChange={(e) => {
                  setCpf(e.target.value.replace(/[^\d.-]/g, ''));
                  setCpfError(null);
                  // A Pix already asked carries the CPF it was asked with: another CPF, another Pix.
                  resetPayment();
                }}
                onBlur={() => {
                  if (cpf.trim() && !isValidCpf(cpf)) setCpfError('CPF inválido.');
                }}
              />
              <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
                A nota fiscal eletrônica (NF-e) dos produtos sai no nome do titular deste CPF.
              </p>
            </section>
          ) : null}
          <section className={sectionClass} aria-label="Cupom de desconto">
            <CouponField
              coupon={coupon}
              disabled={step.locked}
              notReady={deliveryReady ? null : 'Escolha o frete antes de aplicar o cupom.'}
              onChange={resetPayment}
            />
          </section>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-brand-700"
              checked={whatsapp}
              disabled={step.locked}
              onChange={(e) => {
                setWhatsapp(e.target.checked);
                resetPayment();
              }}
            />
            <span>{WHATSAPP_CONSENT.text}</span>
          </label>
          <p className="text-sm">
            Como usamos os seus dados:{' '}
            <Link to="/privacidade" className="underline">
              Política de dados pessoais
            </Link>
            .
          </p>
          {free ? (
            <section className={sectionClass} aria-labelledby="confirmacao-titulo">
              <h2 id="confirmacao-titulo" className="mb-3 text-lg font-bold">
                Confirmação
              </h2>
              <p>Nada a pagar: as inscrições deste pedido são gratuitas.</p>
              <button
                type="button"
                className="mt-4 rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:bg-stone-400"
                disabled={step.locked}
                onClick={confirmFree}
              >
                {confirmLabel}
              </button>
            </section>
          ) : (
            <PaymentMethodChoice
              method={method}
              disabled={step.locked}
              className={sectionClass}
              onChoose={chooseMethod}
            />
          )}
          <PaymentStep
            // A Pix is for one total: another total is a new charge. The card form stays (its typed
            // details with it) and asks for the instalments again.
            key={method === 'pix' ? `${service}-${totalCents}` : 'cartao'}
            step={step}
            // Once paid, leaving empties the cart and changes the total: no fresh charge for what is left.
            method={draft && !step.succeeded ? method : null}
            purpose="pedido"
            draft={draft}
            totalCents={totalCents}
            description={
              method === 'pix'
                ? 'Pedido Passada'
                : [
                    ...items.map((i) => i.product_name),
                    ...registrations.map((r) => `Inscrição ${r.nome_evento}`),
                  ]
                    .join(', ')
                    .slice(0, 255)
            }
            payer={{ email: profile?.email ?? '', phone: payerPhone }}
            headings={{ pix: 'Pague com Pix', cartao: 'Pague com cartão de crédito' }}
            onPixError={(message) => {
              resetPayment();
              showAlert(message);
            }}
            onInstallmentChange={setInstallment}
          />
        </div>
        <OrderSummary
          className={sectionClass}
          subtotalCents={subtotal}
          service={service}
          shippingCents={shippingCents}
          shipsNothing={!ships}
          {...(registrations.length > 0 ? { registrationsCents: registrationPrices.totalCents } : {})}
          method={method}
          installment={installment}
          discount={
            coupon.applied
              ? { code: coupon.applied.cupom, cents: reaisToCents(coupon.applied.desconto) }
              : null
          }
          totalCents={totalCents}
        />
      </div>
      {alertElement}
    </>
  );
}

/** /revisar-pedido (docs/product.md §2): the order summary, shipping, payment and confirmation. */
export default function Page() {
  useServerCartSync();
  const [address] = useState(() => readChosenAddress());
  // Something to ship needs an address first; registrations alone do not.
  const [shipsSomething] = useState(() => readOrderData() !== null || cart.getSnapshot().length > 0);
  if (!address && shipsSomething) return <Navigate to="/enderecos" replace />;
  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Revisar pedido</h1>
      <Review address={address} />
    </main>
  );
}
