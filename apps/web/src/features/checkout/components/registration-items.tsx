import { CartRegistrationLines } from '../../../components/cart-registration-lines.tsx';
import type { CartRegistration } from '../../../lib/cart-registrations.ts';

/** The review's "Inscrições em eventos": the cart's registrations with the server's prices, removable. */
export function RegistrationItems(props: {
  registrations: readonly CartRegistration[];
  prices: ReadonlyArray<number | null>;
  failed: boolean;
  disabled: boolean;
  className: string;
  onRemove(key: string): void;
}) {
  if (props.registrations.length === 0) return null;
  return (
    <section className={props.className} aria-labelledby="inscricoes-titulo">
      <h2 id="inscricoes-titulo" className="mb-3 text-lg font-bold">
        Inscrições em eventos
      </h2>
      <CartRegistrationLines
        lines={props.registrations}
        prices={props.prices}
        disabled={props.disabled}
        onRemove={props.onRemove}
      />
      {props.failed ? (
        <p role="alert" className="mt-2 text-sm font-semibold text-red-700 dark:text-red-400">
          Não foi possível calcular o preço de uma inscrição. Remova-a e inscreva-se de novo.
        </p>
      ) : null}
    </section>
  );
}
