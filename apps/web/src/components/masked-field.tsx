import { Maskito, type MaskitoOptions } from '@maskito/core';
import { type ComponentPropsWithRef, type Ref, type RefCallback, useCallback, useRef } from 'react';
import { FormField } from './form-field.tsx';

export type MaskOptions = MaskitoOptions;

const digitsOf = (value: string) => value.replace(/\D/g, '');
/** '___.___' → [/\d/, /\d/, /\d/, '.', …]: each `_` takes one digit, anything else is typed for the person. */
const shape = (pattern: string) => Array.from(pattern, (c) => (c === '_' ? /\d/ : c));

/**
 * Masks shown while typing (docs/product.md §2). They only dress what is shown: the contracts strip the
 * punctuation again, so what reaches the server stays digits.
 */
export const cepMask: MaskOptions = { mask: shape('_____-___') };
export const cpfMask: MaskOptions = { mask: shape('___.___.___-__') };

const CARD = shape('____ ____ ____ ____ ___');
/** American Express prints its 15 digits 4-6-5. */
const AMEX = shape('____ ______ _____');
/** Groups of four, up to 19 digits (the longest card numbers); Amex (34…, 37…) as printed on the card. */
export const cardNumberMask: MaskOptions = {
  mask: ({ value }) => (/^3[47]/.test(digitsOf(value)) ? AMEX : CARD),
};

const MOBILE = shape('(__) _____-____');
const LANDLINE = shape('(__) ____-____');
/** A landline has 10 digits, a mobile 11: the mask follows the count the edit leaves behind. */
export const phoneMask: MaskOptions = {
  mask: ({ value }) => (digitsOf(value).length > 10 ? MOBILE : LANDLINE),
};

function assignRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

/**
 * The masked input on its own, for forms that keep the value in state. Maskito reads the value and the
 * caret from the input at each key and rewrites it in the same event, so keys typed faster than the page
 * can render (a slow phone, a busy machine) are never lost; the value React and react-hook-form see is
 * already masked.
 */
export function useMaskedRef(
  options: MaskOptions,
  ref?: Ref<HTMLInputElement>,
): RefCallback<HTMLInputElement> {
  // react-hook-form hands out a new ref callback on every render; a stable one here keeps the mask from
  // being detached and attached again between key presses.
  const latest = useRef(ref);
  latest.current = ref;
  return useCallback(
    (element: HTMLInputElement | null) => {
      assignRef(latest.current, element);
      if (!element) return;
      const mask = new Maskito(element, options);
      return () => {
        mask.destroy();
        assignRef(latest.current, null);
      };
    },
    [options],
  );
}

interface MaskedFieldProps extends ComponentPropsWithRef<'input'> {
  label: string;
  error?: string | undefined;
  mask: MaskOptions;
}

/**
 * A labelled input with a mask; works with react-hook-form's register (its ref is kept). The change
 * handler listens to every `input` event: when the mask rewrites what the browser typed (adding a "-" or
 * regrouping a phone), React's own onChange sees the value already set and stays silent, so it would
 * miss that key. A field in state does the same: `defaultValue` and `onInput`.
 */
export function MaskedField({ mask, ref, onChange, ...props }: MaskedFieldProps) {
  const maskedRef = useMaskedRef(mask, ref);
  return <FormField inputMode="numeric" {...props} onInput={onChange} ref={maskedRef} />;
}
