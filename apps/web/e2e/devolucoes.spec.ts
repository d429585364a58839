import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  createShopper,
  expectNoSeriousAxe,
  payWithPix,
  productWithStock,
  STAFF,
  signInStaff,
} from './fixtures.ts';

/** An order of two units, paid by Pix, shipped and delivered by staff through the API. */
async function deliveredOrder(request: APIRequestContext) {
  const { product, entry } = await productWithStock(request, '/api/products/', 3);
  const shopper = await createShopper(request, 'dev');
  const draft = {
    items: [{ product: product.id, quantity: 2, color: entry.color.id, size: entry.size.id }],
    address_id: shopper.addressId,
    frete: 'PAC',
    metodo_pagamento: 'pix',
  };
  const orderId = (await payWithPix(request, shopper.token, 'pedido', draft)).pedido_id as number;
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.operator });
  const headers = { authorization: `Token ${(await login.json()).token}` };
  for (const step of [
    { status: 'em separação' },
    { status: 'enviado', codigo_rastreio: 'QB987654326BR' },
    { status: 'entregue' },
  ]) {
    const moved = await request.post(`/api/painel/orders/${orderId}/status/`, { headers, data: step });
    expect(moved.status()).toBe(200);
  }
  return { orderId, shopper, product, entry };
}

test('a buyer returns one unit of a delivered order, gets a posting code; staff receive and refund it', async ({
  page,
  request,
}) => {
  const { orderId, shopper, product, entry } = await deliveredOrder(request);
  await page.addInitScript((t) => localStorage.setItem('token', t), shopper.token);
  await page.goto('/user/pedidos');
  const card = page.getByRole('article', { name: `Pedido ${orderId}` });
  await card.getByRole('button', { name: 'Quero devolver' }).click();
  const form = card.getByRole('form', { name: 'Devolver itens' });
  await form.getByLabel(`Quantidade de ${product.name} (${entry.color.name}, ${entry.size.name})`).fill('1');
  await form.getByRole('button', { name: 'Solicitar devolução' }).click();
  await expect(card.getByRole('status')).toContainText(/Código de postagem: LR\d{9}BR/);
  await expect(card.getByText('Devolução nº', { exact: false }).first()).toBeVisible();
  await expectNoSeriousAxe(page, `#pedido-${orderId}`);

  const staff = await page.context().newPage();
  await signInStaff(staff, STAFF.admin, '/painel/devolucoes');
  const request1 = staff
    .getByRole('article', { name: /^Devolução nº \d+$/ })
    .filter({ hasText: `Pedido nº ${orderId} ·` });
  await expect(request1).toContainText('Código de postagem enviado');
  await expectNoSeriousAxe(staff);
  await request1.getByRole('button', { name: 'Confirmar recebimento' }).click();
  await expect(request1).toContainText('Recebida pela loja');
  await expect(request1).toContainText('voltou ao estoque');
  await request1.getByRole('button', { name: 'Reembolsar' }).click();
  await expect(request1).toContainText('Reembolsada');
  const refunded = (await request1.textContent())?.match(/reembolsado (R\$\s[\d.,]+)/)?.[1];
  expect(refunded).toBeTruthy();

  await page.reload();
  await expect(card.getByText(`Reembolsado ${refunded}`).first()).toBeVisible();
});
