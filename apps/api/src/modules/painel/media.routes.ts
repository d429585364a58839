import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../plugins/errors.ts';
import { sendStoredMedia } from '../../providers/storage/send-stored.ts';
import type { MediaStorage } from '../../providers/storage/storage.provider.ts';
import { photoFile } from './photos.ts';

/**
 * Uploaded photos, public like the shop's other images; a name never changes its bytes. They are
 * streamed from the media storage (disk or bucket) at the same address either way (docs/decisions/0018).
 */
export const mediaRoutes: FastifyPluginAsyncZod<{ storage: MediaStorage }> = async (app, { storage }) => {
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
      const found = photoFile(req.params.folder, req.params.file);
      if (!found) throw notFound('Imagem não encontrada.');
      const sent = await sendStoredMedia(req, reply, storage, {
        key: found.key,
        type: found.type,
        cacheControl: 'public, max-age=31536000, immutable',
      });
      if (!sent) throw notFound('Imagem não encontrada.');
      return sent;
    },
  );
};
