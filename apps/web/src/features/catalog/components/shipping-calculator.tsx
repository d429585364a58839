import type { ShippingQuote } from '@passada/core/contracts/shipping';
import { commaStringToCents, formatBRL } from '@passada/core/money';
import { plural } from '@passada/core/plural';
import { type FormEvent, useState } from 'react';
import { cepMask, useMaskedRef } from '../../../components/masked-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { formatDeliveryDate } from '../../../lib/format.ts';
import { useHydrated } from '../../../lib/hydration.ts';
import { quoteShipping } from '../api/products.ts';

type State =
  | { kind: 'idle' }
  | { kind: 'calculating' }
  | { kind: 'result'; quote: ShippingQuote }
  | { kind: 'error'; message: string };

function price(value: string): string {
  try {
    return formatBRL(commaStringToCents(value));
  } catch {
    return value;
  }
}

/** CEP → PAC and SEDEX price and latest date (spec §4 "Shipping calculator", §8 texts). */
export function ShippingCalculator({ productId, quantity }: { productId: number; quantity: number }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const cepRef = useMaskedRef(cepMask);
  // In the server's HTML the form would submit itself (reloading the page) before the code arrives.
  const hydrated = useHydrated();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // What the field shows, typed or pasted before the page's code started too.
    const cep = String(new FormData(event.currentTarget).get('cep') ?? '');
    if (cep.trim() === '') {
      setState({ kind: 'error', message: 'Digite um CEP válido!' });
      return;
    }
    setState({ kind: 'calculating' });
    try {
      const quote = await quoteShipping({
        cepDestino: cep.replace(/\D/g, ''),
        items: [{ product: productId, quantity }],
      });
      setState({ kind: 'result', quote });
    } catch (error) {
      const detail =
        error instanceof ApiRequestError && error.status === 400 ? error.body?.detail : undefined;
      setState({ kind: 'error', message: detail ?? 'Erro ao calcular frete.' });
    }
  };

  return (
    <section
      aria-labelledby="frete-titulo"
      className="rounded-xl border border-stone-200 p-4 dark:border-stone-800"
    >
      <h2 id="frete-titulo" className="font-bold">
        Calcular frete
      </h2>
      <form onSubmit={submit} className="mt-3 flex gap-2" noValidate>
        <label htmlFor="cep" className="sr-only">
          CEP
        </label>
        <input
          id="cep"
          name="cep"
          inputMode="numeric"
          autoComplete="postal-code"
          placeholder="00000-000"
          ref={cepRef}
          defaultValue=""
          className="w-36 rounded-lg border border-stone-400 px-3 py-2 dark:border-stone-600 dark:bg-stone-900"
        />
        <button
          type="submit"
          disabled={!hydrated || state.kind === 'calculating'}
          className="rounded-lg border border-brand-700 px-4 py-2 font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-60 dark:text-brand-100 dark:hover:bg-stone-800"
        >
          Calcular
        </button>
      </form>
      <div aria-live="polite" className="mt-3 text-sm">
        {state.kind === 'calculating' && <p>Calculando...</p>}
        {state.kind === 'error' && (
          <p className="font-semibold text-red-700 dark:text-red-400">{state.message}</p>
        )}
        {state.kind === 'result' && (
          <ul className="flex flex-col gap-1">
            <li>
              <strong>PAC</strong>: {price(state.quote.precoFinalPAC)}, entrega em até{' '}
              {plural(state.quote.prazoEntregaPAC, 'dia útil', 'dias úteis')} (
              {formatDeliveryDate(state.quote.dataMaximaPAC)})
            </li>
            <li>
              <strong>SEDEX</strong>: {price(state.quote.precoFinalSEDEX)}, entrega em até{' '}
              {plural(state.quote.prazoEntregaSEDEX, 'dia útil', 'dias úteis')} (
              {formatDeliveryDate(state.quote.dataMaximaSEDEX)})
            </li>
          </ul>
        )}
      </div>
    </section>
  );
}
