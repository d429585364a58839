import type { CouponInput } from '@passada/core/contracts/coupons';
import type { FastifyInstance } from 'fastify';

let seq = 0;

/** A coupon form as the back office sends it: 10% for the whole shop unless overridden. */
export function couponInput(overrides: Partial<CouponInput> = {}): CouponInput {
  seq += 1;
  return {
    codigo: `TESTE${seq}X${process.pid}`,
    tipo: 'percentual',
    valor: 10,
    escopo: 'loja',
    ...overrides,
  };
}

/** Creates a coupon through `POST /api/painel/cupons/` (staff headers of an admin); answers its wire form. */
export async function createCoupon(
  app: FastifyInstance,
  staffHeaders: Record<string, string>,
  overrides: Partial<CouponInput> = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/painel/cupons/',
    headers: staffHeaders,
    payload: couponInput(overrides),
  });
  if (res.statusCode !== 201) throw new Error(`cupom não criado: ${res.statusCode} ${res.body}`);
  return res.json<{ id: number; codigo: string }>();
}

/** The checkout's preview: `POST /api/cupons/validar/`. */
export function previewCoupon(
  app: FastifyInstance,
  headers: Record<string, string>,
  payload: { cupom: string; finalidade: 'pedido' | 'inscricao'; pedido?: unknown; inscricao?: unknown },
) {
  return app.inject({ method: 'POST', url: '/api/cupons/validar/', headers, payload });
}
