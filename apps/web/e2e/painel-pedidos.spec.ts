import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Product } from '@passada/core/contracts/catalog';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { createShopper, payWithPix, productWithStock, STAFF, signInStaff } from './fixtures.ts';

/** A buyer who pays a Pix order through the public API, as the shop's checkout does. */
async function paidOrder(request: APIRequestContext, quantity: number) {
  const { product, entry } = await productWithStock(request, '/api/products/', quantity + 1);
  const shopper = await createShopper(request, 'ped');
  const draft = {
    items: [{ product: product.id, quantity, color: entry.color.id, size: entry.size.id }],
    address_id: shopper.addressId,
    frete: 'PAC',
    metodo_pagamento: 'pix',
  };
  const paid = await payWithPix(request, shopper.token, 'pedido', draft);
  return { orderId: paid.pedido_id as number, shopper, product, entry };
}

async function units(request: APIRequestContext, product: Product, colorId: number, sizeId: number) {
  const fresh = (await (await request.get(`/api/products/${product.id}/`)).json()) as Product;
  return fresh.stock.find((s) => s.color.id === colorId && s.size.id === sizeId)!.quantity;
}

test('an operator ships a paid order with a tracking code and the customer sees "enviado"', async ({
  page,
  request,
}) => {
  const { orderId, shopper } = await paidOrder(request, 1);
  expect(orderId).toBeGreaterThan(0);

  await signInStaff(page, STAFF.operator, `/painel/pedidos/${orderId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Pedido nº ${orderId}` })).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Pago');
  // Cancelling returns the payment: an operator does not get the button.
  await expect(page.getByRole('button', { name: 'Cancelar e devolver o pagamento' })).toHaveCount(0);
  await expect(page.getByText('Cancelar e devolver o pagamento é só para administradores.')).toBeVisible();
  await page.getByRole('button', { name: 'Iniciar separação' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Em separação');
  await page.getByLabel('Código de rastreio dos Correios').fill('QB987654326BR');
  await page.getByRole('button', { name: 'Marcar como enviado' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Enviado');
  await expect(page.getByRole('link', { name: 'QB987654326BR' })).toHaveAttribute(
    'href',
    /rastreamento\.correios\.com\.br.*objeto=QB987654326BR/,
  );

  // The list finds it by number.
  await page.goto(`/painel/pedidos?busca=${orderId}`);
  await expect(page.getByRole('link', { name: String(orderId), exact: true })).toBeVisible();

  await page.evaluate((t) => localStorage.setItem('token', t), shopper.token);
  await page.goto('/user/pedidos');
  const card = page.getByRole('article', { name: `Pedido ${orderId}` });
  // The card's status says so, and so does the timeline's current step.
  await expect(card.locator('header').getByText('Enviado', { exact: true })).toBeVisible();
  await expect(
    card.getByRole('list', { name: `Andamento do pedido ${orderId}` }).locator('[aria-current="step"]'),
  ).toHaveText(/^Enviado/);
  await expect(card.getByRole('link', { name: 'QB987654326BR' })).toBeVisible();
});

test('a cancelled paid order is refunded and its stock returns', async ({ page, request }) => {
  const { orderId, shopper, product, entry } = await paidOrder(request, 2);
  const before = await units(request, product, entry.color.id, entry.size.id);

  await signInStaff(page, STAFF.admin, `/painel/pedidos/${orderId}`);
  await expect(page.getByTestId('order-status')).toHaveText('Pago');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByLabel('Motivo do cancelamento (opcional)').fill('Cliente pediu pelo WhatsApp');
  await page.getByRole('button', { name: 'Cancelar e devolver o pagamento' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Cancelado');
  await expect(page.getByTestId('payment-status')).toHaveText('DEVOLVIDA');
  await expect(page.getByTestId('refund')).toContainText('DEVOLVIDO');
  expect(await units(request, product, entry.color.id, entry.size.id)).toBe(before + 2);

  await page.goto(`/painel/pedidos/${orderId}/imprimir`);
  await expect(page.getByRole('region', { name: 'Etiqueta' })).toContainText(shopper.full_name);
});

// Written for the admin; the manager role will take it over once roles are split.
test('a gerente exports the filtered orders as CSV and keeps internal notes on an order', async ({
  page,
  request,
}) => {
  const { orderId, shopper } = await paidOrder(request, 1);
  await signInStaff(page, STAFF.manager, '/painel/pedidos');
  // Signed in once the list shows; then the list filtered by the order's number.
  await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeVisible();
  await page.goto(`/painel/pedidos?busca=${orderId}`);
  await expect(page.getByRole('link', { name: String(orderId), exact: true })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^pedidos-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows: string[][] = parse(readFileSync((await download.path())!), { bom: true, delimiter: ';' });
  expect(rows[0]!.slice(0, 3)).toEqual(['Pedido', 'Data', 'Status']);
  const row = rows.find((r) => r[0] === String(orderId))!;
  expect(row[2]).toBe('Pago');
  expect(row[3]).toBe(shopper.full_name);
  // The same orders' lines, one row each with SKU, colour and size.
  const [itemsFile] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar itens (CSV)' }).click(),
  ]);
  expect(itemsFile.suggestedFilename()).toMatch(/^itens-pedidos-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines: string[][] = parse(readFileSync((await itemsFile.path())!), { bom: true, delimiter: ';' });
  expect(lines[0]!.slice(5, 9)).toEqual(['SKU', 'Produto', 'Cor', 'Tamanho']);
  const first = lines.find((r) => r[0] === String(orderId))!;
  expect(first[5]).toMatch(/^P\d+-C\d+-T\d+$/);

  await page.goto(`/painel/pedidos/${orderId}`);
  await page.getByLabel('Nova nota').fill('Cliente pediu para entregar na portaria.');
  await page.getByRole('button', { name: 'Adicionar nota' }).click();
  const notes = page.getByRole('list', { name: 'Notas internas' });
  await expect(notes).toContainText('Cliente pediu para entregar na portaria.');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
});
