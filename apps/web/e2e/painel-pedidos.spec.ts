import type { Product } from '@passada/core/contracts/catalog';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { productWithStock } from './fixtures.ts';

const OPERATOR = { email: 'operador@passada.com.br', password: 'painel-demo-2026' };

/** A buyer who pays a Pix order through the public API, as the shop's checkout does. */
async function paidOrder(request: APIRequestContext, quantity: number) {
  const { product, entry } = await productWithStock(request, '/api/products/', quantity + 1);
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const account = {
    username: `ped${suffix}`,
    email: `ped${suffix}@example.com`,
    full_name: 'Iracema Bezerra',
    password: 'pedido-no-painel-7',
  };
  expect((await request.post('/api/users/', { data: account })).ok()).toBe(true);
  const { token } = await (
    await request.post('/api/token-auth/', {
      data: { username: account.username, password: account.password },
    })
  ).json();
  const headers = { authorization: `Token ${token}` };
  const address = await request.post('/api/users/addresses/', {
    headers,
    data: {
      full_name: account.full_name,
      zip_code: '60165-121',
      state: 'CE',
      city: 'Fortaleza',
      neighborhood: 'Meireles',
      street: 'Av. Beira Mar, 300',
      phone: '85988887777',
      is_primary: true,
    },
  });
  const draft = {
    items: [{ product: product.id, quantity, color: entry.color.id, size: entry.size.id }],
    address_id: (await address.json()).id as number,
    frete: 'PAC',
    metodo_pagamento: 'pix',
  };
  const pay = (total: number) =>
    request.post('/api/pagar-pix/', {
      headers,
      data: { total, descricao: 'Pedido', finalidade: 'pedido', pedido: draft },
    });
  const total = (await (await pay(0.01)).json()).total_correto as number;
  const { txid } = await (await pay(total)).json();
  const paid = await (await request.post(`/api/simulador/pix/${txid}/pagar`, { headers })).json();
  return { orderId: paid.pedido_id as number, token, product, entry };
}

async function signIn(page: Page, next: string) {
  await page.goto(next);
  await page.getByLabel('E-mail').fill(OPERATOR.email);
  await page.getByLabel('Senha').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

async function units(request: APIRequestContext, product: Product, colorId: number, sizeId: number) {
  const fresh = (await (await request.get(`/api/products/${product.id}/`)).json()) as Product;
  return fresh.stock.find((s) => s.color.id === colorId && s.size.id === sizeId)!.quantity;
}

test('an operator ships a paid order with a tracking code and the customer sees "enviado"', async ({
  page,
  request,
}) => {
  const { orderId, token } = await paidOrder(request, 1);
  expect(orderId).toBeGreaterThan(0);

  await signIn(page, `/painel/pedidos/${orderId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Pedido nº ${orderId}` })).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Pago');
  await page.getByRole('button', { name: 'Iniciar separação' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Em separação');
  await page.getByLabel('Código de rastreio dos Correios').fill('QB987654321BR');
  await page.getByRole('button', { name: 'Marcar como enviado' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Enviado');
  await expect(page.getByRole('link', { name: 'QB987654321BR' })).toHaveAttribute(
    'href',
    /rastreamento\.correios\.com\.br.*objeto=QB987654321BR/,
  );

  // The list finds it by number.
  await page.goto(`/painel/pedidos?busca=${orderId}`);
  await expect(page.getByRole('link', { name: String(orderId), exact: true })).toBeVisible();

  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto('/user/pedidos');
  const card = page.getByRole('article', { name: `Pedido ${orderId}` });
  await expect(card.getByText('Enviado', { exact: true })).toBeVisible();
  await expect(card.getByRole('link', { name: 'QB987654321BR' })).toBeVisible();
});

test('a cancelled paid order is refunded and its stock returns', async ({ page, request }) => {
  const { orderId, product, entry } = await paidOrder(request, 2);
  const before = await units(request, product, entry.color.id, entry.size.id);

  await signIn(page, `/painel/pedidos/${orderId}`);
  await expect(page.getByTestId('order-status')).toHaveText('Pago');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByLabel('Motivo do cancelamento (opcional)').fill('Cliente pediu pelo WhatsApp');
  await page.getByRole('button', { name: 'Cancelar e devolver o pagamento' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Cancelado');
  await expect(page.getByTestId('payment-status')).toHaveText('DEVOLVIDA');
  await expect(page.getByTestId('refund')).toContainText('DEVOLVIDO');
  expect(await units(request, product, entry.color.id, entry.size.id)).toBe(before + 2);

  await page.goto(`/painel/pedidos/${orderId}/imprimir`);
  await expect(page.getByRole('region', { name: 'Etiqueta' })).toContainText('Iracema Bezerra');
});
