import type { CouponInput, PainelCoupon } from '@passada/core/contracts/coupons';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

export const couponKeys = {
  all: ['painel', 'cupons'] as const,
};

export function couponsQuery() {
  return queryOptions({
    queryKey: couponKeys.all,
    queryFn: ({ signal }) => painelFetch<PainelCoupon[]>('/cupons/', { signal }),
  });
}

/** Admins only: the discount coupons with their uses. */
export const useCoupons = () => useQuery(couponsQuery());

/** Creates a coupon (no id) or replaces one (also how it is deactivated); the list is read again. */
export function useSaveCoupon() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CouponInput }) =>
      id === null
        ? painelFetch('/cupons/', { method: 'POST', body })
        : painelFetch(`/cupons/${id}/`, { method: 'PUT', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: couponKeys.all }),
  });
}
