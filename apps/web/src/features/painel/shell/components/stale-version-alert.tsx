import { STALE_VERSION_CODE } from '@passada/core/contracts/painel';
import { secondaryButtonClass } from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';

/** Whether a save failed because someone saved the record first (409, docs/decisions/0025). */
export function isStaleVersion(error: unknown): boolean {
  return error instanceof ApiRequestError && error.body?.code === STALE_VERSION_CODE;
}

/**
 * The "versão desatualizada" alert of the event and product forms: what was typed stays in the form
 * until the person chooses to load the current version.
 */
export function StaleVersionAlert(props: {
  message: string;
  reloadLabel: string;
  onReload: () => Promise<void>;
}) {
  return (
    <div className="rounded-lg border border-red-300 bg-red-50 p-3 dark:border-red-800 dark:bg-red-950">
      <p role="alert" className="font-medium text-red-700 dark:text-red-400">
        {props.message}
      </p>
      <button type="button" className={`${secondaryButtonClass} mt-2`} onClick={() => void props.onReload()}>
        {props.reloadLabel}
      </button>
      <p className="mt-1 text-sm">O que você digitou continua no formulário até você recarregar.</p>
    </div>
  );
}
