import { formatBRL, reaisToCents } from '@passada/core/money';
import { useId, useState } from 'react';
import type { CouponState } from '../lib/coupons-api.ts';
import { inputClass, secondaryButtonClass } from './form-field.tsx';

interface CouponFieldProps {
  coupon: CouponState;
  disabled?: boolean;
  /** Why a coupon cannot be priced yet (e.g. no shipping chosen); shown on the field when set. */
  notReady?: string | null;
  /** Called when a coupon is applied or removed (the payment shown so far is for the old total). */
  onChange?: () => void;
}

/** "Cupom de desconto" with "Aplicar": the server's discount and new total, or its refusal on the field. */
export function CouponField({ coupon, disabled = false, notReady = null, onChange }: CouponFieldProps) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const error = localError ?? coupon.error;
  const errorId = `${id}-erro`;

  const apply = () => {
    const code = typed.trim().toUpperCase();
    if (!code) {
      setLocalError('Digite o cupom.');
      return;
    }
    if (notReady) {
      setLocalError(notReady);
      return;
    }
    setLocalError(null);
    coupon.apply(code);
    onChange?.();
  };

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Cupom de desconto
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          className={inputClass}
          value={typed}
          disabled={disabled}
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={40}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              apply();
            }
          }}
        />
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={disabled || coupon.checking}
          onClick={apply}
        >
          Aplicar
        </button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      {coupon.checking ? (
        <p role="status" className="text-sm">
          Conferindo cupom...
        </p>
      ) : null}
      {coupon.applied ? (
        <div
          role="status"
          className="flex flex-wrap items-center gap-x-3 text-sm text-green-800 dark:text-green-400"
        >
          <span>
            Cupom {coupon.applied.cupom} aplicado ({coupon.applied.descricao}): −
            {formatBRL(reaisToCents(coupon.applied.desconto))}. Novo total:{' '}
            <strong>{formatBRL(reaisToCents(coupon.applied.total))}</strong>
          </span>
          <button
            type="button"
            className="underline"
            disabled={disabled}
            onClick={() => {
              coupon.remove();
              setTyped('');
              onChange?.();
            }}
          >
            Remover cupom
          </button>
        </div>
      ) : null}
    </div>
  );
}
