import {
  HomeSchema,
  ProductCategorySchema,
  ProductListSchema,
  ProductSchema,
  ProductSearchQuerySchema,
  StockAlertSchema,
  StockQuerySchema,
} from '@passada/core/contracts/catalog';
import { ApiErrorSchema } from '@passada/core/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AnswerCache, PRECOMPRESSED, sendCached } from '../../plugins/answer-cache.ts';
import { notFound } from '../../plugins/errors.ts';
import { type CatalogService, PRODUCT_NOT_FOUND } from './catalog.service.ts';
import { parseImageFileName, productImage, productImageRaster } from './product-images.ts';
import type { StockAlerts } from './stock-alerts.ts';

/** Ids in the path are digits; anything else is a product that does not exist, not a bad request. */
const ProductIdParamSchema = z.object({ id: z.string() });
const parseProductId = (raw: string): number => {
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (id <= 0) throw notFound(PRODUCT_NOT_FOUND);
  return id;
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The list, category and product answers are built from their own contracts' types by the service
 * and kept serialized (answer-cache.ts): validating them again on every send would cost more than
 * reading them did.
 */
export const catalogRoutes: FastifyPluginAsyncZod<{
  catalog: CatalogService;
  cache: AnswerCache;
  stockAlerts: StockAlerts;
}> = async (app, { catalog, cache, stockAlerts }) => {
  const tags = ['produtos'];

  app.get(
    '/api/products/',
    {
      ...PRECOMPRESSED,
      schema: { tags, summary: 'Todos os produtos', response: { 200: ProductListSchema } },
    },
    async (req, reply) => sendCached(req, reply, await cache.get('all', () => catalog.listProducts())),
  );

  app.get(
    '/api/products/category/:category/',
    {
      ...PRECOMPRESSED,
      schema: {
        tags,
        summary: 'Produtos de uma categoria (feminino, masculino, acessorios)',
        params: z.object({ category: z.string() }),
        response: { 200: ProductListSchema, 404: ApiErrorSchema },
      },
    },
    async (req, reply) => {
      const category = ProductCategorySchema.safeParse(req.params.category);
      if (!category.success) throw notFound('Categoria não encontrada.');
      const answer = await cache.get(`category:${category.data}`, () => catalog.listProducts(category.data));
      return sendCached(req, reply, answer);
    },
  );

  app.get(
    '/api/home/',
    {
      ...PRECOMPRESSED,
      schema: {
        tags,
        summary: 'A home: os banners e todos os produtos em destaque, na ordem escolhida no painel',
        response: { 200: HomeSchema },
      },
    },
    async (req, reply) => sendCached(req, reply, await cache.get('home', () => catalog.getHome())),
  );

  // Registered before /:id/ so "search" is never read as an id.
  app.get(
    '/api/products/search/',
    {
      schema: {
        tags,
        summary: 'Pesquisa por texto (sem acentos), categoria, faixa de preço (reais) e tamanhos em estoque',
        querystring: ProductSearchQuerySchema,
        response: { 200: ProductListSchema },
      },
    },
    async (req) => catalog.searchProducts(req.query),
  );

  app.post(
    '/api/products/:id/avise-me/',
    {
      // Public: a few requests per address, so nobody fills other people's mailboxes.
      config: {
        limit: { name: 'avise-me', max: app.env.STOCK_ALERT_RATE_LIMIT_PER_IP, windowSeconds: 3600 },
      },
      schema: {
        tags,
        summary:
          'Avise-me quando chegar: um e-mail, uma vez, quando a cor e o tamanho sem estoque voltarem (primeiro a pedir, primeiro avisado)',
        params: ProductIdParamSchema,
        body: StockAlertSchema,
        response: {
          201: z.object({ mensagem: z.string() }),
          400: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (req, reply) => {
      const productId = parseProductId(req.params.id);
      const { cor, tamanho, email } = req.body;
      await stockAlerts.subscribe({ productId, colorId: cor, sizeId: tamanho }, email);
      // The same answer whether the address already waited: no list of who waits for what.
      return reply.status(201).send({
        mensagem: `Combinado: avisaremos ${email} uma vez, quando este tamanho voltar.`,
      });
    },
  );

  app.get(
    '/api/products/:id/',
    {
      ...PRECOMPRESSED,
      schema: {
        tags,
        summary: 'Um produto; com color e size, a consulta de estoque dessa combinação',
        params: ProductIdParamSchema,
        querystring: StockQuerySchema,
        response: { 200: ProductSchema, 404: ApiErrorSchema },
      },
    },
    async (req, reply) => {
      const id = parseProductId(req.params.id);
      // A stock check of one colour and size is live: it decides whether the button says "esgotado".
      if (req.query.color !== undefined || req.query.size !== undefined)
        return catalog.getShopProduct(id, req.query);
      return sendCached(req, reply, await cache.get(`product:${id}`, () => catalog.getShopProduct(id)));
    },
  );

  app.get(
    '/api/media/products/:file',
    {
      schema: {
        tags,
        summary:
          'Imagem gerada de um produto (SVG, ou cópia WebP/AVIF de 200, 400 ou 800 px; nome com hash do conteúdo)',
        params: z.object({ file: z.string().max(100) }),
      },
    },
    async (req, reply) => {
      const parsed = parseImageFileName(req.params.file);
      if (!parsed) throw notFound('Imagem não encontrada.');
      const image = productImage(parsed.kind, parsed.view, parsed.color);
      if (image.hash !== parsed.hash) {
        // An address from before the drawing changed: send the browser to the current one.
        const current = parsed.raster
          ? image.url.replace(/\.svg$/, `-${parsed.raster.width}.${parsed.raster.format}`)
          : image.url;
        return reply.header('cache-control', 'public, max-age=3600').redirect(current, 302);
      }
      if (parsed.raster) {
        const { width, format } = parsed.raster;
        return reply
          .header('cache-control', IMMUTABLE)
          .type(`image/${format}`)
          .send(await productImageRaster(image, width, format));
      }
      return reply.header('cache-control', IMMUTABLE).type('image/svg+xml; charset=utf-8').send(image.svg);
    },
  );
};
