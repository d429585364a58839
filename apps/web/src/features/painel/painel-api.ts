import {
  type PainelAction,
  type PainelPhoto,
  type PainelProduct,
  type Staff,
  staffCan,
} from '@passada/core/contracts/painel';
import { useQuery } from '@tanstack/react-query';
import { useOutletContext } from 'react-router';
import { ApiRequestError, apiFetch } from '../../lib/api.ts';
import { readString, removeKey, StorageKeys, writeString } from '../../lib/storage.ts';

export const painelToken = {
  get: () => readString(StorageKeys.painelToken),
  set: (token: string) => writeString(StorageKeys.painelToken, token),
  clear: () => removeKey(StorageKeys.painelToken),
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The back office's calls: the shop's fetch wrapper with the back office's own token. */
export function painelFetch<T>(path: string, options: { method?: Method; body?: unknown } = {}): Promise<T> {
  return apiFetch<T>(`/api/painel${path}`, { ...options, token: painelToken.get() });
}

/** The message to show for a failed call. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return error.body?.detail ?? `Erro ${error.status}`;
  return 'Não foi possível falar com o servidor. Tente de novo.';
}

export interface Me {
  staff: Staff;
  precisa_ativar_2fa: boolean;
  /** Absent right after sign-in (the session answer), until `/auth/me/` is read again. */
  codigos_recuperacao_restantes?: number;
}

export const painelKeys = {
  me: ['painel', 'me'] as const,
  products: ['painel', 'products'] as const,
  product: (id: number) => ['painel', 'products', id] as const,
  colors: ['painel', 'colors'] as const,
  sizes: ['painel', 'sizes'] as const,
  low: (limit: number) => ['painel', 'low', limit] as const,
  staff: ['painel', 'staff'] as const,
  audit: (page: number) => ['painel', 'audit', page] as const,
  history: (combo: string) => ['painel', 'history', combo] as const,
};

export function useMe() {
  return useQuery({
    queryKey: painelKeys.me,
    queryFn: () => painelFetch<Me>('/auth/me/'),
    enabled: Boolean(painelToken.get()),
    retry: false,
    staleTime: 60_000,
  });
}

/**
 * Whether the signed-in staff member may do `action` (their role comes from /auth/me/, which the
 * painel's layout reads and hands to its pages). The server checks it again: this only hides buttons.
 */
export function useStaffCan(action: PainelAction): boolean {
  const me = useOutletContext<Me | undefined>();
  return me ? staffCan(me.staff.role, action) : false;
}

export function useProducts() {
  return useQuery({
    queryKey: painelKeys.products,
    queryFn: () => painelFetch<PainelProduct[]>('/products/'),
  });
}

export function useProduct(id: number | null) {
  return useQuery({
    queryKey: painelKeys.product(id ?? 0),
    queryFn: () => painelFetch<PainelProduct>(`/products/${id}/`),
    enabled: id !== null,
  });
}

/** How often an uploaded photo's state is asked again while the server resizes it. */
const PHOTO_POLL_MS = 1000;

/** Polls an uploaded photo (`null`: none) until the server has made its resized copies or given up. */
export function usePhotoProcessing(photo: PainelPhoto | null) {
  return useQuery({
    queryKey: ['painel', 'photos', photo?.id ?? 0],
    queryFn: () => painelFetch<PainelPhoto>(`/photos/${photo?.id}/`),
    enabled: photo?.status === 'processando',
    refetchInterval: (query) =>
      query.state.data && query.state.data.status !== 'processando' ? false : PHOTO_POLL_MS,
  });
}

export interface NamedOption {
  id: number;
  name: string;
  hex?: string;
}

export function useColors() {
  return useQuery({ queryKey: painelKeys.colors, queryFn: () => painelFetch<NamedOption[]>('/colors/') });
}

export function useSizes() {
  return useQuery({ queryKey: painelKeys.sizes, queryFn: () => painelFetch<NamedOption[]>('/sizes/') });
}
