import { formatBRL, reaisToCents } from '@passada/core/money';
import { expect, test } from '@playwright/test';
import { findProducts } from './fixtures.ts';

async function firstEvent(request: import('@playwright/test').APIRequestContext) {
  const events = (await (await request.get('/api/events/')).json()) as Array<{
    id: number;
    nome_evento: string;
  }>;
  if (!events[0]) throw new Error('the demo events are missing');
  return events[0];
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a product page arrives with its name and price', async ({ page, request }) => {
    const [product] = await findProducts(request);
    const html = await (await request.get(`/produto/${product!.id}`)).text();
    expect(html).toContain(formatBRL(reaisToCents(product!.price)));
    await page.goto(`/produto/${product!.id}`);
    await expect(page.getByRole('heading', { level: 1, name: product!.name })).toBeVisible();
    await expect(
      page
        .getByRole('main')
        .getByText(formatBRL(reaisToCents(product!.price)))
        .first(),
    ).toBeVisible();
  });

  test('the event, category and home pages arrive with their content', async ({ page, request }) => {
    const event = await firstEvent(request);
    await page.goto(`/eventos/register/${event.id}`);
    await expect(page.getByRole('heading', { level: 1, name: event.nome_evento })).toBeVisible();
    const [woman] = await findProducts(request, '/api/products/category/feminino/');
    await page.goto('/feminino');
    await expect(page.getByRole('main').getByText(woman!.name).first()).toBeVisible();
    await page.goto('/');
    await expect(
      page.getByRole('region', { name: 'Em destaque' }).getByRole('listitem').first(),
    ).toBeVisible();
    await page.goto('/eventos');
    await expect(page.getByRole('heading', { name: event.nome_evento }).first()).toBeVisible();
  });

  test('/topavaliados arrives with every product, the best rated first', async ({ page, request }) => {
    const products = await findProducts(request);
    const best = [...products].sort((a, b) => b.rating - a.rating || a.id - b.id);
    const html = await (await request.get('/topavaliados')).text();
    expect(html).toContain('<script type="application/json" id="server-data">');
    await page.goto('/topavaliados');
    await expect(page.getByRole('heading', { level: 1, name: 'Top Avaliados' })).toBeVisible();
    const cards = page.getByRole('main').getByRole('listitem');
    await expect(cards).toHaveCount(products.length);
    await expect(cards.first().getByRole('heading', { name: best[0]!.name })).toBeVisible();
    await expect(cards.last().getByRole('heading', { name: best.at(-1)!.name })).toBeVisible();
  });
});

test('server-rendered pages hydrate without a mismatch and navigate in the browser', async ({
  page,
  request,
  baseURL,
}) => {
  // React reports a mismatch as an uncaught error (production builds: "Minified React error #418").
  const messages: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') messages.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const [product] = await findProducts(request);
  const event = await firstEvent(request);
  // What only the browser knows (a saved cart, the dark theme) must not make its first render differ.
  const entry = product!.stock[0]!;
  const line = {
    id: product!.id,
    name: product!.name,
    price: product!.price,
    image: product!.images[0] ?? '',
    quantity: 2,
    size: entry.size.id,
    color: entry.color.id,
    product_size: entry.size.name,
    product_color: entry.color.name,
  };
  await page.addInitScript(
    ({ saved, shop }) => {
      // Only the shop's own pages: embedded maps and sandboxed frames may not touch storage.
      if (location.origin !== shop || window !== window.top) return;
      localStorage.setItem('cart', saved);
      localStorage.setItem('theme', 'dark');
    },
    { saved: JSON.stringify([line]), shop: new URL(baseURL!).origin },
  );
  for (const url of [
    '/',
    `/produto/${product!.id}`,
    `/eventos/register/${event.id}`,
    '/feminino',
    '/topavaliados',
    '/eventos',
  ]) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    // Each answer carried its data for the browser to start from.
    await expect(page.locator('script#server-data')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Carrinho: 2 itens' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Tema escuro' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Lojas' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Lojas' })).toBeVisible();
    // The new page came from the router, not from the server: the first page's data is still there.
    await expect(page.locator('script#server-data')).toHaveCount(1);
  }
  expect(pageErrors).toEqual([]);
  expect(messages.filter((m) => /hydrat|did not match|server rendered|React error/i.test(m))).toEqual([]);
});
