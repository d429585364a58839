import { formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';

/** yyyy-MM-dd (or an ISO timestamp) → dd/MM/yyyy; anything else → 'Data inválida.' (docs/product.md §8). */
export function formatDeliveryDate(value: string | null | undefined): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(value ?? '')?.[0];
  return day ? formatIsoDateBR(day) : 'Data inválida.';
}

// The shop's clock, not the viewer's: staff and shoppers elsewhere must read the same time.
const inStore = { timeZone: STORE_TIME_ZONE } as const;
const date = new Intl.DateTimeFormat('pt-BR', { ...inStore, dateStyle: 'short' });
const dateTime = new Intl.DateTimeFormat('pt-BR', { ...inStore, dateStyle: 'short', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat('pt-BR', {
  ...inStore,
  dateStyle: 'short',
  timeStyle: 'medium',
});

function formatWith(formatter: Intl.DateTimeFormat, iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 'Data inválida.' : formatter.format(t);
}

/** An ISO timestamp as "20/11/2026, 10:05" in the store's time zone; anything else → 'Data inválida.'. */
export function formatDateTime(iso: string, { seconds = false }: { seconds?: boolean } = {}): string {
  return formatWith(seconds ? dateTimeSeconds : dateTime, iso);
}

/** An ISO timestamp as "20/11/2026" in the store's time zone; anything else → 'Data inválida.'. */
export function formatDate(iso: string): string {
  return formatWith(date, iso);
}
