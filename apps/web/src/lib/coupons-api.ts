import type { CouponPreview } from '@passada/core/contracts/coupons';
import type { Finalidade } from '@passada/core/contracts/payments';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiRequestError, apiFetch } from './api.ts';

/**
 * A discount coupon at checkout (the shop's review page and the event checkout): the code the person
 * applied and the server's price of the current draft with it. A change of the draft (quantities,
 * shipping) asks the server again; the charge is created with the same code and priced again there.
 */
export function useCoupon(purpose: Finalidade, draft: unknown | null) {
  const [code, setCode] = useState<string | null>(null);
  const preview = useQuery({
    queryKey: ['cupom', purpose, code, draft],
    queryFn: () =>
      apiFetch<CouponPreview>('/api/cupons/validar/', {
        method: 'POST',
        body: { cupom: code, finalidade: purpose, [purpose]: draft },
      }),
    enabled: code !== null && draft !== null,
    retry: false,
    staleTime: 60_000,
  });
  const applied = code !== null && preview.data ? preview.data : null;
  const error =
    code === null || !preview.error
      ? null
      : preview.error instanceof ApiRequestError
        ? (preview.error.body?.errors?.cupom ?? preview.error.body?.detail ?? 'Cupom inválido.')
        : 'Não foi possível conferir o cupom. Tente de novo.';
  return {
    code,
    applied,
    error,
    checking: code !== null && preview.isFetching,
    apply(next: string) {
      if (next === code) void preview.refetch();
      else setCode(next);
    },
    remove: () => setCode(null),
  };
}

export type CouponState = ReturnType<typeof useCoupon>;
