import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  BannersSchema,
  BannersUpdateSchema,
  FeaturedSchema,
  FeaturedUpdateSchema,
} from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audited, type PainelRouteConfig } from '../staff/index.ts';
import { CATALOG, catalogRouteSchema, toBannerWire } from './catalog-wire.ts';
import { photoUploadRoute } from './photos.ts';

/**
 * Reading the home's lists: every role of the shop's office (the kit-desk volunteer's back office is the
 * desk only); editing them is the catalogue's (`catalogo`).
 */
const READ_HOME = {
  painel: { permission: ['catalogo', 'estoque', 'pedidos', 'relatorios'] },
} satisfies { painel: PainelRouteConfig };

/** The shop's home: featured products and banners (docs/decisions/0034). */
export const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.catalog.admin;
  const { tags, errors } = catalogRouteSchema;

  app.get(
    '/home/featured/',
    {
      config: READ_HOME,
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
      config: READ_HOME,
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
};
