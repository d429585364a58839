import type { ServerCart } from '@passada/core/contracts/cart';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

/** The account's cart kept on the server, with its choice about reminders. */
export const serverCartQuery = () =>
  queryOptions({ queryKey: ['carrinho'] as const, queryFn: () => apiFetch<ServerCart>('/api/carrinho/') });

/** Turns the cart and registration reminders on or off for this account. */
export function useSetReminders() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ativos: boolean) =>
      apiFetch<{ ativos: boolean }>('/api/carrinho/lembretes/', { method: 'PUT', body: { ativos } }),
    onSuccess: () => client.invalidateQueries({ queryKey: serverCartQuery().queryKey }),
  });
}

/** The reminder by WhatsApp too, to this number (the account's own opt-in, decision 0084), or null to stop. */
export function useSetReminderWhatsApp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (telefone: string | null) =>
      apiFetch<{ whatsapp: string | null }>('/api/carrinho/lembretes/whatsapp/', {
        method: 'PUT',
        body: { telefone },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: serverCartQuery().queryKey }),
  });
}
