import {
  createCatalogService,
  ensureColors,
  ensureSizes,
  type NewCatalogProduct,
} from '../../modules/catalog/catalog.service.ts';
import { palette, productImage } from '../../modules/catalog/product-images.ts';
import type { Db } from '../client.ts';
import {
  APPAREL_SIZES,
  demoProducts,
  ONE_SIZE,
  packageByKind,
  sizesForKind,
  stockPattern,
} from './catalog-data.ts';

/**
 * Demo catalogue: colours, sizes, products with generated images and stock (docs/architecture.md §2). A
 * handful of batched statements in one transaction, so it is quick on PGlite and on PostgreSQL alike.
 */
export async function seedCatalog(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const colorIds = await ensureColors(
      tx,
      Object.values(palette).map((c) => ({ name: c.name, hex: c.hex })),
    );
    const sizeIds = await ensureSizes(
      tx,
      [...APPAREL_SIZES, ONE_SIZE].map((name, i) => ({ name, sortOrder: (i + 1) * 10 })),
    );
    let dealt = 0;
    const items: NewCatalogProduct[] = demoProducts.map((p) => {
      const pkg = packageByKind[p.kind];
      if (p.colors.length === 0) throw new Error(`${p.name}: sem cores`);
      // Front and back in every colour: the product page shows the chosen colour's pictures.
      const imageUrls = p.colors.flatMap((c) => [
        productImage(p.kind, 'frente', c).url,
        productImage(p.kind, 'costas', c).url,
      ]);
      const stock = p.colors.flatMap((color) =>
        sizesForKind(p.kind).map((size) => ({
          colorId: colorIds.get(palette[color].name)!,
          sizeId: sizeIds.get(size)!,
          quantity: stockPattern[dealt++ % stockPattern.length]!,
        })),
      );
      return {
        name: p.name,
        description: p.description,
        priceCents: p.priceCents,
        category: p.category,
        showOnHome: p.home,
        ratingTenths: p.ratingTenths,
        weightGrams: pkg.weightGrams,
        lengthCm: pkg.dims[0],
        widthCm: pkg.dims[1],
        heightCm: pkg.dims[2],
        imageUrls,
        stock,
      };
    });
    await createCatalogService({ db }).createProducts(items, tx);
  });
}
