import { ApiErrorSchema, IdParamSchema, IdTextSchema } from '@passada/core/contracts/common';
import type { PainelProduct, ProductInputSchema, ProductPatchSchema } from '@passada/core/contracts/painel';
import { centsToReais, reaisToCents } from '@passada/core/money';
import type { Sale } from '@passada/core/sale-price';
import type { z } from 'zod';
import type { BannerFields, ImageRow, ProductFields, StaffProduct } from '../catalog/catalog-admin.ts';
import type { PainelRouteConfig } from '../staff/index.ts';
import { photoSrcset } from './photos.ts';

/** What the catalogue's route files share: who may call them, their OpenAPI tag and errors, the wire shapes. */

export const CATALOG = { painel: { permission: 'catalogo' } } satisfies { painel: PainelRouteConfig };
export const STOCK = { painel: { permission: 'estoque' } } satisfies { painel: PainelRouteConfig };

/** The OpenAPI tag and the errors every route of the catalogue's pages answers. */
export const catalogRouteSchema = {
  tags: ['painel: catálogo'],
  errors: { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema },
};

export const toImageWire = (image: ImageRow) => ({
  id: image.id,
  position: image.position,
  url: image.url,
  status: image.status,
  srcset_webp: photoSrcset(image.url, 'webp'),
  srcset_avif: photoSrcset(image.url, 'avif'),
  alt: image.alt,
  color_id: image.colorId,
});

export const toBannerWire = (b: BannerFields) => ({ imagem: b.imageUrl, texto: b.text, link: b.link });

/** A sale as the back office reads it: reais and ISO instants. */
export const saleWire = (sale: Sale) => ({
  preco: centsToReais(sale.priceCents),
  inicio: sale.startsAt.toISOString(),
  fim: sale.endsAt.toISOString(),
  combinacoes: (sale.only ?? []).map((c) => ({ cor_id: c.colorId, tamanho_id: c.sizeId })),
});

export const toProductWire = (p: StaffProduct): PainelProduct => ({
  id: p.id,
  name: p.name,
  description: p.description,
  price: centsToReais(p.priceCents),
  category: p.category,
  aparecer_home: p.showOnHome,
  oculto: p.hidden,
  rascunho: p.draft,
  publicar_em: p.publishAt?.toISOString() ?? null,
  falta_para_vender: p.missing,
  weight_grams: p.weightGrams,
  promocao: p.sale && saleWire(p.sale),
  versao: p.version,
  tabela_medidas: p.sizeGuide && {
    colunas: p.sizeGuide.columns,
    linhas: p.sizeGuide.rows.map((r) => ({ tamanho_id: r.sizeId, valores: r.values })),
  },
  images: p.images.map(toImageWire),
  stock: p.stock.map((s) => ({
    color: { id: s.colorId, name: s.colorName, hex: s.colorHex },
    size: { id: s.sizeId, name: s.sizeName },
    quantity: s.quantity,
  })),
});

type ProductChange = ProductFields & { colorIds: number[]; sizeIds: number[] };

/** The wire's product fields (reais, Portuguese names) as the catalog service takes them; absent stays absent. */
export function productFields(b: z.output<typeof ProductInputSchema>): ProductChange;
export function productFields(b: z.output<typeof ProductPatchSchema>): Partial<ProductChange>;
export function productFields(
  b: z.output<typeof ProductPatchSchema> | z.output<typeof ProductInputSchema>,
): Partial<ProductChange> {
  return {
    name: b.name,
    description: b.description,
    priceCents: b.price === undefined ? undefined : reaisToCents(b.price),
    category: b.category,
    showOnHome: b.aparecer_home,
    hidden: b.oculto,
    weightGrams: b.weight_grams,
    colorIds: b.color_ids,
    sizeIds: b.size_ids,
  };
}

export const ProductIdSchema = IdParamSchema;
export const ImageIdSchema = IdParamSchema.extend({ imageId: IdTextSchema });
