import type { ProductFiscal } from '@passada/core/contracts/fiscal';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

/** A product's tax data (NCM and origin), kept under the back office's fiscal keys. */
export const productFiscalKeys = {
  product: (productId: number) => ['painel', 'fiscal', 'product', productId] as const,
};

export function useProductFiscal(productId: number) {
  return useQuery({
    queryKey: productFiscalKeys.product(productId),
    queryFn: ({ signal }) => painelFetch<ProductFiscal | null>(`/products/${productId}/fiscal/`, { signal }),
  });
}

export function useSaveProductFiscal(productId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { ncm: string; origem: number }) =>
      painelFetch<ProductFiscal>(`/products/${productId}/fiscal/`, { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(productFiscalKeys.product(productId), saved),
  });
}
