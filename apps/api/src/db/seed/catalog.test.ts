import { type Product, ProductListSchema } from '@passada/core/contracts/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { seedCatalog } from './catalog.ts';

describe('demo catalogue seed', () => {
  let t: TestApp;
  let products: Product[];
  let seedMs: number;

  beforeAll(async () => {
    t = await createTestApp();
    const started = performance.now();
    await seedCatalog(t.database.db);
    seedMs = performance.now() - started;
    products = ProductListSchema.parse((await t.app.inject({ method: 'GET', url: '/api/products/' })).json());
  });
  afterAll(() => t.close());

  it('is quick: a few batched statements', () => {
    // The target is < 2 s; the bound leaves room for a busy test machine.
    expect(seedMs).toBeLessThan(4000);
  });

  it('has at least 24 products, 6 or more per category, 6 or more per gender on the home page', () => {
    expect(products.length).toBeGreaterThanOrEqual(24);
    for (const category of ['feminino', 'masculino', 'acessorios'] as const) {
      expect(products.filter((p) => p.category === category).length, category).toBeGreaterThanOrEqual(6);
    }
    for (const gender of ['feminino', 'masculino'] as const) {
      const home = products.filter((p) => p.category === gender && p.aparecer_home);
      expect(home.length, gender).toBeGreaterThanOrEqual(6);
    }
    expect(new Set(products.map((p) => p.name)).size).toBe(products.length);
  });

  it('sells apparel in P, M, G, GG in 2 to 4 colours, every product with some stock', () => {
    for (const p of products) {
      const colors = new Set(p.stock.map((s) => s.color.name));
      const sizes = [...new Set(p.stock.map((s) => s.size.name))];
      expect(colors.size, p.name).toBeGreaterThanOrEqual(2);
      expect(colors.size, p.name).toBeLessThanOrEqual(4);
      expect(p.stock.length, p.name).toBe(colors.size * sizes.length);
      if (p.category !== 'acessorios') expect(sizes, p.name).toEqual(['P', 'M', 'G', 'GG']);
      expect(
        p.stock.some((s) => s.quantity > 0),
        p.name,
      ).toBe(true);
      expect(p.price, p.name).toBeGreaterThan(0);
      expect(p.rating, p.name).toBeGreaterThanOrEqual(0);
      expect(p.rating, p.name).toBeLessThanOrEqual(5);
      expect(p.description.length, p.name).toBeGreaterThan(60);
    }
    expect(products.some((p) => p.stock.some((s) => s.size.name === 'Único'))).toBe(true);
  });

  it('has sold-out combinations and last-unit combinations', () => {
    const quantities = products.flatMap((p) => p.stock.map((s) => s.quantity));
    expect(quantities.filter((q) => q === 0).length).toBeGreaterThanOrEqual(3);
    expect(quantities.filter((q) => q === 1).length).toBeGreaterThanOrEqual(3);
  });

  it('gives every product at least two images, each served as a drawing', async () => {
    const urls = new Set<string>();
    for (const p of products) {
      expect(p.images.length, p.name).toBeGreaterThanOrEqual(2);
      expect(p.imagem1).toBe(p.images[0]);
      for (const url of p.images) urls.add(url);
    }
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toMatch(/^<svg .*<title>.+<\/title>.*<path/);
      expect(res.body.length, url).toBeLessThan(4096);
    }
  });

  it('draws each product as its own garment, in square studio pictures', async () => {
    // The drawing's name starts with the garment it shows: no two products share one.
    const garment = (p: Product) =>
      /\/api\/media\/products\/([a-z-]+?)-(?:frente|costas)-/.exec(p.images[0]!)?.[1];
    const garments = products.map(garment);
    expect(garments.every(Boolean)).toBe(true);
    expect(new Set(garments).size).toBe(products.length);
    // The shape follows the name: long sleeves, a trucker's mesh, a thermal bottle.
    const byName = (name: string) => garment(products.find((p) => p.name === name)!);
    expect(byName('Camiseta Manga Longa Maratona de Natal')).toBe('manga-longa');
    expect(byName('Boné Trucker Caju')).toBe('trucker');
    expect(byName('Squeeze Térmico 500 ml Sertão Frio')).toBe('garrafa-termica');
    const res = await t.app.inject({ method: 'GET', url: products[0]!.images[0]! });
    expect(res.body).toMatch(/^<svg [^>]*width="480" height="480"/);
  });

  it('is found by accent-insensitive search', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products/search/?q=cafe' });
    expect(res.json().map((p: Product) => p.name)).toContain('Camiseta Dry-Fit Corrida do Café');
  });
});
