import type {
  BannersUpdate,
  FeaturedUpdate,
  PainelBanner,
  PainelPhoto,
} from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

/** The shop's home page as staff edit it: featured products in order, and the banners. */
export const homeKeys = {
  featured: ['painel', 'home', 'featured'] as const,
  banners: ['painel', 'home', 'banners'] as const,
};

export interface Featured {
  versao: string;
  ids: number[];
}

export interface Banners {
  versao: string;
  banners: PainelBanner[];
}

export function featuredQuery() {
  return queryOptions({
    queryKey: homeKeys.featured,
    queryFn: ({ signal }) => painelFetch<Featured>('/home/featured/', { signal }),
  });
}

export const useFeatured = () => useQuery(featuredQuery());

/** Saves the featured list with the version it was read at (409 `versao_desatualizada` otherwise). */
export function useSaveFeatured() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FeaturedUpdate) => painelFetch<Featured>('/home/featured/', { method: 'PUT', body }),
    onSuccess: (saved) => {
      client.setQueryData(homeKeys.featured, saved);
      // The product list shows which products are on the home page.
      return client.invalidateQueries({ queryKey: ['painel', 'products'] });
    },
  });
}

export function bannersQuery() {
  return queryOptions({
    queryKey: homeKeys.banners,
    queryFn: ({ signal }) => painelFetch<Banners>('/home/banners/', { signal }),
  });
}

export const useBanners = () => useQuery(bannersQuery());

export function useSaveBanners() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BannersUpdate) => painelFetch<Banners>('/home/banners/', { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(homeKeys.banners, saved),
  });
}

/** A banner's image sent; it comes back `processando` and is polled with `usePhotoProcessing`. */
export function useUploadBannerImage() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('foto', file);
      return painelFetch<PainelPhoto>('/home/banners/image/', { method: 'POST', body: form });
    },
  });
}
