import { z } from 'zod';

export const ProductCategorySchema = z.enum(['feminino', 'masculino', 'acessorios']);
export type ProductCategory = z.infer<typeof ProductCategorySchema>;

export const ColorSchema = z.object({ id: z.number().int(), name: z.string(), hex: z.string().optional() });
export const SizeSchema = z.object({ id: z.number().int(), name: z.string() });

export const StockEntrySchema = z.object({
  color: ColorSchema,
  size: SizeSchema,
  quantity: z.number().int().min(0),
});
export type StockEntry = z.infer<typeof StockEntrySchema>;

/**
 * A product as the spec's section 3 gives it: price in reais, images as imagem1..imagem19 (only the
 * ones that exist are present), stock entries. `images` lists the same URLs in order, for convenience.
 */
export const ProductSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    price: z.number(),
    category: ProductCategorySchema,
    aparecer_home: z.boolean(),
    rating: z.number().min(0).max(5),
    images: z.array(z.string()),
    stock: z.array(StockEntrySchema),
  })
  .catchall(z.string());
export type Product = z.infer<typeof ProductSchema>;

export const ProductListSchema = z.array(ProductSchema);

/** `GET /api/products/{id}/?color=&size=`: the stock check. */
export const StockQuerySchema = z.object({
  color: z.coerce.number().int().positive().optional(),
  size: z.coerce.number().int().positive().optional(),
});

/** `GET /api/products/search/` for /pesquisa. */
export const ProductSearchQuerySchema = z.object({
  q: z.string().max(100).optional(),
  category: ProductCategorySchema.optional(),
  min_price: z.coerce.number().min(0).optional(),
  max_price: z.coerce.number().min(0).optional(),
  /** Comma-separated size names (P,M,G,GG): only products with stock in one of them. */
  sizes: z.string().max(50).optional(),
});
export type ProductSearchQuery = z.infer<typeof ProductSearchQuerySchema>;
