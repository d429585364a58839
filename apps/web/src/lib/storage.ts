/**
 * Browser storage keys, exactly as the spec's section 3 lists them. Nothing else in the app writes
 * localStorage directly.
 */
export const StorageKeys = {
  token: 'token',
  cart: 'cart',
  orderData: 'orderData',
  theme: 'theme',
  total: 'total',
  eventName: 'Nome_evento',
  chosenAddress: 'enderecoEscolhido',
  shipping: 'frete',
  /** Event registrations waiting in the cart (participant data; cleared once paid or removed). */
  cartRegistrations: 'inscricoesCarrinho',
  /** The back office's own session token, never sent to the shop's routes. */
  painelToken: 'painelToken',
  /** The name staff gave this phone's kit desk, sent with its offline pickups. */
  checkinDesk: 'painelCheckinMesa',
} as const;
export type StorageKey = (typeof StorageKeys)[keyof typeof StorageKeys];

export function readJson<T>(key: StorageKey, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeJson(key: StorageKey, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}

export function readString(key: StorageKey): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: StorageKey, value: string): void {
  localStorage.setItem(key, value);
}

export function removeKey(key: StorageKey): void {
  localStorage.removeItem(key);
}
