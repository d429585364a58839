import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import {
  createShopper,
  paidRegistration,
  payWithPix,
  productWithStock,
  STAFF,
  signInStaff,
} from './fixtures.ts';

async function noSeriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

test('a financeiro opens Relatórios and reads an event’s money, its chart and table of registrations per day', async ({
  page,
  request,
}) => {
  const { event } = await paidRegistration(request, { nome_completo: 'Rita Relatório' });

  await signInStaff(page, STAFF.finance, '/painel/relatorios');
  await expect(page.getByRole('heading', { level: 1, name: 'Relatórios' })).toBeVisible();
  const perEvent = page.getByRole('table', { name: 'Dinheiro por evento' });
  await expect(perEvent.getByRole('rowheader', { name: event.nome_evento })).toBeVisible();
  // The event's net in the list is the net its report shows.
  const net = await perEvent
    .getByRole('row', { name: event.nome_evento })
    .getByRole('cell')
    .last()
    .textContent();
  expect(net).toMatch(/^R\$\s?[\d.]+,\d{2}$/);
  await page.getByLabel('Evento do relatório').selectOption(String(event.id));
  await expect(page.getByRole('heading', { level: 2, name: event.nome_evento })).toBeVisible();
  const figures = page.getByRole('term').filter({ hasText: 'Líquido' }).locator('xpath=..');
  await expect(figures.getByRole('definition')).toHaveText(net!);
  await expect(page.getByRole('table', { name: 'Dinheiro por forma de pagamento' })).toContainText('Pix');
  await expect(page.getByRole('img', { name: /^Inscrições por dia/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Inscrições por dia' }).getByRole('row')).not.toHaveCount(1);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar relatório (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`relatorio-evento-${event.id}.csv`);
  await noSeriousViolations(page);
});

test('the dashboard passes axe', async ({ page }) => {
  await signInStaff(page, STAFF.admin, '/painel');
  await expect(page.getByRole('heading', { level: 1, name: /^Olá/ })).toBeVisible();
  await expect(page.getByText('Carregando resumo…')).toHaveCount(0);
  await expect(page.getByRole('img', { name: 'Vendas por dia nos últimos 30 dias' })).toBeVisible();
  await noSeriousViolations(page);
});

test('staff open an order’s packing slip with sender, SKU and the barcode of its number', async ({
  page,
  request,
}) => {
  const { product, entry } = await productWithStock(request, '/api/products/', 2);
  const shopper = await createShopper(request, 'romaneio');
  const paid = await payWithPix(request, shopper.token, 'pedido', {
    items: [{ product: product.id, quantity: 1, color: entry.color.id, size: entry.size.id }],
    address_id: shopper.addressId,
    frete: 'PAC',
    metodo_pagamento: 'pix',
  });
  const orderId = paid.pedido_id as number;

  await signInStaff(page, STAFF.manager, `/painel/pedidos/${orderId}`);
  await page.getByRole('link', { name: 'Imprimir romaneio e etiqueta' }).click();
  const slip = page.getByRole('region', { name: `Romaneio – pedido nº ${orderId}` });
  await expect(slip.getByRole('img', { name: `Código de barras do pedido nº ${orderId}` })).toBeVisible();
  await expect(slip).toContainText('Remetente');
  await expect(slip).toContainText(shopper.full_name);
  const items = slip.getByRole('table', { name: 'Itens a separar' });
  await expect(items).toContainText(`P${product.id}-C${entry.color.id}-T${entry.size.id}`);
  await expect(items).toContainText(product.name);
  await noSeriousViolations(page);
});
