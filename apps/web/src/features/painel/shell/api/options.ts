import type { NewColor, NewSize } from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../painel-api.ts';

/** A colour (with its swatch) or a size a product may come in. */
export interface NamedOption {
  id: number;
  name: string;
  hex?: string;
}

export const optionKeys = {
  colors: ['painel', 'colors'] as const,
  sizes: ['painel', 'sizes'] as const,
};

export function colorsQuery() {
  return queryOptions({
    queryKey: optionKeys.colors,
    queryFn: ({ signal }) => painelFetch<NamedOption[]>('/colors/', { signal }),
  });
}

export function sizesQuery() {
  return queryOptions({
    queryKey: optionKeys.sizes,
    queryFn: ({ signal }) => painelFetch<NamedOption[]>('/sizes/', { signal }),
  });
}

export const useColors = () => useQuery(colorsQuery());
export const useSizes = () => useQuery(sizesQuery());

/** A new colour (409 `cor_existente` when the name exists in any letter case); the list is read again. */
export function useCreateColor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewColor) => painelFetch<NamedOption>('/colors/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: optionKeys.colors }),
  });
}

/** A new size (409 `tamanho_existente` when the name exists); the list is read again. */
export function useCreateSize() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewSize) => painelFetch<NamedOption>('/sizes/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: optionKeys.sizes }),
  });
}
