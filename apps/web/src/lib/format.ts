import { formatIsoDateBR } from '@passada/core/events';

/** yyyy-MM-dd (or an ISO timestamp) → dd/MM/yyyy; anything else → 'Data inválida.' (docs/product.md §8). */
export function formatDeliveryDate(value: string | null | undefined): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(value ?? '')?.[0];
  return day ? formatIsoDateBR(day) : 'Data inválida.';
}

const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' });

/** An ISO timestamp as "20/11/2026, 10:05"; anything else → 'Data inválida.'. */
export function formatDateTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 'Data inválida.' : dateTime.format(t);
}
