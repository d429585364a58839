import type { Product } from '@passada/core/contracts/catalog';
import type { APIRequestContext } from '@playwright/test';

/** Reads the seeded catalogue through the API, so the tests follow the data instead of hard-coding it. */
export async function findProducts(request: APIRequestContext, path = '/api/products/'): Promise<Product[]> {
  const res = await request.get(path);
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}`);
  return (await res.json()) as Product[];
}

/** A product with a colour+size combination of at least `min` units. */
export async function productWithStock(request: APIRequestContext, path: string, min = 2) {
  for (const product of await findProducts(request, path)) {
    const entry = product.stock.find((s) => s.quantity >= min);
    if (entry) return { product, entry };
  }
  throw new Error(`no product in ${path} with ${min}+ units of one combination`);
}

export async function productWithSoldOutCombination(request: APIRequestContext) {
  for (const product of await findProducts(request)) {
    const entry = product.stock.find((s) => s.quantity === 0);
    if (entry) return { product, entry };
  }
  throw new Error('no sold-out combination in the demo catalogue');
}
