import type { ShippingQuote } from '@passada/core/contracts/shipping';
import { commaStringToCents, formatBRL } from '@passada/core/money';
import { plural } from '@passada/core/plural';
import { formatDeliveryDate } from '../../../lib/format.ts';

export type Service = 'PAC' | 'SEDEX';

/** The quote's price for one service in cents; null when the carrier sent no usable price. */
export function servicePrice(quote: ShippingQuote, service: Service): number | null {
  try {
    return commaStringToCents(service === 'PAC' ? quote.precoFinalPAC : quote.precoFinalSEDEX);
  } catch {
    return null;
  }
}

interface ShippingOptionsProps {
  quote: { data: ShippingQuote | undefined; isPending: boolean; isError: boolean };
  service: Service | null;
  disabled: boolean;
  className: string;
  onChoose(service: Service): void;
}

/** PAC or SEDEX, each with its price and latest delivery day. */
export function ShippingOptions({ quote, service, disabled, className, onChoose }: ShippingOptionsProps) {
  return (
    <fieldset className={className} disabled={disabled}>
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
            const data = quote.data as ShippingQuote;
            const price = servicePrice(data, s);
            const days = s === 'PAC' ? data.prazoEntregaPAC : data.prazoEntregaSEDEX;
            const date = s === 'PAC' ? data.dataMaximaPAC : data.dataMaximaSEDEX;
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
                  onChange={() => onChoose(s)}
                  className="size-4 accent-brand-700"
                />
                <span>
                  <strong>{s}</strong> — {price === null ? 'indisponível' : formatBRL(price)} — entrega até{' '}
                  {formatDeliveryDate(date)} ({plural(days, 'dia útil', 'dias úteis')})
                </span>
              </label>
            );
          })}
        </div>
      ) : null}
    </fieldset>
  );
}
