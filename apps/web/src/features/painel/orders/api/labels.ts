import type {
  LabelPurchase,
  LabelPurchaseResult,
  PainelLabel,
} from '@passada/core/contracts/shipping-labels';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';
import { saveFile } from '../../shell/utils/save-file.ts';
import { orderKeys } from './orders.ts';

/** "Gerar etiquetas": buys each order's label (never twice); lists and pages are read again. */
export function useBuyLabels() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LabelPurchase) =>
      painelFetch<LabelPurchaseResult>('/orders/labels/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

/**
 * "Imprimir etiquetas": the labels of these orders in one PDF, downloaded; with a provider that prints
 * on its own page, that page opens. Answers a message when the server says no.
 */
export async function printLabels(ids: number[]): Promise<string | null> {
  const file = await painelFile(`/orders/labels.pdf?pedidos=${ids.join(',')}`, 'etiquetas.pdf');
  if (!file)
    return 'Não foi possível imprimir: gere antes a etiqueta de cada pedido escolhido e tente de novo.';
  if (file.blob.type.startsWith('application/json')) {
    const { url } = JSON.parse(await file.blob.text()) as { url: string };
    window.open(url, '_blank', 'noopener');
    return null;
  }
  saveFile(file);
  return null;
}

/**
 * An order's label (null: none bought). Once the order is cancelled, read again every few seconds
 * until the provider has cancelled the label or refused to (a job does it after the cancellation).
 */
export function useOrderLabel(orderId: number, cancelled: boolean) {
  return useQuery({
    queryKey: [...orderKeys.detail(orderId), 'etiqueta'],
    queryFn: ({ signal }) => painelFetch<PainelLabel | null>(`/orders/${orderId}/etiqueta/`, { signal }),
    refetchInterval: (q) =>
      cancelled &&
      q.state.data &&
      q.state.data.situacao !== 'cancelada' &&
      !q.state.data.cancelamento_recusado
        ? 3000
        : false,
  });
}

/** "Imprimir romaneios": the packing slips of these orders in one PDF, one page each, downloaded. */
export async function printPackingSlips(ids: number[]): Promise<string | null> {
  const file = await painelFile(`/orders/romaneios.pdf?pedidos=${ids.join(',')}`, 'romaneios.pdf');
  if (!file) return 'Não foi possível gerar os romaneios: confira os pedidos escolhidos e tente de novo.';
  saveFile(file);
  return null;
}
