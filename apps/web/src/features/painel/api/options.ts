import { queryOptions, useQuery } from '@tanstack/react-query';
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
