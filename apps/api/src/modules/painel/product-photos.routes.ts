import { ApiErrorSchema } from '@passada/core/contracts/common';
import { ImageOrderSchema, ImagePatchSchema, PainelImageSchema } from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actor, audit, audited } from '../staff/index.ts';
import { CATALOG, catalogRouteSchema, ImageIdSchema, ProductIdSchema, toImageWire } from './catalog-wire.ts';
import { photoKeys, readUploadedPhoto } from './photos.ts';

/** A product's photos: upload, delete, alt text and colour, order (docs/decisions/0027). */
export const productPhotosRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.catalog.admin;
  const { tags, errors } = catalogRouteSchema;

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
};
