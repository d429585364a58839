import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../plugins/errors.ts';
import { photoFile } from './photos.ts';

/** Uploaded photos, public like the shop's other images; a name never changes its bytes. */
export const mediaRoutes: FastifyPluginAsyncZod<{ mediaDir: string }> = async (app, { mediaDir }) => {
  app.get(
    '/api/media/uploads/:folder/:file',
    {
      schema: {
        tags: ['produtos'],
        summary: 'Foto enviada pelo painel (WebP ou AVIF, 400/800/1200 px de largura)',
        params: z.object({ folder: z.string().max(20), file: z.string().max(60) }),
      },
    },
    async (req, reply) => {
      const found = photoFile(mediaDir, req.params.folder, req.params.file);
      const size = found
        ? await stat(found.path).then(
            (s) => s.size,
            () => null,
          )
        : null;
      if (!found || size === null) throw notFound('Imagem não encontrada.');
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-length', size)
        .type(found.type)
        .send(createReadStream(found.path));
    },
  );
};
