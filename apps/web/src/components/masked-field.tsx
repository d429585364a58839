import { type MaskOptions, useMask } from '@react-input/mask';
import { type ComponentPropsWithRef, type MutableRefObject, type Ref, useCallback, useRef } from 'react';
import { FormField } from './form-field.tsx';

const digit = { _: /\d/ };
const digitsOf = (value: string) => value.replace(/\D/g, '');

/**
 * Masks shown while typing (docs/product.md §2). They only dress what is shown: the contracts strip the
 * punctuation again, so what reaches the server stays digits.
 */
export const cepMask: MaskOptions = { mask: '_____-___', replacement: digit };
export const cpfMask: MaskOptions = { mask: '___.___.___-__', replacement: digit };
/** Groups of four, up to 19 digits (the longest card numbers). */
export const cardNumberMask: MaskOptions = { mask: '____ ____ ____ ____ ___', replacement: digit };

const MOBILE = '(__) _____-____';
const LANDLINE = '(__) ____-____';
/** A landline has 10 digits, a mobile 11: the mask follows the count the edit leaves behind. */
export const phoneMask: MaskOptions = {
  mask: MOBILE,
  replacement: digit,
  modify: ({ inputType, value, data, selectionStart, selectionEnd }) => {
    const kept = digitsOf(value.slice(0, selectionStart)).length + digitsOf(value.slice(selectionEnd)).length;
    const removedOne = inputType !== 'insert' && selectionStart === selectionEnd ? 1 : 0;
    const count = kept + (inputType === 'insert' ? digitsOf(data).length : 0) - removedOne;
    return { mask: count > 10 ? MOBILE : LANDLINE };
  },
};

function assignRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

/** The masked input on its own, for forms that keep the value in state. */
export function useMaskedRef(options: MaskOptions, ref?: Ref<HTMLInputElement>) {
  const maskRef = useMask(options) as MutableRefObject<HTMLInputElement | null>;
  // react-hook-form hands out a new ref callback on every render; a stable one here keeps the mask from
  // being detached and attached again between key presses.
  const latest = useRef(ref);
  latest.current = ref;
  return useCallback(
    (element: HTMLInputElement | null) => {
      maskRef.current = element;
      assignRef(latest.current, element);
    },
    [maskRef],
  );
}

interface MaskedFieldProps extends ComponentPropsWithRef<'input'> {
  label: string;
  error?: string | undefined;
  mask: MaskOptions;
}

/** A labelled input with a mask; works with react-hook-form's register (its ref is kept). */
export function MaskedField({ mask, ref, ...props }: MaskedFieldProps) {
  const maskedRef = useMaskedRef(mask, ref);
  return <FormField inputMode="numeric" {...props} ref={maskedRef} />;
}
