import {
  ProductCategorySchema,
  ProductListSchema,
  ProductSchema,
  ProductSearchQuerySchema,
  StockQuerySchema,
} from '@passada/core/contracts/catalog';
import { ApiErrorSchema } from '@passada/core/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../plugins/errors.ts';
import { type CatalogService, PRODUCT_NOT_FOUND } from './catalog.service.ts';
import { parseImageFileName, productImage } from './product-images.ts';

/** Ids in the path are digits; anything else is a product that does not exist, not a bad request. */
const ProductIdParamSchema = z.object({ id: z.string() });
const parseProductId = (raw: string): number => {
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (id <= 0) throw notFound(PRODUCT_NOT_FOUND);
  return id;
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

export const catalogRoutes: FastifyPluginAsyncZod<{ catalog: CatalogService }> = async (app, { catalog }) => {
  const tags = ['produtos'];

  app.get(
    '/api/products/',
    { schema: { tags, summary: 'Todos os produtos', response: { 200: ProductListSchema } } },
    async () => catalog.listProducts(),
  );

  app.get(
    '/api/products/category/:category/',
    {
      schema: {
        tags,
        summary: 'Produtos de uma categoria (feminino, masculino, acessorios)',
        params: z.object({ category: z.string() }),
        response: { 200: ProductListSchema, 404: ApiErrorSchema },
      },
    },
    async (req) => {
      const category = ProductCategorySchema.safeParse(req.params.category);
      if (!category.success) throw notFound('Categoria não encontrada.');
      return catalog.listProducts(category.data);
    },
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

  app.get(
    '/api/products/:id/',
    {
      schema: {
        tags,
        summary: 'Um produto; com color e size, a consulta de estoque dessa combinação',
        params: ProductIdParamSchema,
        querystring: StockQuerySchema,
        response: { 200: ProductSchema, 404: ApiErrorSchema },
      },
    },
    async (req) => catalog.getProduct(parseProductId(req.params.id), req.query),
  );

  app.get(
    '/api/media/products/:file',
    {
      schema: {
        tags,
        summary: 'Imagem gerada de um produto (SVG, nome com hash do conteúdo)',
        params: z.object({ file: z.string().max(100) }),
      },
    },
    async (req, reply) => {
      const parsed = parseImageFileName(req.params.file);
      if (!parsed) throw notFound('Imagem não encontrada.');
      const image = productImage(parsed.kind, parsed.view, parsed.color);
      if (image.hash !== parsed.hash) {
        // An address from before the drawing changed: send the browser to the current one.
        return reply.header('cache-control', 'public, max-age=3600').redirect(image.url, 302);
      }
      return reply.header('cache-control', IMMUTABLE).type('image/svg+xml; charset=utf-8').send(image.svg);
    },
  );
};
