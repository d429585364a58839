import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { isS10Code } from '@passada/core/s10';
import { expect, test } from '@playwright/test';
import { createShopper, payWithPix, productWithStock, STAFF, signInStaff } from './fixtures.ts';

test('staff buy and print a paid order’s shipping label, and the customer sees its tracking code', async ({
  page,
  request,
}) => {
  const { product, entry } = await productWithStock(request, '/api/products/', 2);
  const shopper = await createShopper(request, 'etq');
  const paid = await payWithPix(request, shopper.token, 'pedido', {
    items: [{ product: product.id, quantity: 1, color: entry.color.id, size: entry.size.id }],
    address_id: shopper.addressId,
    frete: 'PAC',
    metodo_pagamento: 'pix',
  });
  const orderId = paid.pedido_id as number;

  await signInStaff(page, STAFF.operator, '/painel/pedidos');
  await page.goto(`/painel/pedidos?busca=${orderId}`);
  await expect(page.getByRole('link', { name: String(orderId), exact: true })).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  await page.getByRole('checkbox', { name: `Selecionar pedido nº ${orderId}` }).check();
  await page.getByRole('button', { name: 'Gerar etiquetas' }).click();
  const result = page.getByRole('status', { name: 'Etiquetas' });
  await expect(result).toContainText(`Pedido nº ${orderId}: etiqueta comprada, rastreio`);
  const code = /rastreio ([A-Z]{2}\d{9}[A-Z]{2})/.exec((await result.textContent()) ?? '')?.[1] ?? '';
  expect(isS10Code(code)).toBe(true);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Imprimir etiquetas' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^etiquetas-\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdf = readFileSync((await file.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.includes(Buffer.from(code))).toBe(true);

  // The order's page offers the label's code when staff mark it shipped.
  await page.goto(`/painel/pedidos/${orderId}`);
  await expect(page.getByRole('link', { name: code })).toBeVisible();

  await page.evaluate((t) => localStorage.setItem('token', t), shopper.token);
  await page.goto('/user/pedidos');
  const card = page.getByRole('article', { name: `Pedido ${orderId}` });
  await expect(card.getByRole('link', { name: code })).toHaveAttribute('href', new RegExp(`objeto=${code}`));
});
