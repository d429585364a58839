import type { PaymentMethod } from '../../../components/payments/payment-step.tsx';

const METHODS = [
  ['pix', 'Pix'],
  ['cartao', 'Cartão de crédito'],
] as const;

interface PaymentMethodChoiceProps {
  method: PaymentMethod | null;
  disabled: boolean;
  className: string;
  onChoose(method: PaymentMethod): void;
}

export function PaymentMethodChoice({ method, disabled, className, onChoose }: PaymentMethodChoiceProps) {
  return (
    <fieldset className={className} disabled={disabled}>
      <legend className="px-1 text-lg font-bold">Forma de pagamento</legend>
      <div className="flex flex-wrap gap-4">
        {METHODS.map(([value, text]) => (
          <label key={value} className="flex items-center gap-2">
            <input
              type="radio"
              name="pagamento"
              value={value}
              checked={method === value}
              onChange={() => onChoose(value)}
              className="size-4 accent-brand-700"
            />
            {text}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
