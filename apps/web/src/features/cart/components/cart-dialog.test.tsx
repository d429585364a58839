import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cart } from '../../../lib/cart.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import CartDialog from './cart-dialog.tsx';

function renderCart() {
  return renderRoutes(
    [
      { path: '/', element: <CartDialog open onOpenChange={() => {}} /> },
      { path: '/login', element: <h1>Entrar</h1> },
      { path: '/fechar-pedido', element: <h1>Fechar pedido</h1> },
    ],
    '/',
  );
}

const line = {
  id: 3,
  name: 'Regata Dry-Fit Iracema',
  price: 89.9,
  image: '/img.svg',
  quantity: 2,
  size: 2,
  color: 4,
  product_size: 'M',
  product_color: 'Coral',
};

describe('Seu carrinho', () => {
  beforeEach(() => {
    localStorage.clear();
    cart.clear();
  });
  afterEach(() => cart.clear());

  it('shows the empty text when there is nothing in the cart', () => {
    renderCart();
    const dialog = screen.getByRole('dialog', { name: 'Seu carrinho' });
    expect(within(dialog).getByText('Você ainda não tem nenhum item no carrinho.')).toBeTruthy();
  });

  it('changes quantities, keeps the minimum of 1, updates the subtotal and removes', async () => {
    const user = userEvent.setup();
    cart.add(line);
    renderCart();
    const dialog = screen.getByRole('dialog', { name: 'Seu carrinho' });
    const quantity = () => within(dialog).getByLabelText('Quantidade de Regata Dry-Fit Iracema').textContent;
    expect(within(dialog).getByText('Cor: Coral · Tamanho: M')).toBeTruthy();
    expect(within(dialog).getByTestId('cart-subtotal').textContent).toBe('R$\u00a0179,80');

    await user.click(
      within(dialog).getByRole('button', { name: 'Aumentar quantidade de Regata Dry-Fit Iracema' }),
    );
    expect(quantity()).toBe('3');
    expect(within(dialog).getByTestId('cart-subtotal').textContent).toBe('R$\u00a0269,70');

    const minus = within(dialog).getByRole('button', {
      name: 'Diminuir quantidade de Regata Dry-Fit Iracema',
    });
    await user.click(minus);
    await user.click(minus);
    expect(quantity()).toBe('1');
    expect((minus as HTMLButtonElement).disabled).toBe(true);
    expect(JSON.parse(localStorage.getItem('cart')!)[0].quantity).toBe(1);

    await user.click(within(dialog).getByRole('button', { name: 'Remover Regata Dry-Fit Iracema' }));
    expect(within(dialog).getByText('Você ainda não tem nenhum item no carrinho.')).toBeTruthy();
    expect(localStorage.getItem('cart')).toBe('[]');
  });

  it('asks a visitor to log in before closing the order, then goes to /login', async () => {
    const user = userEvent.setup();
    cart.add(line);
    const router = renderCart();
    await user.click(screen.getByRole('button', { name: 'Fechar pedido' }));
    const alert = await screen.findByRole('alertdialog', {
      name: 'Você precisa estar logado para fazer uma compra.',
    });
    await user.click(within(alert).getByRole('button', { name: 'OK' }));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('for a signed-in buyer drops a leftover "Comprar agora" draft and goes to /fechar-pedido', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'abc');
    localStorage.setItem('orderData', JSON.stringify({ items: [{ product: 99, quantity: 1 }] }));
    cart.add(line);
    const router = renderCart();
    await user.click(screen.getByRole('button', { name: 'Fechar pedido' }));
    expect(router.state.location.pathname).toBe('/fechar-pedido');
    expect(localStorage.getItem('orderData')).toBeNull();
    expect(JSON.parse(localStorage.getItem('cart')!)).toHaveLength(1);
  });
});
