import { z } from '../zod.ts';
import { EmailSchema } from './accounts.ts';
import { IdSchema, IdTextSchema } from './common.ts';

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
  /** While a sale limited to some colours × sizes runs and takes this one: its price (decision 0082). */
  preco: z.number().optional(),
  /** With `preco`: the list price, shown struck through. */
  preco_de: z.number().optional(),
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
  /** What the product costs now: the sale price while a sale runs (docs/decisions/0082). */
  price: z.number(),
  /** While a sale runs: the list price, shown struck through ("de R$ 129,90 por R$ 99,90"). */
  preco_de: z.number().optional(),
  /** While a sale runs: when it ends (ISO). */
  promocao_ate: z.string().optional(),
  /** While a sale limited to some colours × sizes runs: true (their prices are in `stock`). */
  promocao_parcial: z.boolean().optional(),
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

/**
 * `POST /api/products/{id}/avise-me/`: "Avise-me quando chegar" for a colour and size with no units now
 * (docs/decisions/0069). The address is used for that one message only.
 */
export const StockAlertSchema = z.object({
  cor: IdSchema,
  tamanho: IdSchema,
  email: EmailSchema,
});
export type StockAlertInput = z.infer<typeof StockAlertSchema>;

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

/** A measurement in cm: positive, at most 300, one decimal place kept. */
const MeasureSchema = z
  .number({ error: 'Informe a medida em cm.' })
  .positive('A medida deve ser maior que zero.')
  .max(300, 'Medida grande demais (em cm).')
  .transform((v) => Math.round(v * 10) / 10);

/**
 * A product's size guide (docs/decisions/0070): up to six measurements of the garment (their names, such
 * as "Tórax" or "Comprimento"), and each of the product's sizes with its values in cm (null where not
 * measured).
 */
export const SizeGuideInputSchema = z.object({
  colunas: z
    .array(z.string().trim().min(1, 'Dê um nome à medida.').max(30), { error: 'Informe as medidas.' })
    .min(1, 'Informe ao menos uma medida.')
    .max(6, 'No máximo seis medidas.'),
  linhas: z
    .array(z.object({ tamanho_id: IdSchema, valores: z.array(MeasureSchema.nullable()).max(6) }))
    .max(30),
});
export type SizeGuideInput = z.input<typeof SizeGuideInputSchema>;

/** `GET /api/products/{id}/tamanhos/`: the size guide and the fit the shop's own data show. */
export const ProductSizingSchema = z.object({
  guia: z
    .object({
      colunas: z.array(z.string()),
      linhas: z.array(z.object({ tamanho: z.string(), valores: z.array(z.number().nullable()) })),
    })
    .nullable(),
  /** Null below the minimum of size exchanges (FIT_HINT_MIN_EXCHANGES). */
  caimento: z
    .object({
      veste: z.enum(['pequeno', 'no_tamanho', 'grande']),
      texto: z.string(),
      entregues: z.number().int(),
      trocas_para_maior: z.number().int(),
      trocas_para_menor: z.number().int(),
    })
    .nullable(),
});
export type ProductSizing = z.infer<typeof ProductSizingSchema>;
