import { expect, test } from '@playwright/test';
import { findProducts } from './fixtures.ts';

test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });

test('a phone gets the product drawing as an AVIF copy sized for its screen, loaded first', async ({
  page,
  request,
}) => {
  const [product] = await findProducts(request);
  await page.goto(`/produto/${product!.id}`);
  const main = page.getByRole('img', { name: `${product!.name}, imagem 1 de ${product!.images.length}` });
  await expect(main).toHaveAttribute('fetchpriority', 'high');
  await expect(main).toHaveAttribute('width', /\d+/);
  await expect(main).toHaveAttribute('height', /\d+/);
  // 390 CSS px at 2x: the 800 px copy, not the SVG.
  await expect
    .poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc))
    .toMatch(/-800\.avif$/);
  // Decoded, and at the density srcset promised: 800 px over the 390 px it is shown at.
  expect(await main.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(390);
});

test('a category page loads its first cards at once and the others when scrolled to', async ({ page }) => {
  await page.goto('/feminino');
  const images = page.getByRole('main').getByRole('listitem').getByRole('img');
  expect(await images.count()).toBeGreaterThan(4);
  await expect(images.first()).toHaveAttribute('loading', 'eager');
  await expect
    .poll(() => images.first().evaluate((img: HTMLImageElement) => img.complete && img.currentSrc))
    .toMatch(/-(200|400|800)\.avif$/);
  await expect(images.last()).toHaveAttribute('loading', 'lazy');
});
