import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  NewColorSchema,
  NewSizeSchema,
  PainelProductSchema,
  PainelProductsQuerySchema,
  PainelSizeGuideSchema,
  ProductInputSchema,
  ProductPatchSchema,
  ProductPublishSchema,
  ProductSaleSchema,
  ProductUnscheduleSchema,
} from '@passada/core/contracts/painel';
import { reaisToCents } from '@passada/core/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { StaffProduct } from '../catalog/catalog-admin.ts';
import { audited, creation } from '../staff/index.ts';
import {
  CATALOG,
  catalogRouteSchema,
  ProductIdSchema,
  productFields,
  saleWire,
  toProductWire,
} from './catalog-wire.ts';

/** Products, colours and sizes: every write goes through the catalog module's service (photos in product-photos.routes.ts, stock in stock.routes.ts, the home page in home.routes.ts). */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.catalog.admin;
  const { tags, errors } = catalogRouteSchema;

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

  app.put(
    '/products/:id/promocao/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary:
          'Preço promocional do produto (de/por) com início e fim, ou null para encerrar, com a versão lida (409 se outra pessoa salvou antes)',
        params: ProductIdSchema,
        body: ProductSaleSchema,
        response: { 200: PainelProductSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const { versao, promocao } = req.body;
      const sale = promocao && {
        priceCents: reaisToCents(promocao.preco),
        startsAt: new Date(promocao.inicio),
        endsAt: new Date(promocao.fim),
        only: promocao.combinacoes.map((c) => ({ colorId: c.cor_id, sizeId: c.tamanho_id })),
      };
      await audited(
        req,
        (tx) => admin.setSale(tx, req.params.id, versao, sale),
        ({ before, after }) => ({
          action: after ? 'promocao_definida' : 'promocao_encerrada',
          entity: 'produto',
          entityId: req.params.id,
          before: { promocao: before && saleWire(before) },
          after: { promocao: after && saleWire(after) },
        }),
      );
      return toProductWire(await admin.getProduct(req.params.id));
    },
  );

  // Publishing a draft (docs/decisions/0085): now, or at a time the minute job keeps.
  const publishing = ({ before, after }: { before: StaffProduct; after: StaffProduct }) => ({
    entity: 'produto',
    entityId: after.id,
    before: { rascunho: before.draft, publicar_em: before.publishAt?.toISOString() ?? null },
    after: { rascunho: after.draft, publicar_em: after.publishAt?.toISOString() ?? null },
  });

  app.post(
    '/products/:id/publicar/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary:
          'Publicar um rascunho agora, ou agendar o lançamento para publicar_em; precisa de uma foto pronta e de estoque (409 produto_incompleto), com a versão lida',
        params: ProductIdSchema,
        body: ProductPublishSchema,
        response: { 200: PainelProductSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const at = req.body.publicar_em === null ? null : new Date(req.body.publicar_em);
      const { after } = await audited(
        req,
        (tx) => admin.publish(tx, req.params.id, req.body.versao, at),
        (change) => ({
          action: change.after.draft ? 'lancamento_agendado' : 'publicado',
          ...publishing(change),
        }),
      );
      return toProductWire(after);
    },
  );

  app.post(
    '/products/:id/publicar/cancelar/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary: 'Cancelar o lançamento agendado de um rascunho (ele continua rascunho), com a versão lida',
        params: ProductIdSchema,
        body: ProductUnscheduleSchema,
        response: { 200: PainelProductSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const { after } = await audited(
        req,
        (tx) => admin.unschedule(tx, req.params.id, req.body.versao),
        (change) => ({ action: 'lancamento_cancelado', ...publishing(change) }),
      );
      return toProductWire(after);
    },
  );

  app.put(
    '/products/:id/medidas/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary:
          'Guia de medidas do produto: até seis medidas (em cm) por tamanho do produto, com a versão lida (409 se outra pessoa salvou antes)',
        params: ProductIdSchema,
        body: PainelSizeGuideSchema,
        response: { 200: PainelProductSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const { versao, ...guide } = req.body;
      await audited(
        req,
        (tx) => admin.setSizeGuide(tx, req.params.id, versao, guide),
        ({ before, after }) => ({
          action: 'guia_de_medidas',
          entity: 'produto',
          entityId: req.params.id,
          before: { medidas: before },
          after: { medidas: after },
        }),
      );
      return toProductWire(await admin.getProduct(req.params.id));
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
};
