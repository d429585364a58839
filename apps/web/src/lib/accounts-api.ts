import type { Address, AddressData, CepLookup, Profile } from '@passada/core/contracts/accounts';
import { useQuery } from '@tanstack/react-query';
import { ApiRequestError, apiFetch } from './api.ts';

export const addressesQueryKey = ['addresses'] as const;

export function useAddresses() {
  return useQuery({
    queryKey: addressesQueryKey,
    queryFn: () => apiFetch<Address[]>('/api/users/addresses/'),
  });
}

export function useAddress(id: number) {
  return useQuery({
    queryKey: [...addressesQueryKey, id],
    queryFn: () => apiFetch<Address>(`/api/users/addresses/${id}/`),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

export const saveAddress = (data: AddressData, id?: number) =>
  apiFetch<Address>(id ? `/api/users/addresses/${id}/` : '/api/users/addresses/', {
    method: id ? 'PUT' : 'POST',
    body: data,
  });

export const deleteAddress = (id: number) =>
  apiFetch<void>(`/api/users/addresses/${id}/`, { method: 'DELETE' });

export const lookupCep = (cep: string) => apiFetch<CepLookup>(`/api/cep/${cep}/`, { auth: false });

export const logIn = (username: string, password: string) =>
  apiFetch<{ token: string }>('/api/token-auth/', {
    method: 'POST',
    body: { username, password },
    auth: false,
  });

/** Spends the one-time link e-mailed when a sign-in with the right password was blocked. */
export const logInWithLink = (token: string) =>
  apiFetch<{ token: string }>('/api/token-auth/link/', { method: 'POST', body: { token }, auth: false });

/** Spends the link that confirms the account's e-mail (docs/decisions/0057). */
export const confirmEmail = (token: string) =>
  apiFetch<{ detail: string }>('/api/users/confirmar-email/', {
    method: 'POST',
    body: { token },
    auth: false,
  });

/** Another confirmation link to the account's e-mail; a few an hour at most (429 after). */
export const resendEmailConfirmation = () =>
  apiFetch<{ detail: string }>('/api/users/profile/confirmar-email/', { method: 'POST' });

export const signUp = (body: { username: string; email: string; full_name: string; password: string }) =>
  apiFetch<Profile>('/api/users/', { method: 'POST', body, auth: false });

export const updateProfile = (body: { full_name?: string; email?: string; current_password?: string }) =>
  apiFetch<Profile>('/api/users/profile/', { method: 'PATCH', body });

export const changePassword = (body: {
  current_password: string;
  new_password: string;
  new_password_confirm: string;
}) => apiFetch<{ detail: string }>('/api/users/profile/password/', { method: 'POST', body });

/** Everything the shop holds about the signed-in person (LGPD), saved by the browser as a JSON file. */
export async function downloadPersonalData(): Promise<void> {
  const data = await apiFetch<unknown>('/api/users/profile/dados/');
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'passada-dados-pessoais.json';
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export const deleteAccount = (password: string) =>
  apiFetch<void>('/api/users/profile/', { method: 'DELETE', body: { password } });

export const requestPasswordReset = (email: string) =>
  apiFetch<{ detail: string }>('/api/users/password-reset/', {
    method: 'POST',
    body: { email },
    auth: false,
  });

export const confirmPasswordReset = (body: { token: string; password: string; password_confirm: string }) =>
  apiFetch<{ detail: string }>('/api/users/password-reset/confirm/', { method: 'POST', body, auth: false });

/** The API's per-field messages (`errors`), when the failure carries them. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  return error instanceof ApiRequestError ? (error.body?.errors ?? {}) : {};
}

/** Puts the server's per-field messages on the form's own fields, so each shows beside its input. */
export function showFieldErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  setError: (field: F, error: { message: string }) => void,
): void {
  const messages = fieldErrorsOf(error);
  for (const field of fields) {
    const message = messages[field];
    if (message) setError(field, { message });
  }
}

export function detailOf(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.body?.detail ? error.body.detail : fallback;
}
