import type { CouponPreview } from '@passada/core/contracts/coupons';
import type { PriceResponse } from '@passada/core/contracts/registrations';
import { formatIsoDateBR, formatRegistrationPrice } from '@passada/core/events';
import { reaisToCents } from '@passada/core/money';

interface RegistrationPriceProps {
  price: { data: PriceResponse | undefined; isPending: boolean; isError: boolean };
  /** The coupon the server accepted for this draft: its discount and the total it priced. */
  coupon?: CouponPreview | null;
  /** A special price chosen (docs/decisions/0068): its name and the total with it. */
  special?: { name: string; totalCents: number } | null;
}

/**
 * The chosen categories at the server's price (half price for 60+ once the birth date is known), and
 * with a coupon applied, its discount and the total the payment will be for.
 */
export function RegistrationPrice({ price, coupon = null, special = null }: RegistrationPriceProps) {
  return (
    <section
      aria-labelledby="categorias-titulo"
      className="mt-6 rounded-xl border border-stone-200 p-4 dark:border-stone-700"
    >
      <h2 id="categorias-titulo" className="text-lg font-semibold">
        Categorias escolhidas
      </h2>
      {price.isError ? (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
          Não foi possível calcular o preço destas categorias.
        </p>
      ) : null}
      {price.data ? (
        <>
          <ul className="mt-2 divide-y divide-stone-200 dark:divide-stone-700">
            {price.data.itens.map((item) => (
              <li key={item.id} className="flex justify-between gap-4 py-2">
                <span>
                  {item.nome_categoria}{' '}
                  <span className="text-sm text-stone-600 dark:text-stone-400">
                    ({formatIsoDateBR(item.data)})
                  </span>
                </span>
                <span>
                  {item.preco !== item.preco_inscricao ? (
                    <s className="mr-2 text-sm text-stone-500">
                      {formatRegistrationPrice(reaisToCents(item.preco_inscricao))}
                    </s>
                  ) : null}
                  {formatRegistrationPrice(reaisToCents(item.preco))}
                </span>
              </li>
            ))}
          </ul>
          {price.data.meia_entrada ? (
            <p className="mt-2 text-sm font-medium text-green-800 dark:text-green-400">
              Meia-entrada: 60 anos ou mais no dia do evento (Estatuto do Idoso).
            </p>
          ) : null}
          {price.data.desconto_equipe ? (
            <p className="mt-2 text-sm font-medium text-green-800 dark:text-green-400">
              Preço de equipe: {price.data.desconto_equipe}% de desconto pelo tamanho da sua equipe.
            </p>
          ) : null}
          {special ? (
            <p className="mt-2 text-sm font-medium text-green-800 dark:text-green-400">
              Preço especial: {special.name} (sujeito à conferência do comprovante).
            </p>
          ) : null}
          {coupon && !special ? (
            <p className="mt-3 flex justify-between">
              <span>Desconto (cupom {coupon.cupom})</span>
              <span>−{formatRegistrationPrice(reaisToCents(coupon.desconto))}</span>
            </p>
          ) : null}
          <p className="mt-3 flex justify-between text-lg font-bold">
            <span>Total</span>
            <span data-testid="registration-total">
              {formatRegistrationPrice(
                special
                  ? special.totalCents
                  : coupon
                    ? reaisToCents(coupon.total)
                    : price.data.total_centavos,
              )}
            </span>
          </p>
        </>
      ) : price.isPending ? (
        <p role="status" className="mt-2">
          Calculando preço...
        </p>
      ) : null}
    </section>
  );
}
