import { expect, test } from '@playwright/test';
import {
  createShopper,
  expectNoSeriousAxe,
  findProducts,
  payWithPix,
  STAFF,
  signInStaff,
} from './fixtures.ts';

test('a buyer exchanges one unit for another size; staff mark it posted, receive it and ship the exchange', async ({
  page,
  request,
}) => {
  // A product with one combination to buy and another in stock to exchange for.
  let found: { product: Awaited<ReturnType<typeof findProducts>>[number]; from: number; to: number } | null =
    null;
  for (const product of await findProducts(request)) {
    const from = product.stock.findIndex((s) => s.quantity >= 2);
    const to = product.stock.findIndex((s, i) => i !== from && s.quantity >= 1);
    if (from >= 0 && to >= 0) {
      found = { product, from, to };
      break;
    }
  }
  if (!found) throw new Error('no product with two combinations in stock in the demo catalogue');
  const { product } = found;
  const entry = product.stock[found.from]!;
  const other = product.stock[found.to]!;
  const shopper = await createShopper(request, 'troca');
  const draft = {
    items: [{ product: product.id, quantity: 1, color: entry.color.id, size: entry.size.id }],
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
  ])
    expect(
      (await request.post(`/api/painel/orders/${orderId}/status/`, { headers, data: step })).status(),
    ).toBe(200);

  await page.addInitScript((t) => localStorage.setItem('token', t), shopper.token);
  await page.goto('/user/pedidos');
  const card = page.getByRole('article', { name: `Pedido ${orderId}` });
  await card.getByRole('button', { name: 'Quero trocar' }).click();
  const form = card.getByRole('form', { name: 'Trocar itens' });
  await form.getByLabel('Trocar por').selectOption(`${other.color.id}-${other.size.id}`);
  await form.getByRole('button', { name: 'Solicitar troca' }).click();
  await expect(card.getByRole('status')).toContainText(/Troca nº \d+ solicitada: a nova peça está reservada/);
  await expect(card.getByText(`1 × ${product.name} (${other.color.name}, ${other.size.name})`)).toBeVisible();
  await expectNoSeriousAxe(page, `#pedido-${orderId}`);

  const staff = await page.context().newPage();
  await signInStaff(staff, STAFF.admin, '/painel/devolucoes');
  const exchange = staff
    .getByRole('article', { name: /^Troca nº \d+$/ })
    .filter({ hasText: `Pedido nº ${orderId} ·` });
  await exchange.getByRole('button', { name: 'Marcar como postada' }).click();
  await expect(exchange).toContainText('Troca nº');
  await expect(exchange.getByRole('heading')).toContainText('Postada');
  await exchange.getByRole('button', { name: 'Confirmar recebimento' }).click();
  await expect(exchange.getByRole('heading')).toContainText('Recebida pela loja');
  await exchange.getByRole('textbox', { name: /^Código de rastreio da troca/ }).fill('JT123456785BR');
  await exchange.getByRole('button', { name: 'Enviar troca' }).click();
  await expect(exchange.getByRole('heading')).toContainText('Trocada');
  await expectNoSeriousAxe(staff);

  await page.reload();
  await expect(card.getByText('JT123456785BR')).toBeVisible();
  await card.getByText(/^Histórico da solicitação nº/).click();
  await expect(card.getByRole('listitem').filter({ hasText: /^Postada em/ })).toBeVisible();
});
