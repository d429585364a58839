import multipart from '@fastify/multipart';
import { ApiErrorSchema } from '@passada/core/contracts/common';
import { ProofUploadedSchema } from '@passada/core/contracts/price-rules';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth.ts';
import { MAX_PHOTO_BYTES, readUploadedPhoto } from '../../plugins/uploaded-images.ts';
import type { PriceRuleProofs } from './price-rule-proofs.ts';

/**
 * The proof a special price asks for (docs/decisions/0068), sent before paying: a photo or a PDF in
 * the multipart field "foto"; the registration's draft names it by the token answered here.
 */
export const proofsRoutes: FastifyPluginAsyncZod<{ proofs: PriceRuleProofs }> = async (app, { proofs }) => {
  await app.register(multipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 2 } });
  app.post(
    '/api/comprovantes/',
    {
      config: {
        auth: 'user',
        limit: { name: 'comprovantes', max: app.env.PROOF_UPLOAD_RATE_LIMIT_PER_IP, windowSeconds: 3600 },
      },
      schema: {
        tags: ['inscricoes'],
        summary:
          'Enviar o comprovante de um preço especial (foto ou PDF da carteira de estudante, do documento de professor ou PCD) antes de pagar',
        consumes: ['multipart/form-data'],
        response: {
          201: ProofUploadedSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const buffer = await readUploadedPhoto(request, 'Escolha a foto ou o PDF do comprovante.');
      return reply.status(201).send(await proofs.accept(user.id, buffer));
    },
  );
};
