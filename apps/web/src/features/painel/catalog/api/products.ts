import type {
  ImagePatch,
  PainelProduct,
  PainelSizeGuide,
  ProductPublishInput,
  ProductSaleInput,
} from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PHOTO_POLL_MS } from '../../shell/api/photos.ts';
import { productKeys } from '../../shell/api/product-lists.ts';
import { painelFetch } from '../../shell/painel-api.ts';

export { productKeys, productsQuery, useProducts } from '../../shell/api/product-lists.ts';

export function productQuery(id: number | null) {
  return queryOptions({
    queryKey: productKeys.detail(id ?? 0),
    queryFn: ({ signal }) => painelFetch<PainelProduct>(`/products/${id}/`, { signal }),
    enabled: id !== null,
  });
}

export function useProduct(id: number | null) {
  return useQuery(productQuery(id));
}

/**
 * Creates a product (no id) or saves the fields changed with the version they were read at (a stale
 * version answers 409 `versao_desatualizada`). The answer becomes the product's cache; the list is read again.
 */
export function useSaveProduct(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      painelFetch<PainelProduct>(id ? `/products/${id}/` : '/products/', {
        method: id ? 'PATCH' : 'POST',
        body,
      }),
    onSuccess: (saved) => {
      client.setQueryData(productKeys.detail(saved.id), saved);
      return client.invalidateQueries({ queryKey: productKeys.all });
    },
  });
}

type Image = PainelProduct['images'][number];

/** Reads the product again into its cache after its photos change, and answers it. */
export function useRefreshProduct(id: number) {
  const client = useQueryClient();
  return () => client.fetchQuery({ ...productQuery(id), staleTime: 0 });
}

/** One photo sent; the caller reads the product again when the batch is done. */
export function useUploadPhoto(id: number) {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('foto', file);
      return painelFetch(`/products/${id}/images/`, { method: 'POST', body: form });
    },
  });
}

/** The photos' new order; answers the photos as saved. */
export function useReorderPhotos(id: number) {
  return useMutation({
    mutationFn: (ids: number[]) =>
      painelFetch<Image[]>(`/products/${id}/images/`, { method: 'PUT', body: { ids } }),
  });
}

/** A photo's alt text and colour; answers the photo as saved. */
export function useUpdatePhoto(id: number) {
  return useMutation({
    mutationFn: ({ imageId, ...body }: ImagePatch & { imageId: number }) =>
      painelFetch<Image>(`/products/${id}/images/${imageId}/`, { method: 'PATCH', body }),
  });
}

export function useRemovePhoto(id: number) {
  return useMutation({
    mutationFn: (imageId: number) => painelFetch(`/products/${id}/images/${imageId}/`, { method: 'DELETE' }),
  });
}

/**
 * The product's photos read again every second while one is still `processando` (`processing`). Its own
 * key, so the product form, which reads `productKeys.detail`, is not reset under the person typing; once
 * none is left processing, the answer becomes the product's (what it lacks to be sold follows its photos).
 */
export function useProcessingPhotos(id: number, processing: boolean) {
  const client = useQueryClient();
  return useQuery({
    queryKey: [...productKeys.detail(id), 'fotos'],
    queryFn: async ({ signal }) => {
      const read = await painelFetch<PainelProduct>(`/products/${id}/`, { signal });
      if (!read.images.some((i) => i.status === 'processando'))
        client.setQueryData(productKeys.detail(id), read);
      return read;
    },
    enabled: processing,
    refetchInterval: processing ? PHOTO_POLL_MS : false,
  });
}

/** A part of the product saved whole with the version read; the answer is the product. */
function useProductPart<T>(id: number, part: 'medidas' | 'promocao') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => painelFetch<PainelProduct>(`/products/${id}/${part}/`, { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(productKeys.detail(saved.id), saved),
  });
}

/**
 * Publishing a draft (decision 0085): now or at `publicar_em` (`publicar`), or its time taken away
 * (`cancelar`), with the version read. The answer is the product; the list is read again.
 */
export function usePublishProduct(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ cancel, ...body }: ProductPublishInput & { cancel?: boolean }) =>
      painelFetch<PainelProduct>(`/products/${id}/publicar/${cancel ? 'cancelar/' : ''}`, {
        method: 'POST',
        body: cancel ? { versao: body.versao } : body,
      }),
    onSuccess: (saved) => {
      client.setQueryData(productKeys.detail(saved.id), saved);
      return client.invalidateQueries({ queryKey: productKeys.all });
    },
  });
}

/** The product's size guide (decision 0070). */
export const useSaveSizeGuide = (id: number) => useProductPart<PainelSizeGuide>(id, 'medidas');

/** The product's sale (decision 0082), or null to end it. */
export const useSaveSale = (id: number) => useProductPart<ProductSaleInput>(id, 'promocao');
