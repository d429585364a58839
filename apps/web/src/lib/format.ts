import { formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';

/** yyyy-MM-dd (or an ISO timestamp) → dd/MM/yyyy; anything else → 'Data inválida.' (docs/product.md §8). */
export function formatDeliveryDate(value: string | null | undefined): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(value ?? '')?.[0];
  return day ? formatIsoDateBR(day) : 'Data inválida.';
}

// The shop's clock, not the viewer's: staff and shoppers elsewhere must read the same time. Each
// formatter is built on first use, not when a page loads this module (a page's first Intl use is
// slow: packages/core/src/digits.ts).
const inStore = { timeZone: STORE_TIME_ZONE } as const;
const formats = {
  date: { ...inStore, dateStyle: 'short' },
  dateTime: { ...inStore, dateStyle: 'short', timeStyle: 'short' },
  dateTimeSeconds: { ...inStore, dateStyle: 'short', timeStyle: 'medium' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
const formatters = new Map<keyof typeof formats, Intl.DateTimeFormat>();

function formatWith(format: keyof typeof formats, iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return 'Data inválida.';
  let formatter = formatters.get(format);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('pt-BR', formats[format]);
    formatters.set(format, formatter);
  }
  return formatter.format(t);
}

/** An ISO timestamp as "20/11/2026, 10:05" in the store's time zone; anything else → 'Data inválida.'. */
export function formatDateTime(iso: string, { seconds = false }: { seconds?: boolean } = {}): string {
  return formatWith(seconds ? 'dateTimeSeconds' : 'dateTime', iso);
}

/** An ISO timestamp as "20/11/2026" in the store's time zone; anything else → 'Data inválida.'. */
export function formatDate(iso: string): string {
  return formatWith('date', iso);
}
