import { z } from '../zod.ts';
import { IdTextSchema } from './common.ts';

export const ProductCategorySchema = z.enum(['feminino', 'masculino', 'acessorios']);
export type ProductCategory = z.infer<typeof ProductCategorySchema>;

export const ColorSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** CSS colour for the colour buttons, e.g. "#1b2a4a". */
  hex: z.string(),
});
export type Color = z.infer<typeof ColorSchema>;
export const SizeSchema = z.object({ id: z.number().int(), name: z.string() });
export type Size = z.infer<typeof SizeSchema>;

export const StockEntrySchema = z.object({
  color: ColorSchema,
  size: SizeSchema,
  quantity: z.number().int().min(0),
});
export type StockEntry = z.infer<typeof StockEntrySchema>;

/** The spec allows up to 19 images per product (section 9). */
export const MAX_PRODUCT_IMAGES = 19;

type ImageKey =
  `imagem${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19}`;

const imageFields = Object.fromEntries(
  Array.from({ length: MAX_PRODUCT_IMAGES }, (_, i) => [`imagem${i + 1}`, z.string().optional()]),
) as Record<ImageKey, z.ZodOptional<z.ZodString>>;

/**
 * A photo of the product, in the order of `images`: the text for its `<img alt>` (empty: describe it by
 * the product's name) and the colour it shows (null: any), so a page can show the chosen colour's first.
 */
export const ProductPhotoSchema = z.object({
  url: z.string(),
  alt: z.string(),
  color_id: z.number().int().nullable(),
});
export type ProductPhoto = z.infer<typeof ProductPhotoSchema>;

/**
 * A product as the spec's section 3 gives it: price in reais, images as imagem1..imagem19 (only the
 * ones that exist are present), stock entries. `images` lists the same URLs in order, for convenience;
 * `rating` is the average review score 0–5 (orders /topavaliados).
 */
export const ProductSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  category: ProductCategorySchema,
  aparecer_home: z.boolean(),
  rating: z.number().min(0).max(5),
  ...imageFields,
  images: z.array(z.string()),
  /** The same pictures as `images`, with their alt text and colour. */
  photos: z.array(ProductPhotoSchema),
  stock: z.array(StockEntrySchema),
});
export type Product = z.infer<typeof ProductSchema>;

export const ProductListSchema = z.array(ProductSchema);

/** A home banner slide: its image, the text that describes it (alt, link name) and where it leads. */
export const HomeBannerSchema = z.object({
  imagem: z.string(),
  texto: z.string(),
  link: z.string(),
});
export type HomeBanner = z.infer<typeof HomeBannerSchema>;

/** `GET /api/home/`: the banner slides and every featured product, in the order staff chose. */
export const HomeSchema = z.object({
  banners: z.array(HomeBannerSchema),
  destaques: ProductListSchema,
});
export type Home = z.infer<typeof HomeSchema>;

/** `GET /api/products/{id}/?color=&size=`: the stock check, by colour id and size id. */
export const StockQuerySchema = z.object({
  color: IdTextSchema.optional(),
  size: IdTextSchema.optional(),
});
export type StockQuery = z.infer<typeof StockQuerySchema>;

/** Size names the /pesquisa filter offers (spec section 2). */
export const SEARCH_SIZES = ['P', 'M', 'G', 'GG'] as const;

/** A price filter in reais; bounded so the database never sees a number its column cannot hold. */
const price = z.coerce
  .number({ error: 'Preço inválido.' })
  .min(0, 'Preço inválido.')
  .max(1_000_000, 'Preço inválido.');

/** `GET /api/products/search/` for /pesquisa; prices in reais. */
export const ProductSearchQuerySchema = z.object({
  q: z.string().max(100).optional(),
  category: ProductCategorySchema.optional(),
  min_price: price.optional(),
  max_price: price.optional(),
  /** Comma-separated size names (P,M,G,GG): only products with stock > 0 in one of them. */
  sizes: z.string().max(50).optional(),
});
export type ProductSearchQuery = z.infer<typeof ProductSearchQuerySchema>;
