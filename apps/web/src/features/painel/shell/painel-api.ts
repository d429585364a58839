import { ApiRequestError, apiFetch } from '../../../lib/api.ts';
import { readString, removeKey, StorageKeys, writeString } from '../../../lib/storage.ts';

/**
 * The back office's token, kept apart from the shop's. Read and written only by `api/` (sign-in,
 * sign-out, the CSV download): pages ask `api/auth.ts` (docs/architecture.md §7).
 */
export const painelToken = {
  get: () => readString(StorageKeys.painelToken),
  set: (token: string) => writeString(StorageKeys.painelToken, token),
  clear: () => removeKey(StorageKeys.painelToken),
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The back office's calls: the shop's fetch wrapper with the back office's own token. Only the files
 * of `api/` call it (one per endpoint group, with their query keys, options and hooks);
 * `scripts/check-boundaries.ts` keeps pages and components from importing this file
 * (docs/architecture.md §9, rule 9).
 */
export function painelFetch<T>(
  path: string,
  options: { method?: Method; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  return apiFetch<T>(`/api/painel${path}`, { ...options, token: painelToken.get() });
}

/**
 * A file the back office downloads (a CSV), with the file name the server gives; null when the
 * server says no. It comes through `fetch` itself because it is a file, not JSON, and the back office's
 * token travels in a header, not a cookie (docs/architecture.md §7).
 */
export async function painelFile(
  path: string,
  fallbackName: string,
): Promise<{ name: string; blob: Blob } | null> {
  const res = await fetch(`/api/painel${path}`, {
    headers: { authorization: `Token ${painelToken.get() ?? ''}` },
  });
  if (!res.ok) return null;
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  return { name, blob: await res.blob() };
}

/**
 * A conditional read (`If-None-Match`): null when the server answers 304, else the JSON and its ETag.
 * Only the kit desk's snapshot uses it (docs/decisions/0063), refreshed cheaply every minute.
 */
export async function painelFetchIfChanged<T>(
  path: string,
  etag: string | null,
): Promise<{ body: T; etag: string | null } | null> {
  const res = await fetch(`/api/painel${path}`, {
    headers: {
      accept: 'application/json',
      authorization: `Token ${painelToken.get() ?? ''}`,
      ...(etag ? { 'if-none-match': etag } : {}),
    },
  });
  if (res.status === 304) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiRequestError(res.status, data);
  return { body: data as T, etag: res.headers.get('etag') };
}
