import { expect, test } from '@playwright/test';
import { findProducts } from './fixtures.ts';

/** The JSON-LD blocks of the HTML the server sent, before any JavaScript ran. */
function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? '{}') as Record<string, unknown>,
  );
}

test('a product page arrives with its title, preview image and Product JSON-LD', async ({
  page,
  request,
}) => {
  const [product] = await findProducts(request);
  if (!product) throw new Error('the demo catalogue is empty');
  const response = await page.goto(`/produto/${product.id}`);
  expect(response?.status()).toBe(200);
  const html = (await response?.text()) ?? '';
  expect(html).toContain(`<title>${product.name} | Passada</title>`);
  const [ld] = jsonLd(html);
  expect(ld).toMatchObject({ '@type': 'Product', name: product.name, offers: { priceCurrency: 'BRL' } });
  await expect(page.getByRole('heading', { name: product.name })).toBeVisible();

  const image = await request.get(`/api/media/og/produto/${product.id}.png`);
  expect(image.headers()['content-type']).toBe('image/png');
});

test('an event page arrives with its SportsEvent JSON-LD', async ({ page, request }) => {
  const events = (await (await request.get('/api/events/')).json()) as Array<{
    id: number;
    nome_evento: string;
  }>;
  const event = events[0];
  if (!event) throw new Error('the demo events are missing');
  const response = await page.goto(`/eventos/register/${event.id}`);
  const [ld] = jsonLd((await response?.text()) ?? '');
  expect(ld).toMatchObject({
    '@type': 'SportsEvent',
    name: event.nome_evento,
    eventStatus: 'https://schema.org/EventScheduled',
  });
});

test('unknown addresses and products answer 404 and show the 404 page', async ({ page }) => {
  for (const url of ['/essa-pagina-nao-existe', '/produto/999999']) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(404);
  }
  await page.goto('/essa-pagina-nao-existe');
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
});

test('the sitemap lists every product', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const product of await findProducts(request))
    expect(sitemap).toContain(`/produto/${product.id}</loc>`);
});
