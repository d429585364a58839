import { ApiRequestError } from '../../../../lib/api.ts';

/** The message to show for a failed call. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return error.body?.detail ?? `Erro ${error.status}`;
  return 'Não foi possível falar com o servidor. Tente de novo.';
}

/** The messages per field of a failed call's 400 answer (`errors`), or none. */
export function fieldErrors(error: unknown): Record<string, string> {
  return error instanceof ApiRequestError ? (error.body?.errors ?? {}) : {};
}
