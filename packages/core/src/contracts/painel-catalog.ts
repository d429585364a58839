import { z } from '../zod.ts';
import { ProductCategorySchema, SizeGuideInputSchema } from './catalog.ts';
import { EditVersionSchema } from './painel-versions.ts';

/** The back office's catalogue: products, photos, the home page's featured products and banners, stock. */

/** Product fields staff edit, without defaults: a PATCH changes only what it sends. Price in reais. */
const ProductFieldsSchema = z.object({
  name: z.string().trim().min(2, 'Informe o nome.').max(120),
  description: z.string().trim().min(1, 'Informe a descrição.').max(5000),
  price: z.coerce
    .number({ error: 'Informe o preço.' })
    .positive('O preço deve ser maior que zero.')
    .max(100_000, 'Preço alto demais.'),
  category: ProductCategorySchema,
  aparecer_home: z.boolean(),
  oculto: z.boolean(),
  weight_grams: z.coerce.number().int().min(1).max(30_000),
  color_ids: z.array(z.number().int().positive()).max(30),
  size_ids: z.array(z.number().int().positive()).max(30),
});

/** A new product: what is not sent starts at its default. */
export const ProductInputSchema = ProductFieldsSchema.extend({
  aparecer_home: ProductFieldsSchema.shape.aparecer_home.default(false),
  oculto: ProductFieldsSchema.shape.oculto.default(false),
  weight_grams: ProductFieldsSchema.shape.weight_grams.default(300),
  color_ids: ProductFieldsSchema.shape.color_ids.default([]),
  size_ids: ProductFieldsSchema.shape.size_ids.default([]),
});
export type ProductInput = z.input<typeof ProductInputSchema>;

/**
 * An edit: only the fields sent change (no default fills one that was not sent), and `versao` is the
 * version the form read. Stock is never part of it: it changes through /stock/ with a reason.
 */
export const ProductPatchSchema = ProductFieldsSchema.partial().extend({ versao: EditVersionSchema });
export type ProductPatch = z.input<typeof ProductPatchSchema>;

/** A product's sale (docs/decisions/0082): its price in reais, from `inicio` until `fim` (with the offset). */
export const ProductSaleFieldsSchema = z
  .object({
    preco: z.coerce
      .number({ error: 'Informe o preço promocional.' })
      .positive('O preço promocional deve ser maior que zero.')
      .max(100_000, 'Preço alto demais.'),
    inicio: z.iso.datetime({ offset: true, error: 'Informe o início (data e hora).' }),
    fim: z.iso.datetime({ offset: true, error: 'Informe o fim (data e hora).' }),
    /** Only these colours × sizes take the sale (decision 0082, later); absent or empty: every one. */
    combinacoes: z
      .array(z.object({ cor_id: z.number().int().positive(), tamanho_id: z.number().int().positive() }))
      .max(500)
      .default([]),
  })
  .refine((s) => new Date(s.fim).getTime() > new Date(s.inicio).getTime(), {
    message: 'O fim deve vir depois do início.',
    path: ['fim'],
  });

/** `PUT /products/{id}/promocao/`: the sale, or null to end it, with the version the form read. */
export const ProductSaleSchema = z.object({
  versao: EditVersionSchema,
  promocao: ProductSaleFieldsSchema.nullable(),
});
export type ProductSaleInput = z.input<typeof ProductSaleSchema>;

/**
 * `POST /products/{id}/publicar/`: a draft on sale now (`publicar_em` absent, null or past) or at
 * `publicar_em` (with the offset), with the version the form read.
 */
export const ProductPublishSchema = z.object({
  versao: EditVersionSchema,
  publicar_em: z.iso
    .datetime({ offset: true, error: 'Informe a data e a hora do lançamento.' })
    .nullable()
    .default(null),
});
export type ProductPublishInput = z.input<typeof ProductPublishSchema>;

/** `POST /products/{id}/publicar/cancelar/`: the draft's publishing time taken away. */
export const ProductUnscheduleSchema = z.object({ versao: EditVersionSchema });

/**
 * An uploaded photo is `processando` until its resized copies exist (a few seconds; the shop does not
 * show it yet), then `pronta`; `falhou` when they could not be made.
 */
export const PhotoStatusSchema = z.enum(['processando', 'pronta', 'falhou']);
export type PhotoStatus = z.infer<typeof PhotoStatusSchema>;

/** An uploaded photo's state, answered by the upload and by `GET /api/painel/photos/:id/`. */
export const PainelPhotoSchema = z.object({
  id: z.number().int(),
  /** Its 800 px WebP, where the shop shows it once `pronta`. */
  url: z.string(),
  status: PhotoStatusSchema,
});
export type PainelPhoto = z.infer<typeof PainelPhotoSchema>;

export const PainelImageSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  url: z.string(),
  status: PhotoStatusSchema,
  /** `srcset` candidates of the uploaded photo (empty for generated pictures). */
  srcset_webp: z.string(),
  srcset_avif: z.string(),
  /** The shop's `<img alt>` for it (empty: the product's name). */
  alt: z.string(),
  /** The colour it shows, one of the product's (null: any). */
  color_id: z.number().int().nullable(),
});

/** `PATCH /products/:id/images/:imageId/`: a photo's alt text and colour. */
export const ImagePatchSchema = z.object({
  alt: z.string().trim().max(200, 'O texto alternativo tem no máximo 200 caracteres.'),
  color_id: z.number().int().positive().nullable(),
});
export type ImagePatch = z.input<typeof ImagePatchSchema>;

/** `GET /products/?busca=`: the back office's list, by words of the name (accents and case aside). */
export const PainelProductsQuerySchema = z.object({ busca: z.string().trim().max(100).optional() });

export const PainelProductSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  category: ProductCategorySchema,
  aparecer_home: z.boolean(),
  oculto: z.boolean(),
  /** Made and never published: the shop does not show it (docs/decisions/0085). */
  rascunho: z.boolean().default(false),
  /** When the draft is published by itself (ISO instant), or null. */
  publicar_em: z.string().nullable().default(null),
  /** What the product lacks to be sold: a ready photo (`foto`), a unit in stock (`estoque`). */
  falta_para_vender: z.array(z.enum(['foto', 'estoque'])).default([]),
  weight_grams: z.number().int(),
  /** The sale staff set (docs/decisions/0082), whether it runs now or not; null when there is none. */
  promocao: z
    .object({
      preco: z.number(),
      inicio: z.string(),
      fim: z.string(),
      /** The colours × sizes it is limited to; empty: every one. */
      combinacoes: z.array(z.object({ cor_id: z.number().int(), tamanho_id: z.number().int() })).default([]),
    })
    .nullable()
    .default(null),
  /** The version a save must send back (EditVersionSchema); stock changes do not change it. */
  versao: z.number().int(),
  /** The size guide (docs/decisions/0070), edited with `PUT …/medidas/`; null when there is none. */
  tabela_medidas: z
    .object({
      colunas: z.array(z.string()),
      linhas: z.array(z.object({ tamanho_id: z.number().int(), valores: z.array(z.number().nullable()) })),
    })
    .nullable()
    .default(null),
  images: z.array(PainelImageSchema),
  stock: z.array(
    z.object({
      color: z.object({ id: z.number().int(), name: z.string(), hex: z.string() }),
      size: z.object({ id: z.number().int(), name: z.string() }),
      quantity: z.number().int(),
    }),
  ),
});
export type PainelProduct = z.infer<typeof PainelProductSchema>;

export const ImageOrderSchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(19) });

/** A colour's or size's name: letters, digits, spaces and hyphens, one space between words. */
const optionName = (what: string, min: number, max: number) =>
  z
    .string()
    .transform((v) => v.trim().replace(/\s+/g, ' '))
    .pipe(
      z
        .string()
        .min(min, `Informe o nome ${what}.`)
        .max(max, `O nome ${what} tem no máximo ${max} caracteres.`)
        .regex(/^[\p{L}\p{N}][\p{L}\p{N} /-]*$/u, `Use letras, números, espaços e hífen no nome ${what}.`),
    );

export const NewColorSchema = z.object({
  name: optionName('da cor', 2, 40),
  hex: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use o formato #rrggbb.'),
});
export type NewColor = z.input<typeof NewColorSchema>;
export const NewSizeSchema = z.object({
  name: optionName('do tamanho', 1, 20),
  sort_order: z.number().int().min(0).max(1000).default(100),
});
export type NewSize = z.input<typeof NewSizeSchema>;

/**
 * The version of a list edited as a whole (the home's featured products, its banners): a fingerprint of
 * the list as read, sent back with the save; another person's save in between is 409 `versao_desatualizada`.
 */
const ListVersionSchema = z.string({ error: 'Recarregue a página: falta a versão da lista.' }).min(1).max(64);

/** The home page's featured products, in order (`GET`/`PUT /home/featured/`). */
export const FeaturedSchema = z.object({ versao: z.string(), ids: z.array(z.number().int()) });
export const FeaturedUpdateSchema = z.object({
  versao: ListVersionSchema,
  ids: z
    .array(z.number().int().positive())
    .max(60, 'No máximo 60 produtos em destaque.')
    .refine((ids) => new Set(ids).size === ids.length, 'Cada produto entra uma vez.'),
});
export type FeaturedUpdate = z.input<typeof FeaturedUpdateSchema>;

/** Where a banner leads: a path of the shop ("/eventos") or an https address. */
const BannerLinkSchema = z
  .string()
  .trim()
  .min(1, 'Informe o link.')
  .max(300)
  .regex(/^(\/(?!\/)\S*|https:\/\/\S+)$/, 'Use um caminho da loja (/eventos) ou um endereço https://.');

export const PainelBannerSchema = z.object({
  /** An uploaded photo's address (from `POST /home/banners/image/`) or one of the shop's images. */
  imagem: z
    .string()
    .trim()
    .regex(/^\/(?!\/)\S+$/, 'Envie a imagem do banner.')
    .max(300),
  texto: z.string().trim().min(3, 'Descreva a imagem do banner.').max(160),
  link: BannerLinkSchema,
});
export type PainelBanner = z.infer<typeof PainelBannerSchema>;

export const BannersSchema = z.object({ versao: z.string(), banners: z.array(PainelBannerSchema) });
export const BannersUpdateSchema = z.object({
  versao: ListVersionSchema,
  banners: z.array(PainelBannerSchema).max(8, 'No máximo 8 banners.'),
});
export type BannersUpdate = z.input<typeof BannersUpdateSchema>;

export const StockReasonSchema = z.enum(['entrada', 'venda_balcao', 'avaria', 'inventario'], {
  error: 'Escolha o motivo: entrada, venda balcão, avaria ou inventário.',
});
export type StockReason = z.infer<typeof StockReasonSchema>;

export const STOCK_REASON_LABELS: Record<StockReason, string> = {
  entrada: 'Entrada',
  venda_balcao: 'Venda balcão',
  avaria: 'Avaria',
  inventario: 'Inventário',
};

/**
 * Every kind of stock movement: the staff reasons above plus what the shop writes itself (opening
 * balance, a charge's hold, its sale, its release, a cancellation, a return). The sum of a colour ×
 * size's movements is its stock (docs/decisions/0033-stock-ledger-and-daily-orders.md).
 */
export const STOCK_MOVEMENT_KINDS = [
  'entrada',
  'venda_balcao',
  'avaria',
  'inventario',
  'saldo_inicial',
  'reserva',
  'venda',
  'liberacao',
  'cancelamento',
  'devolucao',
  'troca_reserva',
  'troca_liberacao',
] as const satisfies readonly [StockReason, ...string[]];
export const StockMovementKindSchema = z.enum(STOCK_MOVEMENT_KINDS);
export type StockMovementKind = z.infer<typeof StockMovementKindSchema>;

export const STOCK_MOVEMENT_LABELS: Record<StockMovementKind, string> = {
  ...STOCK_REASON_LABELS,
  saldo_inicial: 'Saldo inicial',
  reserva: 'Reserva (pagamento criado)',
  venda: 'Venda (reserva paga)',
  liberacao: 'Liberação (pagamento expirado ou recusado)',
  cancelamento: 'Cancelamento',
  devolucao: 'Devolução',
  troca_reserva: 'Troca (unidade reservada para o cliente)',
  troca_liberacao: 'Troca recusada ou vencida (unidade liberada)',
};

/**
 * `ajustar` adds a signed amount (the safe choice while checkouts run); `definir` sets the counted
 * quantity, the inventory case.
 */
export const StockChangeSchema = z.object({
  product_id: z.number().int().positive(),
  color_id: z.number().int().positive(),
  size_id: z.number().int().positive(),
  modo: z.enum(['ajustar', 'definir']),
  quantidade: z.number().int().min(-100_000).max(100_000),
  motivo: StockReasonSchema,
  observacao: z.string().trim().max(300).default(''),
});
export type StockChange = z.input<typeof StockChangeSchema>;

/**
 * A combination's stock-keeping code, as the packing slip, the order-lines export and the stock file
 * print it: the product, colour and size numbers (`P12-C3-T5`), the same for the same combination everywhere.
 */
export const skuOf = (productId: number, colorId: number, sizeId: number) =>
  `P${productId}-C${colorId}-T${sizeId}`;

/** The combination a SKU names (any letter case, spaces around), or null when it is not one. */
export function parseSku(text: string): { productId: number; colorId: number; sizeId: number } | null {
  const m = /^P(\d{1,9})-C(\d{1,9})-T(\d{1,9})$/i.exec(text.trim());
  return m ? { productId: Number(m[1]), colorId: Number(m[2]), sizeId: Number(m[3]) } : null;
}

/**
 * `POST /stock/lote/`: several colours × sizes changed at once, all or none (docs/decisions/0081): a goods
 * receipt's grid (`ajustar`, units in) or a count (`definir`). `antes`, when given, is the quantity staff
 * saw when they checked the line (the stock file's preview): a sale since then refuses the whole batch.
 */
export const StockBatchSchema = z.object({
  modo: z.enum(['ajustar', 'definir']),
  motivo: StockReasonSchema,
  observacao: z.string().trim().max(300).default(''),
  linhas: z
    .array(
      z.object({
        product_id: z.number().int().positive(),
        color_id: z.number().int().positive(),
        size_id: z.number().int().positive(),
        quantidade: z.number().int().min(-100_000).max(100_000),
        antes: z.number().int().min(0).optional(),
      }),
    )
    .min(1, 'Informe ao menos uma quantidade.')
    .max(20_000),
});
export type StockBatch = z.input<typeof StockBatchSchema>;

/** One line of a batch or of a stock file's preview: the combination, its names, before and after. */
export const StockBatchLineSchema = z.object({
  product_id: z.number().int(),
  color_id: z.number().int(),
  size_id: z.number().int(),
  sku: z.string(),
  produto: z.string(),
  cor: z.string(),
  tamanho: z.string(),
  antes: z.number().int(),
  depois: z.number().int(),
  /** What the line adds (negative: takes away). */
  diferenca: z.number().int(),
});
export type StockBatchLine = z.infer<typeof StockBatchLineSchema>;

/** How a batch's refusals and audit line name a combination: "Short Jangada · Azul P (P3-C1-T2)". */
export const stockBatchLabel = (l: Pick<StockBatchLine, 'produto' | 'cor' | 'tamanho' | 'sku'>) =>
  `${l.produto} · ${l.cor} ${l.tamanho} (${l.sku})`;

/** `POST /stock/importar/previa/`: a stock file (CSV or TXT, the pt-BR Excel convention or commas). */
export const StockFilePreviewSchema = z.object({
  modo: z.enum(['ajustar', 'definir']),
  arquivo: z.string({ error: 'Envie o arquivo.' }).min(1, 'Envie o arquivo.'),
});

/** What the file would change, nothing written: the lines that change and the lines that could not be read. */
export const StockFilePreviewResultSchema = z.object({
  linhas: z.array(StockBatchLineSchema),
  /** Lines of the file naming a combination that is already at that quantity (a count) or adding 0. */
  sem_mudanca: z.number().int(),
  problemas: z.array(z.string()),
});
export type StockFilePreviewResult = z.infer<typeof StockFilePreviewResultSchema>;

export const StockMovementSchema = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  quantity_after: z.number().int(),
  reason: StockMovementKindSchema,
  note: z.string(),
  staff_email: z.string().nullable(),
  /** The order the movement belongs to, when there is one (a hold links to it once it is paid). */
  order_id: z.number().int().nullable(),
  at: z.string(),
});

export const StockComboQuerySchema = z.object({
  product_id: z.coerce.number().int().positive(),
  color_id: z.coerce.number().int().positive(),
  size_id: z.coerce.number().int().positive(),
});

export const LowStockQuerySchema = z.object({ limite: z.coerce.number().int().min(0).max(1000).default(3) });

export const LowStockItemSchema = z.object({
  product_id: z.number().int(),
  product_name: z.string(),
  color: z.string(),
  color_id: z.number().int(),
  size: z.string(),
  size_id: z.number().int(),
  quantity: z.number().int(),
});

/** `PUT /api/painel/products/{id}/medidas/`: the whole size guide, with the product's version read. */
export const PainelSizeGuideSchema = SizeGuideInputSchema.extend({ versao: EditVersionSchema });
export type PainelSizeGuide = z.input<typeof PainelSizeGuideSchema>;
