import { plural } from '@passada/core/plural';

/** The server takes up to 99 units per line (contracts/orders.ts). */
export const MAX_LINE_QUANTITY = 99;

interface QuantityStepperProps {
  value: number;
  /** Units in stock when known; the stepper stops there and says why. */
  stock: number | null;
  onChange(next: number): void;
  /** Accessible names: "quantidade" or "quantidade de {produto}". */
  subject: string;
  disabled?: boolean;
}

/** − value +, bounded by 1 and by the known stock, so a shopper never asks for more than there is. */
export function QuantityStepper({ value, stock, onChange, subject, disabled }: QuantityStepperProps) {
  const max = Math.min(MAX_LINE_QUANTITY, stock !== null && stock > 0 ? stock : MAX_LINE_QUANTITY);
  const atMax = value >= max;
  const button =
    'h-10 w-10 rounded-lg border border-stone-300 text-xl font-bold disabled:opacity-40 dark:border-stone-700';
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <button
          type="button"
          aria-label={`Diminuir ${subject}`}
          disabled={disabled || value <= 1}
          onClick={() => onChange(Math.max(1, value - 1))}
          className={button}
        >
          −
        </button>
        <output
          aria-label={`${subject.charAt(0).toUpperCase()}${subject.slice(1)} selecionada`}
          className="w-8 text-center text-lg font-semibold"
        >
          {value}
        </output>
        <button
          type="button"
          aria-label={`Aumentar ${subject}`}
          disabled={disabled || atMax}
          onClick={() => onChange(Math.min(max, value + 1))}
          className={button}
        >
          +
        </button>
      </div>
      {atMax && stock !== null && stock > 0 && stock <= MAX_LINE_QUANTITY ? (
        <p role="status" className="text-sm font-medium text-amber-800 dark:text-amber-300">
          Só há {plural(stock, 'unidade', 'unidades')} desta cor e tamanho.
        </p>
      ) : null}
    </div>
  );
}
