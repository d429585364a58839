import { useSyncExternalStore } from 'react';
import { readJson, type StorageKey, writeJson } from './storage.ts';

/**
 * A list kept in localStorage under `key` as an external store: saved on every change, read again
 * when another tab changes it, and empty in the server's HTML (and the hydration of it) so the saved
 * one follows after hydration. The cart and the registrations waiting in it are two of these.
 */
export function createStoredList<T>(key: StorageKey, isValid: (value: unknown) => boolean) {
  type Listener = () => void;
  const listeners = new Set<Listener>();
  const load = (): T[] => {
    const stored = readJson<unknown>(key, []);
    return Array.isArray(stored) ? (stored.filter(isValid) as T[]) : [];
  };
  let items: readonly T[] = load();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const NONE: readonly T[] = [];

  const store = {
    get: (): readonly T[] => items,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Every change is saved at once, then subscribers re-render. */
    set(next: T[]): void {
      items = next;
      writeJson(key, next);
      notify();
    },
    /** Re-reads storage, e.g. when another tab changed the list. */
    reload(): void {
      items = load();
      notify();
    },
    /** What the server's HTML shows. */
    empty: (): readonly T[] => NONE,
  };

  if (typeof window !== 'undefined') {
    window.addEventListener('storage', (event) => {
      if (event.key === key || event.key === null) store.reload();
    });
  }
  return store;
}

export type StoredList<T> = ReturnType<typeof createStoredList<T>>;

/** The list, re-rendering on every change; empty on the server and during hydration. */
export function useStoredList<T>(store: StoredList<T>): readonly T[] {
  return useSyncExternalStore(store.subscribe, store.get, store.empty);
}
