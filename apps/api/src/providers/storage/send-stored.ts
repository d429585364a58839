import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../plugins/errors.ts';
import type { MediaStorage } from './storage.provider.ts';

/**
 * Streams a stored file as the answer, with its length, type and cache rule; null when the storage has
 * no such key (the caller answers 404 or its own fallback). A storage that cannot be read answers 502 in
 * Portuguese, the cause logged. Uploaded photos, review photos and the e-mails' logo are served by it.
 */
export async function sendStoredMedia(
  req: FastifyRequest,
  reply: FastifyReply,
  storage: MediaStorage,
  file: { key: string; type: string; cacheControl: string },
): Promise<FastifyReply | null> {
  const stored = await storage.get(file.key).catch((err: unknown) => {
    req.log.error({ err }, 'media storage read failed');
    throw new HttpError(502, 'Não foi possível carregar a imagem agora.', 'armazenamento_indisponivel');
  });
  if (!stored) return null;
  return reply
    .header('cache-control', file.cacheControl)
    .header('content-length', stored.size)
    .type(file.type)
    .send(stored.body);
}
