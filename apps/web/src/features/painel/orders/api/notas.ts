import type { PainelNota } from '@passada/core/contracts/fiscal';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

/** An order's notas fiscais, kept under the back office's fiscal keys. */
export const notaKeys = {
  order: (orderId: number) => ['painel', 'fiscal', 'order', orderId] as const,
};

/** An order's notas; read again every few seconds while one is pending (the job is at work). */
export function useOrderNotas(orderId: number) {
  return useQuery({
    queryKey: notaKeys.order(orderId),
    queryFn: ({ signal }) => painelFetch<PainelNota[]>(`/orders/${orderId}/notas/`, { signal }),
    // Read again while a nota is pending, and for a minute while none exists yet: the issuing job runs
    // just after the payment, so a page opened at once would otherwise keep "Nenhuma nota ainda".
    refetchInterval: (q) => {
      const notas = q.state.data;
      if (notas?.some((n) => n.status === 'pendente')) return 3000;
      return notas?.length === 0 && q.state.dataUpdateCount < 20 ? 3000 : false;
    },
  });
}

export function useRetryNota(orderId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (notaId: number) =>
      painelFetch<{ id: number }>(`/notas/${notaId}/tentar-novamente/`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: notaKeys.order(orderId) }),
  });
}
