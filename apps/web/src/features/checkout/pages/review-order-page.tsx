import { formatCep } from '@passada/core/cep';
import type { Address } from '@passada/core/contracts/accounts';
import type { ShippingQuote } from '@passada/core/contracts/shipping';
import { chargedCents } from '@passada/core/installments';
import { commaStringToCents, formatBRL } from '@passada/core/money';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useAlert } from '../../../components/dialog.tsx';
import { CardForm, installmentLabel } from '../../../components/payments/card-form.tsx';
import { ProcessingModal, SuccessModal } from '../../../components/payments/payment-modals.tsx';
import { PixPanel } from '../../../components/payments/pix-panel.tsx';
import { RequireAuth } from '../../../components/require-auth.tsx';
import { cart, lineKey, useCart } from '../../../lib/cart.ts';
import { formatDeliveryDate } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.tsx';
import { removeKey, StorageKeys, writeJson } from '../../../lib/storage.ts';
import { submitOrder, useShippingQuote } from '../api/checkout-api.ts';
import { OrderItems } from '../components/order-items.tsx';
import {
  cartLineToItem,
  itemKey,
  itemsSubtotalCents,
  orderDraft,
  type ReviewItem,
  readChosenAddress,
  readOrderData,
  type StoredOrderData,
  writeOrderData,
} from '../utils/order-draft.ts';

type Service = 'PAC' | 'SEDEX';
type Method = 'pix' | 'cartao';
interface Installment {
  installment: number;
  value: number;
  has_interest: boolean;
  interest_percentage: number;
}

/** Spec §4: after a successful order the buyer sees the confirmation for 10 s before /user/pedidos. */
export const ORDER_REDIRECT_MS = 10_000;

const NO_SHIPPING = 'ESCOLHA UMA OPÇÃO DE FRETE ANTES DE CONTINUAR!';
const sectionClass = 'rounded-xl border border-stone-200 p-5 dark:border-stone-800';

function servicePrice(quote: ShippingQuote, service: Service): number | null {
  try {
    return commaStringToCents(service === 'PAC' ? quote.precoFinalPAC : quote.precoFinalSEDEX);
  } catch {
    return null;
  }
}

function Review({ address }: { address: Address }) {
  const navigate = useNavigate();
  const { profile } = useSession();
  const cartLines = useCart();
  const [orderData, setOrderData] = useState<StoredOrderData | null>(() => readOrderData());
  const items: ReviewItem[] = useMemo(
    () => (orderData ? orderData.items : cartLines.map(cartLineToItem)),
    [orderData, cartLines],
  );
  const [service, setService] = useState<Service | null>(null);
  const [method, setMethod] = useState<Method | null>(null);
  const [installment, setInstallment] = useState<Installment | null>(null);
  const [paying, setPaying] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const [success, setSuccess] = useState(false);
  const [alertElement, showAlert] = useAlert();
  const quote = useShippingQuote(address.zip_code, items);

  const subtotal = itemsSubtotalCents(items);
  const shippingCents = quote.data && service ? servicePrice(quote.data, service) : null;
  const totalCents = subtotal + (shippingCents ?? 0);
  const locked = paying || finishing || success;

  const resetPayment = () => {
    setMethod(null);
    setInstallment(null);
  };

  const chooseService = (next: Service) => {
    if (!quote.data) return;
    setService(next);
    resetPayment();
    writeJson(StorageKeys.shipping, { ...quote.data, servico: next });
  };

  const chooseMethod = (next: Method) => {
    if (!service || shippingCents === null) {
      showAlert(NO_SHIPPING);
      return;
    }
    setInstallment(null);
    setMethod(next);
  };

  const remove = (key: string) => {
    resetPayment();
    if (orderData) {
      const next = { ...orderData, items: orderData.items.filter((i) => itemKey(i) !== key) };
      if (next.items.length === 0) {
        removeKey(StorageKeys.orderData);
        setOrderData(null);
      } else {
        writeOrderData(next);
        setOrderData(next);
      }
      return;
    }
    const line = cartLines.find((l) => lineKey(l) === key);
    if (line) cart.remove(lineKey(line));
  };

  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const ordered = useRef(false);
  const clearCheckout = useCallback(() => {
    if (!ordered.current) return;
    ordered.current = false;
    removeKey(StorageKeys.orderData);
    removeKey(StorageKeys.chosenAddress);
    cart.clear();
  }, []);
  // Leaving during the 10 s still empties the cart: what it held has been bought.
  useEffect(
    () => () => {
      clearTimeout(redirectTimer.current);
      clearCheckout();
    },
    [clearCheckout],
  );
  const finish = useCallback(() => {
    clearTimeout(redirectTimer.current);
    clearCheckout();
    navigate('/user/pedidos');
  }, [navigate, clearCheckout]);

  const placeOrder = async (txid: string, precoJuros: number, paidWith: Method) => {
    if (!service || shippingCents === null) return;
    setFinishing(true);
    try {
      await submitOrder({
        txid,
        items,
        frete: shippingCents / 100,
        preco_juros: precoJuros,
        order_date: new Date().toISOString(),
        metodo_pagamento: paidWith,
        address: {
          id: address.id,
          street: address.street,
          city: address.city,
          neighborhood: address.neighborhood,
          state: address.state,
          zip_code: address.zip_code,
          full_name: address.full_name,
          phone: address.phone,
          is_primary: address.is_primary,
        },
      });
      ordered.current = true;
      setSuccess(true);
      redirectTimer.current = setTimeout(finish, ORDER_REDIRECT_MS);
    } catch {
      showAlert('Erro ao finalizar a compra!');
    } finally {
      setFinishing(false);
    }
  };

  if (items.length === 0 && !success) {
    return (
      <section className={sectionClass}>
        <p>Você ainda não tem nenhum item no carrinho.</p>
        <Link to="/" className="mt-3 inline-block font-medium text-brand-700 underline">
          Continuar comprando
        </Link>
      </section>
    );
  }

  const draft = service && method ? orderDraft(items, address.id, service, method) : null;
  const charged = installment ? chargedCents(totalCents, installment) : totalCents;
  const produto = items
    .map((i) => i.product_name)
    .join(', ')
    .slice(0, 255);

  return (
    <>
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div className="flex flex-col gap-6">
          <section className={sectionClass} aria-labelledby="itens-titulo">
            <h2 id="itens-titulo" className="mb-3 text-lg font-bold">
              Produtos
            </h2>
            <OrderItems items={items} onRemove={remove} disabled={locked} />
            <p className="mt-3 text-right">
              Subtotal dos produtos: <strong>{formatBRL(subtotal)}</strong>
            </p>
          </section>

          <section className={sectionClass} aria-labelledby="endereco-titulo">
            <h2 id="endereco-titulo" className="mb-2 text-lg font-bold">
              Endereço de entrega
            </h2>
            <address className="not-italic leading-relaxed">
              {address.full_name}
              <br />
              {address.street}, {address.neighborhood}
              <br />
              {address.city}-{address.state}, CEP {formatCep(address.zip_code)}
              <br />
              {address.phone}
            </address>
            <Link to="/enderecos" className="mt-2 inline-block text-sm font-medium text-brand-700 underline">
              Trocar endereço
            </Link>
          </section>

          <fieldset className={sectionClass} disabled={locked}>
            <legend className="px-1 text-lg font-bold">Frete</legend>
            {quote.isPending ? <p role="status">Calculando...</p> : null}
            {quote.isError ? (
              <p role="alert" className="text-red-700 dark:text-red-400">
                Erro ao calcular frete.
              </p>
            ) : null}
            {quote.data ? (
              <div className="flex flex-col gap-2">
                {(['PAC', 'SEDEX'] as const).map((s) => {
                  const price = servicePrice(quote.data, s);
                  const days = s === 'PAC' ? quote.data.prazoEntregaPAC : quote.data.prazoEntregaSEDEX;
                  const date = s === 'PAC' ? quote.data.dataMaximaPAC : quote.data.dataMaximaSEDEX;
                  return (
                    <label
                      key={s}
                      className="flex items-center gap-3 rounded-lg p-2 hover:bg-stone-50 dark:hover:bg-stone-800"
                    >
                      <input
                        type="radio"
                        name="frete"
                        value={s}
                        checked={service === s}
                        onChange={() => chooseService(s)}
                        className="size-4 accent-brand-700"
                      />
                      <span>
                        <strong>{s}</strong> — {price === null ? 'indisponível' : formatBRL(price)} — entrega
                        até {formatDeliveryDate(date)} ({days} {days === 1 ? 'dia útil' : 'dias úteis'})
                      </span>
                    </label>
                  );
                })}
              </div>
            ) : null}
          </fieldset>

          <fieldset className={sectionClass} disabled={locked}>
            <legend className="px-1 text-lg font-bold">Forma de pagamento</legend>
            <div className="flex flex-wrap gap-4">
              {(
                [
                  ['pix', 'Pix'],
                  ['cartao', 'Cartão de crédito'],
                ] as const
              ).map(([value, text]) => (
                <label key={value} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="pagamento"
                    value={value}
                    checked={method === value}
                    onChange={() => chooseMethod(value)}
                    className="size-4 accent-brand-700"
                  />
                  {text}
                </label>
              ))}
            </div>
          </fieldset>

          {method === 'pix' && draft ? (
            <section className={sectionClass} aria-labelledby="pix-titulo">
              <h2 id="pix-titulo" className="mb-3 text-lg font-bold">
                Pague com Pix
              </h2>
              <PixPanel
                key={`${service}-${totalCents}`}
                finalidade="pedido"
                draft={draft}
                totalCents={totalCents}
                descricao="Pedido Passada"
                onPaid={({ txid }) => void placeOrder(txid, totalCents / 100, 'pix')}
                onError={(message) => {
                  resetPayment();
                  showAlert(message);
                }}
              />
            </section>
          ) : null}
          {method === 'cartao' && draft ? (
            <section className={sectionClass} aria-labelledby="cartao-titulo">
              <h2 id="cartao-titulo" className="mb-3 text-lg font-bold">
                Pague com cartão de crédito
              </h2>
              <CardForm
                key={`${service}-${totalCents}`}
                finalidade="pedido"
                draft={draft}
                totalCents={totalCents}
                produto={produto}
                payer={{ email: profile?.email ?? '', phone: address.phone.replace(/\D/g, '') }}
                onInstallmentChange={setInstallment}
                onProcessingChange={setPaying}
                onPaid={(r) => void placeOrder(r.chargeId, r.precoJuros, 'cartao')}
              />
            </section>
          ) : null}
        </div>

        <aside className={`${sectionClass} h-fit`} aria-labelledby="resumo-titulo">
          <h2 id="resumo-titulo" className="mb-3 text-lg font-bold">
            Resumo do pedido
          </h2>
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 [&_dd]:text-right">
            <dt>Produtos</dt>
            <dd>{formatBRL(subtotal)}</dd>
            <dt>Frete{service ? ` (${service})` : ''}</dt>
            <dd>{shippingCents === null ? '—' : formatBRL(shippingCents)}</dd>
            {method === 'cartao' && installment ? (
              <>
                <dt>Parcelamento</dt>
                <dd className="text-right">
                  {installmentLabel({ ...installment, currency: '' }, totalCents)}
                </dd>
                <dt>Juros</dt>
                <dd>{formatBRL(charged - totalCents)}</dd>
              </>
            ) : null}
            <dt className="mt-2 text-lg font-bold">Total</dt>
            <dd className="mt-2 text-lg font-bold" data-testid="total-pedido">
              {formatBRL(method === 'cartao' ? charged : totalCents)}
            </dd>
          </dl>
          <p className="mt-4 text-sm font-medium">Você pode corrigir o pedido antes de pagar.</p>
          <p className="mt-4 text-xs text-stone-600 dark:text-stone-400">
            Passada Artigos Esportivos Ltda. · CNPJ 12.ABC.345/01DE-35 · Av. Beira Mar, 3000, loja 12,
            Meireles, Fortaleza-CE, CEP 60165-121 · contato@passada.com.br · (85) 3234-5678
          </p>
        </aside>
      </div>

      <ProcessingModal
        open={paying || finishing}
        text={finishing ? 'Finalizando pedido...' : 'Processando pagamento...'}
      />
      <SuccessModal open={success} title="Pedido realizado com sucesso!" onClose={finish}>
        <p>Você será levado aos seus pedidos em instantes.</p>
      </SuccessModal>
      {alertElement}
    </>
  );
}

/** /revisar-pedido (spec §2): the order summary, shipping, payment and confirmation. */
export default function Page() {
  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Revisar pedido</h1>
      <RequireAuth>
        <ReviewGate />
      </RequireAuth>
    </main>
  );
}

function ReviewGate() {
  const [address] = useState(() => readChosenAddress());
  if (!address) return <Navigate to="/enderecos" replace />;
  return <Review address={address} />;
}
