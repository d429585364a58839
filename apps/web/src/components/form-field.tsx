import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';

export const inputClass =
  'w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-700 aria-invalid:border-red-600 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100';
/** A field the shopper cannot change (data taken from the profile or the primary address) looks it. */
export const readOnlyClass =
  'cursor-not-allowed border-dashed bg-stone-100 text-stone-600 focus-visible:outline-stone-400 dark:bg-stone-800 dark:text-stone-400';
export { primaryButtonClass, secondaryButtonClass } from './button-classes.ts';
export const linkClass = 'font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-500';

interface FieldFrameProps {
  label: string;
  error: string | undefined;
  id: string | undefined;
  children(control: {
    id: string;
    className: string;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
  }): ReactNode;
}

/** A label, the control, and the control's error announced with it (aria-describedby). */
function FieldFrame({ label, error, id, children }: FieldFrameProps) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const errorId = `${controlId}-erro`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={controlId} className="text-sm font-medium">
        {label}
      </label>
      {children({
        id: controlId,
        className: inputClass,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      })}
      {error ? (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface FieldProps extends ComponentPropsWithRef<'input'> {
  label: string;
  error?: string | undefined;
}

/** A labelled input whose error is announced with it. */
export function FormField({ label, error, id, ...input }: FieldProps) {
  return (
    <FieldFrame label={label} error={error} id={id}>
      {(control) => (
        <input
          {...control}
          className={input.readOnly ? `${control.className} ${readOnlyClass}` : control.className}
          {...input}
        />
      )}
    </FieldFrame>
  );
}

interface SelectFieldProps extends ComponentPropsWithRef<'select'> {
  label: string;
  error?: string | undefined;
}

/** A labelled select whose error is announced with it. */
export function SelectField({ label, error, id, children, ...select }: SelectFieldProps) {
  return (
    <FieldFrame label={label} error={error} id={id}>
      {(control) => (
        <select {...control} {...select}>
          {children}
        </select>
      )}
    </FieldFrame>
  );
}

interface TextAreaFieldProps extends ComponentPropsWithRef<'textarea'> {
  label: string;
  error?: string | undefined;
}

/** A labelled textarea whose error is announced with it. */
export function TextAreaField({ label, error, id, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame label={label} error={error} id={id}>
      {(control) => <textarea {...control} {...textarea} />}
    </FieldFrame>
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
