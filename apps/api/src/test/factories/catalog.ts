import type { ProductCategory } from '@passada/core/contracts/catalog';
import type { Db } from '../../db/client.ts';
import { createCatalogService, ensureColors, ensureSizes } from '../../modules/catalog/catalog.service.ts';
import { productImage } from '../../modules/catalog/product-images.ts';

export { productImage };

export interface ProductOverrides {
  name?: string;
  description?: string;
  priceCents?: number;
  category?: ProductCategory;
  showOnHome?: boolean;
  ratingTenths?: number;
  weightGrams?: number;
  /** Package length × width × height in cm. */
  dims?: [number, number, number];
  imageUrls?: string[];
  /** Stock by colour and size name; colours and sizes are created when missing. */
  stock?: Array<{ color: string; size: string; quantity: number; hex?: string }>;
}

export interface MadeProduct {
  id: number;
  name: string;
  priceCents: number;
  colorIds: Record<string, number>;
  sizeIds: Record<string, number>;
  /** Colour and size ids of each stock entry, in the order given. */
  stock: Array<{ colorId: number; sizeId: number; color: string; size: string; quantity: number }>;
}

let counter = 0;

/** The same order the seed gives sizes, so lists come out P, M, G, GG whatever the test creates first. */
const SIZE_ORDER = ['P', 'M', 'G', 'GG', 'Único'];
const sizeOrder = (name: string) => {
  const i = SIZE_ORDER.indexOf(name);
  return i === -1 ? 1000 : (i + 1) * 10;
};

/**
 * A product for tests, with chosen stock: `makeProduct(db, {stock: [{color: 'Preto', size: 'M',
 * quantity: 1}]})`. Defaults: a feminine T-shirt at R$ 99,90 with 5 units in Preto/M.
 */
export async function makeProduct(db: Db, overrides: ProductOverrides = {}): Promise<MadeProduct> {
  counter += 1;
  const stockSpec = overrides.stock ?? [{ color: 'Preto', size: 'M', quantity: 5 }];
  const colorIds = await ensureColors(
    db,
    [...new Map(stockSpec.map((s) => [s.color, s.hex ?? '#1c1f24'])).entries()].map(([name, hex]) => ({
      name,
      hex,
    })),
  );
  const sizeNames = [...new Set(stockSpec.map((s) => s.size))];
  const sizeIds = await ensureSizes(
    db,
    sizeNames.map((name) => ({ name, sortOrder: sizeOrder(name) })),
  );
  const stock = stockSpec.map((s) => ({
    color: s.color,
    size: s.size,
    colorId: colorIds.get(s.color)!,
    sizeId: sizeIds.get(s.size)!,
    quantity: s.quantity,
  }));
  const name = overrides.name ?? `Camiseta de Teste ${counter}`;
  const priceCents = overrides.priceCents ?? 9990;
  const [length, width, height] = overrides.dims ?? [30, 22, 3];
  const [id] = await createCatalogService({ db }).createProducts([
    {
      name,
      description: overrides.description ?? 'Produto criado para um teste automatizado.',
      priceCents,
      category: overrides.category ?? 'feminino',
      showOnHome: overrides.showOnHome ?? false,
      ratingTenths: overrides.ratingTenths ?? 45,
      weightGrams: overrides.weightGrams ?? 180,
      lengthCm: length,
      widthCm: width,
      heightCm: height,
      imageUrls: overrides.imageUrls ?? [
        productImage('camiseta', 'frente', 'preto').url,
        productImage('camiseta', 'costas', 'preto').url,
      ],
      stock: stock.map(({ colorId, sizeId, quantity }) => ({ colorId, sizeId, quantity })),
    },
  ]);
  return {
    id: id!,
    name,
    priceCents,
    colorIds: Object.fromEntries(colorIds),
    sizeIds: Object.fromEntries(sizeIds),
    stock,
  };
}
