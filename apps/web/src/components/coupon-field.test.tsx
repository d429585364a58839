import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCoupon } from '../lib/coupons-api.ts';
import { mockFetch } from '../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../test/render-routes.test-utils.tsx';
import { CouponField } from './coupon-field.tsx';

const draft = { items: [{ product: 1, quantity: 1, color: 2, size: 3 }], address_id: 4, frete: 'PAC' };

function Harness({ ready }: { ready: boolean }) {
  const coupon = useCoupon('pedido', ready ? draft : null);
  return (
    <>
      <CouponField coupon={coupon} notReady={ready ? null : 'Escolha o frete antes de aplicar o cupom.'} />
      <p>Total a pagar: {coupon.applied ? coupon.applied.total : 'sem cupom'}</p>
    </>
  );
}

const show = (ready = true) => renderRoutes([{ path: '/', element: <Harness ready={ready} /> }], '/');
const apply = (code: string) => {
  fireEvent.change(screen.getByRole('textbox', { name: 'Cupom de desconto' }), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Aplicar' }));
};

beforeEach(() => localStorage.setItem('token', 'abc'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('CouponField', () => {
  it('asks the server with the draft and shows its refusal on the field', async () => {
    const calls = mockFetch(({ url }) =>
      url === '/api/cupons/validar/'
        ? {
            status: 400,
            body: { detail: 'Cupom expirado.', code: 'cupom_expirado', errors: { cupom: 'Cupom expirado.' } },
          }
        : undefined,
    );
    show();
    apply(' verao10 ');
    expect((await screen.findByRole('alert')).textContent).toContain('Cupom expirado.');
    expect(screen.getByRole('textbox', { name: 'Cupom de desconto' }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(calls.find((c) => c.url === '/api/cupons/validar/')?.body).toEqual({
      cupom: 'VERAO10',
      finalidade: 'pedido',
      pedido: draft,
    });
    expect(screen.getByText('Total a pagar: sem cupom')).toBeTruthy();
  });

  it('shows the server’s discount and new total, and removes the coupon', async () => {
    mockFetch(({ url }) =>
      url === '/api/cupons/validar/'
        ? {
            status: 200,
            body: {
              cupom: 'VERAO10',
              desconto: 10,
              total_sem_desconto: 123.45,
              total: 113.45,
              descricao: '10% nos produtos',
            },
          }
        : undefined,
    );
    show();
    apply('verao10');
    const status = await screen.findByText(/Cupom VERAO10 aplicado/);
    expect(status.closest('[role="status"]')?.textContent?.replace(/\s/g, ' ')).toContain(
      'Cupom VERAO10 aplicado (10% nos produtos): −R$ 10,00. Novo total: R$ 113,45',
    );
    expect(screen.getByText('Total a pagar: 113.45')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remover cupom' }));
    await waitFor(() => expect(screen.getByText('Total a pagar: sem cupom')).toBeTruthy());
    expect(screen.queryByText(/aplicado/)).toBeNull();
  });

  it('asks nothing while the draft cannot be priced yet, and says why', async () => {
    const calls = mockFetch(() => undefined);
    show(false);
    apply('verao10');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Escolha o frete antes de aplicar o cupom.',
    );
    expect(calls.filter((c) => c.url === '/api/cupons/validar/')).toEqual([]);
  });
});
