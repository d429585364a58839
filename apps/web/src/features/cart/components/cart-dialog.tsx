import { formatBRL } from '@passada/core/money';
import { useNavigate } from 'react-router';
import {
  CartRegistrationLines,
  useRegistrationPrices,
} from '../../../components/cart-registration-lines.tsx';
import { Sheet, useAlert } from '../../../components/dialog.tsx';
import { formatReais } from '../../../components/price.tsx';
import { loginPathFor } from '../../../components/require-auth.tsx';
import { TrashIcon } from '../../../components/trash-icon.tsx';
import { cart, lineKey, subtotalCents, useCart } from '../../../lib/cart.ts';
import { cartRegistrations, useCartRegistrations } from '../../../lib/cart-registrations.ts';
import { useServerCartSync } from '../../../lib/server-cart-sync.tsx';
import { useSession } from '../../../lib/session.tsx';
import { removeKey, StorageKeys } from '../../../lib/storage.ts';

const stepButton =
  'flex h-8 w-8 items-center justify-center rounded-md border border-stone-300 text-lg font-bold hover:bg-stone-100 disabled:opacity-40 dark:border-stone-700 dark:hover:bg-stone-800';

interface CartDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
}

/** 'Seu carrinho' (spec §2, §4): every change is saved at once by the cart store. */
export default function CartDialog({ open, onOpenChange }: CartDialogProps) {
  useServerCartSync();
  const lines = useCart();
  const registrations = useCartRegistrations();
  const registrationPrices = useRegistrationPrices(registrations);
  const { token } = useSession();
  const navigate = useNavigate();
  const [alertElement, showAlert] = useAlert();

  const closeOrder = () => {
    onOpenChange(false);
    // The cart is what is being bought now: a draft left by an abandoned "Comprar agora" must not win.
    removeKey(StorageKeys.orderData);
    if (!token) {
      // Spec §6: buying needs a login; afterwards the login page brings them on to the order.
      showAlert('Você precisa estar logado para fazer uma compra.', () =>
        navigate(loginPathFor({ pathname: '/fechar-pedido', search: '' })),
      );
      return;
    }
    navigate('/fechar-pedido');
  };

  return (
    <>
      <Sheet open={open} onOpenChange={onOpenChange} title="Seu carrinho" side="right">
        {lines.length === 0 && registrations.length === 0 ? (
          <p className="mt-6 text-stone-700 dark:text-stone-300">
            Você ainda não tem nenhum item no carrinho.
          </p>
        ) : (
          <>
            <ul className="mt-6 flex flex-col gap-4 empty:hidden" aria-label="Itens do carrinho">
              {lines.map((line) => {
                const key = lineKey(line);
                return (
                  <li key={key} className="flex gap-3 border-b border-stone-200 pb-4 dark:border-stone-800">
                    <img
                      src={line.image}
                      alt=""
                      width={72}
                      height={72}
                      className="h-18 w-18 rounded-md bg-stone-100 object-contain dark:bg-stone-800"
                    />
                    <div className="flex flex-1 flex-col gap-1">
                      <p className="font-semibold leading-snug">{line.name}</p>
                      <p className="text-sm text-stone-700 dark:text-stone-300">
                        Cor: {line.product_color} · Tamanho: {line.product_size}
                      </p>
                      <p className="font-bold">{formatReais(line.price)}</p>
                      <div className="flex items-center gap-2">
                        <button
                          type="button"
                          className={stepButton}
                          aria-label={`Diminuir quantidade de ${line.name}`}
                          disabled={line.quantity <= 1}
                          onClick={() => cart.decrement(key)}
                        >
                          −
                        </button>
                        <output
                          aria-label={`Quantidade de ${line.name}`}
                          className="w-8 text-center font-semibold"
                        >
                          {line.quantity}
                        </output>
                        <button
                          type="button"
                          className={stepButton}
                          aria-label={`Aumentar quantidade de ${line.name}`}
                          onClick={() => cart.increment(key)}
                        >
                          +
                        </button>
                        <button
                          type="button"
                          className="ml-auto rounded-md p-1.5 text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950"
                          aria-label={`Remover ${line.name}`}
                          onClick={() => cart.remove(key)}
                        >
                          <TrashIcon />
                        </button>
                      </div>
                    </div>
                  </li>
                );
              })}
            </ul>
            {registrations.length > 0 ? (
              <div className="mt-4">
                <CartRegistrationLines
                  lines={registrations}
                  prices={registrationPrices.prices}
                  onRemove={cartRegistrations.remove}
                />
              </div>
            ) : null}
            <p className="mt-6 flex justify-between text-lg font-bold">
              <span>Subtotal</span>
              <span data-testid="cart-subtotal">
                {formatBRL(subtotalCents(lines) + (registrationPrices.totalCents ?? 0))}
              </span>
            </p>
            <button
              type="button"
              onClick={closeOrder}
              className="mt-4 w-full rounded-lg bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800"
            >
              Fechar pedido
            </button>
          </>
        )}
      </Sheet>
      {alertElement}
    </>
  );
}
