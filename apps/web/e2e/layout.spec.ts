import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import {
  chooseColorAndSize,
  createShopper,
  fillCpfNaNota,
  productWithStock,
  type Shopper,
  signIn,
} from './fixtures.ts';

// Saved for a person to look at after each run (test-results is ignored by git).
const SHOTS = path.resolve(import.meta.dirname, '../test-results/screenshots');
const WIDTHS = [390, 1280] as const;

/** Nothing wider than the window: a cut-off or overflowing block shows as a horizontal scroll. */
async function expectNoSideScroll(page: Page, name: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
}

async function shoot(page: Page, name: string, width: number) {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  await expectNoSideScroll(page, `${name} at ${width} px`);
}

let shopper: Shopper;
let productId = 0;
// A combination still in stock when this file runs: earlier files buy the catalogue's last units.
let inStock = { color: '', size: '' };
let eventId = 0;

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL: baseURL ?? undefined });
  shopper = await createShopper(api, 'tela');
  const { product, entry } = await productWithStock(api, '/api/products/', 1);
  productId = product.id;
  inStock = { color: entry.color.name, size: entry.size.name };
  const events = (await (await api.get('/api/events/')).json()) as Array<{
    id: number;
    dias_evento: unknown[];
  }>;
  eventId = events.find((e) => e.dias_evento.length > 1)?.id ?? events[0]?.id ?? 0;
  await api.dispose();
});

for (const width of WIDTHS) {
  test(`the main pages at ${width} px: nothing cut off or scrolling sideways`, async ({ page }) => {
    // Eight pages, each waited on until the network is quiet and photographed whole: on a loaded
    // machine that has taken more than the default minute.
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    // The map's page is answered here: no test reaches the internet.
    await page.route('https://www.openstreetmap.org/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>OpenStreetMap</p>' }),
    );
    const pages: Array<[string, string]> = [
      ['inicio', '/'],
      ['feminino', '/feminino'],
      ['produto', `/produto/${productId}`],
      ['pesquisa', '/pesquisa'],
      ['eventos', '/eventos'],
      ['evento', `/eventos/register/${eventId}`],
      ['lojas', '/lojas'],
      ['sobre', '/sobrenos'],
    ];
    for (const [name, url] of pages) {
      await page.goto(url);
      await shoot(page, name, width);
    }
    // The links to the shop's spaces stay on one line each.
    await page.goto('/');
    const more = page.getByRole('link', { name: 'Espaço Feminino', exact: true });
    const box = await more.boundingBox();
    expect(box?.height ?? 0).toBeLessThan(48);
  });

  test(`a signed-in buyer's pages at ${width} px: nothing cut off or scrolling sideways`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await signIn(page, shopper.token);
    await page.goto('/enderecos');
    await expect(page.getByText('CEP 60165-121', { exact: true })).toBeVisible();
    await shoot(page, 'enderecos', width);
    // CEP and phone never break in the middle of the number.
    for (const text of ['CEP 60165-121', '(85) 98888-7777']) {
      const line = await page.getByText(text, { exact: true }).boundingBox();
      expect(line?.height ?? 0, text).toBeLessThan(30);
    }
    await page.goto(`/produto/${productId}`);
    await chooseColorAndSize(page, inStock.color, inStock.size);
    await page.getByRole('button', { name: 'Comprar agora' }).click();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByRole('radio', { name: /^PAC/ }).check();
    await fillCpfNaNota(page);
    await page.getByRole('radio', { name: 'Cartão de crédito' }).check();
    await shoot(page, 'revisar-pedido', width);
    await page.goto('/user');
    await shoot(page, 'conta', width);
    await page.goto(`/eventos/register/${eventId}/ja-me-inscrevi`);
    await shoot(page, 'ja-me-inscrevi', width);
  });
}

test('signed in at 1024 px the header stays on one row', async ({ page }) => {
  await signIn(page, shopper.token);
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('link', { name: /^Bem-vindo,/ })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'cabecalho-1024.png') });
  const header = await page.getByRole('banner').boundingBox();
  expect(header?.height ?? 999).toBeLessThan(80);
  await expectNoSideScroll(page, 'header at 1024 px');
});
