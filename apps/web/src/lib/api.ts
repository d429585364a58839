import type { ApiError } from '@passada/core/contracts/common';
import { readString, StorageKeys } from './storage.ts';

/** An API answer with a 4xx/5xx status; `body` is the `{detail, code, errors}` JSON when there is one. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | null,
  ) {
    super(body?.detail ?? `Erro ${status}`);
  }
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Sends `Authorization: Token <token>` from localStorage.token (spec §6). Default true when a token exists. */
  auth?: boolean;
  /** Another token to send instead (the back office's own); null sends none. */
  token?: string | null;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/**
 * The app's one fetch wrapper (docs/architecture.md §7): JSON (or a FormData upload) to our API, the
 * token, and errors thrown as ApiRequestError on a non-2xx answer.
 */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['content-type'] = 'application/json';
  const token =
    options.token !== undefined
      ? options.token
      : options.auth === false
        ? null
        : readString(StorageKeys.token);
  if (token) headers.authorization = `Token ${token}`;
  const res = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body:
      options.body === undefined
        ? undefined
        : isForm
          ? (options.body as FormData)
          : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await res.text();
  const data: unknown = text ? safeJson(text) : null;
  if (!res.ok) throw new ApiRequestError(res.status, (data as ApiError | null) ?? null);
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
