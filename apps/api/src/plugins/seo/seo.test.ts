import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SHOP_ROUTES } from '@passada/core/routes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../db/schema/index.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const BASE = 'https://loja.example.com.br';

/** Every JSON-LD block of a page, parsed. */
function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}
const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:name|property)="${key.replace(/[:+]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1];

describe('search engines and link previews', () => {
  let t: TestApp;
  let dist: string;
  let shirt: MadeProduct;
  let soldOut: MadeProduct;
  let hiddenOne: MadeProduct;
  let race: MadeEvent;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'passada-dist-'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><meta name="description" content="padrão"><title>Passada</title></head><body><div id="root"></div></body></html>',
    );
    t = await createTestApp({ env: { WEB_DIST: dist, PUBLIC_URL: BASE } });
    shirt = await makeProduct(t.app.db, {
      name: 'Camiseta Brisa do Mar',
      category: 'feminino',
      priceCents: 8990,
      stock: [{ color: 'Azul', size: 'M', quantity: 4 }],
    });
    hiddenOne = await makeProduct(t.app.db, {
      name: 'Viseira Recolhida',
      category: 'acessorios',
      stock: [{ color: 'Preto', size: 'U', quantity: 2 }],
    });
    await t.app.db.update(products).set({ hidden: true }).where(eq(products.id, hiddenOne.id));
    soldOut = await makeProduct(t.app.db, {
      name: 'Boné Mandacaru',
      category: 'acessorios',
      stock: [{ color: 'Preto', size: 'U', quantity: 0 }],
    });
    race = await makeEvent(t.app.db, {
      name: 'Corrida da Ponte Metálica',
      city: 'Fortaleza',
      state: 'CE',
      startDate: '2027-03-14',
      registrationDeadline: '2027-03-10',
      today: '2027-01-10',
      days: [
        [
          { name: '5 km', priceCents: 7000, placesLeft: 10 },
          { name: '10 km', priceCents: 9000, placesLeft: 0 },
        ],
      ],
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('writes a product page’s title, description, canonical, previews and Product + BreadcrumbList JSON-LD', async () => {
    const res = await get(`/produto/${shirt.id}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<title>Camiseta Brisa do Mar | Passada</title>');
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(meta(html, 'description')).toMatch(/R\$\s89,90/);
    expect(html).toContain(`<link rel="canonical" href="${BASE}/produto/${shirt.id}">`);
    expect(meta(html, 'og:image')).toBe(`${BASE}/api/media/og/produto/${shirt.id}.png`);
    expect(meta(html, 'og:image:width')).toBe('1200');
    expect(meta(html, 'product:price:amount')).toBe('89.90');
    expect(meta(html, 'product:availability')).toBe('in stock');
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');

    const [product, crumbs] = jsonLd(html);
    expect(product).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Camiseta Brisa do Mar',
      sku: String(shirt.id),
      offers: {
        '@type': 'Offer',
        price: '89.90',
        priceCurrency: 'BRL',
        availability: 'https://schema.org/InStock',
        url: `${BASE}/produto/${shirt.id}`,
      },
    });
    expect(crumbs).toMatchObject({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { position: 1, name: 'Início', item: `${BASE}/` },
        { position: 2, name: 'Feminino', item: `${BASE}/feminino` },
        { position: 3, name: 'Camiseta Brisa do Mar', item: `${BASE}/produto/${shirt.id}` },
      ],
    });

    const [sold] = jsonLd((await get(`/produto/${soldOut.id}`)).body);
    expect(sold).toMatchObject({ offers: { availability: 'https://schema.org/OutOfStock' } });
  });

  it('writes an event page’s SportsEvent with zoned start, address, organizer, status and one offer per category', async () => {
    const res = await get(`/eventos/register/${race.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Corrida da Ponte Metálica | Passada</title>');
    expect(meta(res.body, 'og:image')).toBe(`${BASE}/api/media/og/evento/${race.id}.png`);
    const [event, crumbs] = jsonLd(res.body);
    expect(event).toMatchObject({
      '@type': 'SportsEvent',
      name: 'Corrida da Ponte Metálica',
      eventStatus: 'https://schema.org/EventScheduled',
      location: {
        '@type': 'Place',
        address: {
          '@type': 'PostalAddress',
          addressLocality: 'Fortaleza',
          addressRegion: 'CE',
          addressCountry: 'BR',
        },
      },
      organizer: { '@type': 'Organization' },
    });
    expect(event!.startDate).toMatch(/^2027-03-14T\d\d:\d\d:00-03:00$/);
    const offers = event!.offers as Array<Record<string, unknown>>;
    expect(offers).toHaveLength(2);
    expect(offers[0]).toMatchObject({
      price: '70.00',
      priceCurrency: 'BRL',
      validThrough: '2027-03-10T23:59:00-03:00',
    });
    expect(offers[1]).toMatchObject({ price: '90.00', availability: 'https://schema.org/SoldOut' });
    expect(crumbs).toMatchObject({ '@type': 'BreadcrumbList' });
  });

  it('describes the shop on /lojas as a Store with address and opening hours', async () => {
    const [store] = jsonLd((await get('/lojas')).body);
    expect(store).toMatchObject({
      '@type': 'Store',
      address: { '@type': 'PostalAddress', addressLocality: 'Fortaleza', postalCode: '60165-121' },
    });
    expect(store!.openingHoursSpecification).toEqual(
      expect.arrayContaining([expect.objectContaining({ opens: '09:00', closes: '11:30' })]),
    );
  });

  it('answers 200 for every route of the web app’s table (apps/web/src/app/router.tsx)', async () => {
    const routes = [
      '/',
      '/feminino',
      '/masculino',
      '/acessorios',
      '/topavaliados',
      `/produto/${shirt.id}`,
      '/pesquisa',
      '/sobrenos',
      '/lojas',
      '/teste',
      '/login',
      '/criarconta',
      '/login/recuperar-senha',
      '/login/redefinir-senha',
      '/login/acesso',
      '/fechar-pedido',
      '/pagar',
      '/eventos',
      `/eventos/register/${race.id}`,
      `/eventos/register/${race.id}/ja-me-inscrevi`,
      `/eventos/regulamento/${race.id}`,
      '/user',
      '/user/pessoal-data',
      '/user/pedidos',
      '/user/corredora',
      '/enderecos',
      '/adicionar-endereco',
      '/editar-endereco/3',
      '/revisar-pedido',
      `/eventos/register/${race.id}/finalizar`,
      `/produto/${shirt.id}/`,
    ];
    for (const url of routes) expect((await get(url)).statusCode, url).toBe(200);
  });

  it('answers 200 for every page of the route table the web app is built from', async () => {
    // The shop's table (@passada/core/routes: the web router's type asks for every path of it) and
    // the back office's own routes, read from its file.
    const web = path.resolve(import.meta.dirname, '../../../../web/src');
    const painel = [
      ...readFileSync(path.join(web, 'features/painel/shell/painel-app.tsx'), 'utf8').matchAll(
        /path[:=] ?['"]([^'"*]+)['"]/g,
      ),
    ].map((m) => `/painel/${m[1]!.replace(/^\//, '')}`);
    // A runner's result page exists only for a published bib (results.test.ts checks its head).
    const shop = SHOP_ROUTES.map((r) => r.path).filter(
      (p) => p !== '*' && p !== '/eventos/resultados/:id/:numero',
    );
    const urls = [...shop, ...painel].map(
      (u) =>
        u
          .replace(/^\/produto\/:id/, `/produto/${shirt.id}`)
          .replace(/^\/eventos\/register\/:id/, `/eventos/register/${race.id}`)
          .replace(/^\/eventos\/regulamento\/:id/, `/eventos/regulamento/${race.id}`)
          .replace(/^\/eventos\/resultados\/:id/, `/eventos/resultados/${race.id}`)
          .replace(/:username/, 'corredora')
          .replace(/:id/g, '3')
          .replace(/\*$/, 'produtos')
          .replace(/\/$/, '') || '/',
    );
    expect(urls).toContain('/painel/login');
    expect(urls.length).toBeGreaterThan(30);
    for (const url of urls) expect((await get(url)).statusCode, url).toBe(200);
    // And the head each gets is the table's: a fixed page's title, the product's and the event's names.
    for (const [route, title] of [
      ['/lojas', 'Nossa loja'],
      [`/produto/${shirt.id}`, shirt.name],
      [`/eventos/regulamento/${race.id}`, 'Regulamento: Corrida da Ponte Metálica'],
    ] as const) {
      expect((await get(route)).body, route).toContain(`<title>${title} | Passada</title>`);
    }
  });

  it('answers 404 with the app for unknown pages, products and events', async () => {
    for (const url of [
      '/nao-existe',
      '/produto/999999',
      '/eventos/register/999999',
      '/eventos/regulamento/0',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('<div id="root">');
      expect(res.body, url).not.toContain('rel="canonical"');
    }
  });

  it('lists every product and event page in the sitemap, with lastmod', async () => {
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const urls = [...res.body.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)];
    const locs = urls.map((m) => m[1]);
    for (const p of [shirt, soldOut]) expect(locs).toContain(`${BASE}/produto/${p.id}`);
    // A product the back office hid answers 404: never sent to search engines.
    expect(locs).not.toContain(`${BASE}/produto/${hiddenOne.id}`);
    expect(locs).toContain(`${BASE}/eventos/register/${race.id}`);
    for (const page of ['/', '/feminino', '/masculino', '/acessorios', '/eventos', '/sobrenos', '/lojas'])
      expect(locs).toContain(`${BASE}${page}`);
    for (const [, , lastmod] of urls) expect(Number.isNaN(Date.parse(lastmod!))).toBe(false);
  });

  it('points robots at the sitemap and away from private pages', async () => {
    const res = await get('/robots.txt');
    expect(res.body).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    expect(res.body).toContain('Disallow: /user');
  });

  it('draws the link previews of a product and an event as 1200×630 PNGs', async () => {
    for (const url of [`/api/media/og/produto/${shirt.id}.png`, `/api/media/og/evento/${race.id}.png`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const png = res.rawPayload;
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    }
    expect((await get('/api/media/og/produto/999999.png')).statusCode).toBe(404);
  });
});
