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

test("the cards' pictures fill their box, with no band beside them, in both themes", async ({ page }) => {
  await page.goto('/feminino');
  const images = page.getByRole('main').getByRole('listitem').getByRole('img');
  const first = images.first();
  await expect
    .poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  // The picture's own shape is the box's: object-fit leaves nothing of the box's background showing.
  const shapes = () =>
    first.evaluate((img: HTMLImageElement) => ({
      picture: img.naturalWidth / img.naturalHeight,
      box: img.clientWidth / img.clientHeight,
    }));
  const light = await shapes();
  expect(light.picture).toBeCloseTo(light.box, 2);
  await page.getByRole('button', { name: 'Tema escuro' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  const dark = await shapes();
  expect(dark.picture).toBeCloseTo(dark.box, 2);
});

test('each server-rendered page preloads the image it paints largest, and the phone shows that very copy', async ({
  page,
  request,
}) => {
  const preload = page.locator('head link[rel="preload"][as="image"][fetchpriority="high"]');
  const [woman] = await findProducts(request, '/api/products/category/feminino/');
  const [product] = await findProducts(request);
  const events = (await (await request.get('/api/events/')).json()) as Array<{
    id: number;
    imagem_evento: string;
  }>;

  // A grid: the first card's drawing, its AVIF copies at the card's width; the card shows one of them.
  await page.goto('/feminino');
  await expect(preload).toHaveCount(1);
  const cardImage = woman!.images[0]!.replace(/\.svg$/, '');
  await expect(preload).toHaveAttribute('imagesrcset', new RegExp(`^${cardImage}-200\\.avif 200w`));
  const card = page.getByRole('main').getByRole('listitem').first().getByRole('img');
  await expect
    .poll(() => card.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc))
    .toContain(cardImage);
  const shown = new URL(await card.evaluate((img: HTMLImageElement) => img.currentSrc)).pathname;
  expect(await preload.getAttribute('imagesrcset')).toContain(`${shown} `);

  // A product: its main image at the gallery's sizes.
  await page.goto(`/produto/${product!.id}`);
  await expect(preload).toHaveCount(1);
  await expect(preload).toHaveAttribute(
    'imagesrcset',
    new RegExp(product!.images[0]!.replace(/\.svg$/, '-800\\.avif')),
  );
  await expect(preload).toHaveAttribute('imagesizes', /100vw$/);

  // An event: its poster; the home page: the banner's poster.
  await page.goto(`/eventos/register/${events[0]!.id}`);
  await expect(preload).toHaveAttribute('href', events[0]!.imagem_evento);
  await page.goto('/');
  await expect(preload).toHaveAttribute('href', '/media/banner-poster.svg');
});
