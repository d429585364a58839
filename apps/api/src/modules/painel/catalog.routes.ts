import { ApiErrorSchema, IdParamSchema, IdTextSchema } from '@passada/core/contracts/common';
import {
  BannersSchema,
  BannersUpdateSchema,
  FeaturedSchema,
  FeaturedUpdateSchema,
  ImageOrderSchema,
  ImagePatchSchema,
  LowStockItemSchema,
  LowStockQuerySchema,
  NewColorSchema,
  NewSizeSchema,
  PainelImageSchema,
  type PainelProduct,
  PainelProductSchema,
  PainelProductsQuerySchema,
  ProductInputSchema,
  ProductPatchSchema,
  StockChangeSchema,
  StockComboQuerySchema,
  StockMovementSchema,
} from '@passada/core/contracts/painel';
import { centsToReais, reaisToCents } from '@passada/core/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../plugins/errors.ts';
import type { BannerFields, ImageRow, ProductFields, StaffProduct } from '../catalog/catalog-admin.ts';
import { actor, audit, audited, creation, type PainelRouteConfig } from '../staff/index.ts';

const CATALOG = { painel: { permission: 'catalogo' } } satisfies { painel: PainelRouteConfig };
const STOCK = { painel: { permission: 'estoque' } } satisfies { painel: PainelRouteConfig };

import { photoKeys, photoSrcset, photoUploadRoute, readUploadedPhoto } from './photos.ts';

const toImageWire = (image: ImageRow) => ({
  id: image.id,
  position: image.position,
  url: image.url,
  status: image.status,
  srcset_webp: photoSrcset(image.url, 'webp'),
  srcset_avif: photoSrcset(image.url, 'avif'),
  alt: image.alt,
  color_id: image.colorId,
});

const toBannerWire = (b: BannerFields) => ({ imagem: b.imageUrl, texto: b.text, link: b.link });

const toProductWire = (p: StaffProduct): PainelProduct => ({
  id: p.id,
  name: p.name,
  description: p.description,
  price: centsToReais(p.priceCents),
  category: p.category,
  aparecer_home: p.showOnHome,
  oculto: p.hidden,
  weight_grams: p.weightGrams,
  versao: p.version,
  images: p.images.map(toImageWire),
  stock: p.stock.map((s) => ({
    color: { id: s.colorId, name: s.colorName, hex: s.colorHex },
    size: { id: s.sizeId, name: s.sizeName },
    quantity: s.quantity,
  })),
});

type ProductChange = ProductFields & { colorIds: number[]; sizeIds: number[] };

/** The wire's product fields (reais, Portuguese names) as the catalog service takes them; absent stays absent. */
function productFields(b: z.output<typeof ProductInputSchema>): ProductChange;
function productFields(b: z.output<typeof ProductPatchSchema>): Partial<ProductChange>;
function productFields(
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

const ProductIdSchema = IdParamSchema;
const ImageIdSchema = IdParamSchema.extend({ imageId: IdTextSchema });

/** Products, photos, colours, sizes and stock: every write goes through the catalog module's service. */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.catalog.admin;
  const tags = ['painel: catálogo'];
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

  app.get(
    '/products/',
    {
      config: { painel: { permission: ['catalogo', 'estoque'] } },
      schema: {
        tags,
        summary: 'Todos os produtos, ocultos inclusive; com busca, os que têm no nome cada palavra',
        querystring: PainelProductsQuerySchema,
        response: { 200: z.array(PainelProductSchema), ...errors },
      },
    },
    async (req) => (await admin.listProducts(req.query.busca)).map(toProductWire),
  );

  app.get(
    '/products/:id/',
    {
      config: { painel: { permission: ['catalogo', 'estoque'] } },
      schema: {
        tags,
        summary: 'Um produto com fotos e estoque',
        params: ProductIdSchema,
        response: { 200: PainelProductSchema, ...errors },
      },
    },
    async (req) => toProductWire(await admin.getProduct(req.params.id)),
  );

  app.post(
    '/products/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary: 'Criar produto (cores × tamanhos começam com estoque zero)',
        body: ProductInputSchema,
        response: { 201: PainelProductSchema, ...errors },
      },
    },
    async (req, reply) => {
      const created = await audited(
        req,
        async (tx) => toProductWire(await admin.createProduct(tx, productFields(req.body))),
        creation('produto'),
      );
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/products/:id/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary:
          'Editar, ocultar ou mostrar um produto: muda só os campos enviados, com a versão lida (409 se outra pessoa salvou antes); cores e tamanhos novos entram com estoque zero; o estoque não muda aqui',
        params: ProductIdSchema,
        body: ProductPatchSchema,
        response: { 200: PainelProductSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const b = req.body;
      const { after } = await audited(
        req,
        (tx) => admin.updateProduct(tx, req.params.id, b.versao, productFields(b)),
        ({ before, after }) => ({
          action:
            b.oculto === true ? 'ocultado' : b.oculto === false && before.hidden ? 'mostrado' : 'alterado',
          entity: 'produto',
          entityId: after.id,
          before: toProductWire(before),
          after: toProductWire(after),
        }),
      );
      return toProductWire(after);
    },
  );

  app.post(
    '/products/:id/images/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary:
          'Enviar foto (multipart, campo "foto": JPEG, PNG, WebP ou HEIC; até 19 por produto). Responde 202 ' +
          'com a foto em "processando": as cópias redimensionadas são feitas pela fila, uma por vez',
        params: ProductIdSchema,
        consumes: ['multipart/form-data'],
        response: {
          202: PainelImageSchema,
          ...errors,
          409: ApiErrorSchema,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          502: ApiErrorSchema,
        },
      },
    },
    async (req, reply) => {
      await admin.getProduct(req.params.id);
      const buffer = await readUploadedPhoto(req, 'Escolha uma foto.');
      const { recorded: image } = await app.photos.accept('produtos', buffer, async (tx, url) => {
        const row = await admin.addImage(tx, req.params.id, url, 'processando');
        await audit(tx, actor(req), {
          action: 'foto_adicionada',
          entity: 'produto',
          entityId: req.params.id,
          after: { foto: row.url, posicao: row.position },
        });
        return row;
      });
      return reply.status(202).send(toImageWire(image));
    },
  );

  app.delete(
    '/products/:id/images/:imageId/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary: 'Remover uma foto',
        params: ImageIdSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      const removed = await audited(
        req,
        async (tx) => {
          const row = await admin.removeImage(tx, req.params.id, req.params.imageId);
          // A photo still in the queue is dropped with it: its job then finds nothing to finish.
          await app.photos.forget(tx, row.url);
          return row;
        },
        (row) => ({
          action: 'foto_removida',
          entity: 'produto',
          entityId: req.params.id,
          before: { foto: row.url, posicao: row.position },
        }),
      );
      // The files go once the row is gone; a failure here only leaves unreferenced files behind.
      await app.providers.media
        .delete(photoKeys(removed.url))
        .catch((err: unknown) => req.log.warn({ err }, 'removed photo files were not deleted'));
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/products/:id/images/:imageId/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary: 'Texto alternativo e cor de uma foto (a cor é uma das do produto, ou null)',
        params: ImageIdSchema,
        body: ImagePatchSchema,
        response: { 200: PainelImageSchema, ...errors },
      },
    },
    async (req) => {
      const { after } = await audited(
        req,
        (tx) =>
          admin.updateImage(tx, req.params.id, req.params.imageId, {
            alt: req.body.alt,
            colorId: req.body.color_id,
          }),
        ({ before, after }) => ({
          action: 'foto_alterada',
          entity: 'produto',
          entityId: req.params.id,
          before: { foto: before.url, alt: before.alt, cor: before.colorId },
          after: { foto: after.url, alt: after.alt, cor: after.colorId },
        }),
      );
      return toImageWire(after);
    },
  );

  app.put(
    '/products/:id/images/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary: 'Reordenar as fotos (lista com todos os ids na nova ordem)',
        params: ProductIdSchema,
        body: ImageOrderSchema,
        response: { 200: z.array(PainelImageSchema), ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const { images } = await audited(
        req,
        (tx) => admin.reorderImages(tx, req.params.id, req.body.ids),
        ({ before }) => ({
          action: 'fotos_reordenadas',
          entity: 'produto',
          entityId: req.params.id,
          before,
          after: req.body.ids,
        }),
      );
      return images.map(toImageWire);
    },
  );

  app.get(
    '/home/featured/',
    {
      config: { painel: { permission: ['catalogo', 'estoque'] } },
      schema: {
        tags,
        summary: 'Produtos em destaque na home, na ordem, com a versão da lista',
        response: { 200: FeaturedSchema, ...errors },
      },
    },
    async () => admin.featured(),
  );

  app.put(
    '/home/featured/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary:
          'Definir os produtos em destaque na home, na ordem (os outros saem); 409 se outra pessoa mudou a lista',
        body: FeaturedUpdateSchema,
        response: { 200: FeaturedSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      await audited(
        req,
        (tx) => admin.setFeatured(tx, req.body.versao, req.body.ids),
        ({ before }) => ({
          action: 'destaques_alterados',
          entity: 'home',
          entityId: null,
          before,
          after: req.body.ids,
        }),
      );
      return admin.featured();
    },
  );

  app.get(
    '/home/banners/',
    {
      config: { painel: { permission: ['catalogo', 'estoque'] } },
      schema: {
        tags,
        summary: 'Banners da home, na ordem, com a versão da lista',
        response: { 200: BannersSchema, ...errors },
      },
    },
    async () => {
      const { versao, banners } = await admin.banners();
      return { versao, banners: banners.map(toBannerWire) };
    },
  );

  app.put(
    '/home/banners/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary:
          'Definir os banners da home (imagem, texto, link), na ordem; 409 se outra pessoa mudou a lista',
        body: BannersUpdateSchema,
        response: { 200: BannersSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const list = req.body.banners.map((b) => ({ imageUrl: b.imagem, text: b.texto, link: b.link }));
      await audited(
        req,
        (tx) => admin.setBanners(tx, req.body.versao, list),
        ({ before }) => ({
          action: 'banners_alterados',
          entity: 'home',
          entityId: null,
          before: before.map(toBannerWire),
          after: req.body.banners,
        }),
      );
      const { versao, banners } = await admin.banners();
      return { versao, banners: banners.map(toBannerWire) };
    },
  );

  photoUploadRoute(app, '/home/banners/image/', 'banners', {
    config: CATALOG,
    tags,
    summary:
      'Enviar a imagem de um banner (multipart, campo "foto"). Responde 202 com a foto em "processando"; ' +
      'a URL vai em imagem quando GET /photos/:id/ a der como pronta',
  });

  const ColorWire = z.object({ id: z.number().int(), name: z.string(), hex: z.string() });
  const SizeWire = z.object({ id: z.number().int(), name: z.string() });

  app.get(
    '/colors/',
    {
      config: { painel: { permission: ['catalogo', 'estoque'] } },
      schema: { tags, summary: 'Cores', response: { 200: z.array(ColorWire), ...errors } },
    },
    async () => admin.listColors(),
  );
  app.get(
    '/sizes/',
    {
      config: { painel: { permission: ['catalogo', 'estoque'] } },
      schema: { tags, summary: 'Tamanhos', response: { 200: z.array(SizeWire), ...errors } },
    },
    async () => (await admin.listSizes()).map((s) => ({ id: s.id, name: s.name })),
  );
  app.post(
    '/colors/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary: 'Nova cor',
        body: NewColorSchema,
        response: { 201: ColorWire, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req, reply) => {
      const color = await audited(req, (tx) => admin.createColor(tx, req.body), creation('cor'));
      return reply.status(201).send(color);
    },
  );
  app.post(
    '/sizes/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary: 'Novo tamanho',
        body: NewSizeSchema,
        response: { 201: SizeWire, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req, reply) => {
      const size = await audited(
        req,
        (tx) => admin.createSize(tx, { name: req.body.name, sortOrder: req.body.sort_order }),
        creation('tamanho'),
      );
      return reply.status(201).send(size);
    },
  );

  app.post(
    '/stock/',
    {
      config: STOCK,
      schema: {
        tags,
        summary: 'Ajustar (+/−) ou definir o estoque de uma cor × tamanho, com o motivo',
        body: StockChangeSchema,
        response: {
          200: z.object({ before: z.number().int(), after: z.number().int(), delta: z.number().int() }),
          ...errors,
          409: ApiErrorSchema,
        },
      },
    },
    async (req) => {
      const b = req.body;
      if (b.modo === 'definir' && b.quantidade < 0) {
        throw badRequest('A quantidade contada não pode ser negativa.', 'validation_error', {
          quantidade: 'A quantidade contada não pode ser negativa.',
        });
      }
      if (b.modo === 'ajustar' && b.quantidade === 0) {
        throw badRequest('Informe quantas unidades entram (+) ou saem (−).', 'validation_error', {
          quantidade: 'Informe quantas unidades entram (+) ou saem (−).',
        });
      }
      const combo = { productId: b.product_id, colorId: b.color_id, sizeId: b.size_id };
      return audited(
        req,
        (tx) =>
          admin.changeStock(
            tx,
            combo,
            b.modo === 'definir' ? { set: b.quantidade } : { delta: b.quantidade },
            {
              reason: b.motivo,
              note: b.observacao,
              staffId: actor(req).id,
            },
          ),
        (result) => ({
          action: `estoque_${b.motivo}`,
          entity: 'estoque',
          entityId: `${b.product_id}/${b.color_id}/${b.size_id}`,
          before: { quantidade: result.before },
          after: { quantidade: result.after, observacao: b.observacao },
        }),
      );
    },
  );

  app.get(
    '/stock/history/',
    {
      config: STOCK,
      schema: {
        tags,
        summary: 'Histórico de uma combinação cor × tamanho',
        querystring: StockComboQuerySchema,
        response: { 200: z.array(StockMovementSchema), ...errors },
      },
    },
    async (req) => {
      const rows = await admin.stockHistory({
        productId: req.query.product_id,
        colorId: req.query.color_id,
        sizeId: req.query.size_id,
      });
      return rows.map((r) => ({
        id: r.id,
        delta: r.delta,
        quantity_after: r.quantityAfter,
        reason: r.reason,
        note: r.note,
        staff_email: r.staffEmail,
        order_id: r.orderId,
        at: r.at.toISOString(),
      }));
    },
  );

  app.get(
    '/stock/low/',
    {
      config: STOCK,
      schema: {
        tags,
        summary: 'Combinações com estoque até o limite (produtos visíveis)',
        querystring: LowStockQuerySchema,
        response: { 200: z.array(LowStockItemSchema), ...errors },
      },
    },
    async (req) =>
      (await admin.lowStock(req.query.limite)).map((r) => ({
        product_id: r.productId,
        product_name: r.productName,
        color: r.color,
        color_id: r.colorId,
        size: r.size,
        size_id: r.sizeId,
        quantity: r.quantity,
      })),
  );
};
