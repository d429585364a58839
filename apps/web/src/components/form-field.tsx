import { type ComponentPropsWithRef, useId } from 'react';

export const inputClass =
  'w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-700 aria-invalid:border-red-600 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100';
export const primaryButtonClass =
  'rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60';
export const secondaryButtonClass =
  'rounded-lg border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 dark:border-stone-700 dark:hover:bg-stone-800';
export const linkClass = 'font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-500';

interface FieldProps extends ComponentPropsWithRef<'input'> {
  label: string;
  error?: string;
}

/** A labelled input whose error is announced with it (aria-describedby). */
export function FormField({ label, error, id, ...input }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-erro`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={inputId}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error ? (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A status line read out by screen readers when it changes. */
export function FormStatus({ message, tone }: { message: string | null; tone: 'success' | 'error' }) {
  if (!message) return null;
  return (
    <p
      role={tone === 'error' ? 'alert' : 'status'}
      className={
        tone === 'error'
          ? 'font-medium text-red-700 dark:text-red-400'
          : 'font-medium text-green-700 dark:text-green-400'
      }
    >
      {message}
    </p>
  );
}
