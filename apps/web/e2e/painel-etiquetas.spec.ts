import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { isS10Code } from '@passada/core/s10';
import { expect, test } from '@playwright/test';
import { generateLabel, paidProductOrder, STAFF, signInStaff } from './fixtures.ts';

test('staff buy and print a paid order’s shipping label, and the customer sees its tracking code', async ({
  page,
  request,
}) => {
  const { orderId, shopper } = await paidProductOrder(request, 'etq');

  await signInStaff(page, STAFF.operator, '/painel/pedidos');
  await page.goto(`/painel/pedidos?busca=${orderId}`);
  await expect(page.getByRole('link', { name: String(orderId), exact: true })).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  const code = await generateLabel(page, orderId);
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

test('cancelling an order before posting cancels its label: staff see "Etiqueta cancelada"', async ({
  page,
  request,
}) => {
  const { orderId } = await paidProductOrder(request, 'etqc');
  await signInStaff(page, STAFF.admin, '/painel/pedidos');
  const code = await generateLabel(page, orderId);

  await page.goto(`/painel/pedidos/${orderId}`);
  const label = page.getByRole('region', { name: 'Etiqueta de envio' });
  await expect(label).toContainText('Etiqueta comprada');
  await expect(label).toContainText(`Rastreio: ${code}`);
  await page.getByLabel('Motivo do cancelamento (opcional)').fill('Cliente desistiu antes do envio');
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Cancelar e devolver o pagamento' }).click();
  await expect(label).toContainText('Etiqueta cancelada', { timeout: 20_000 });
  await expect(label).toContainText(`Rastreio: ${code}`);
  await expect(label.getByRole('alert')).toHaveCount(0);
});
