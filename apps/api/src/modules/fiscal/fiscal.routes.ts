import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import { MyNotasSchema } from '@passada/core/contracts/fiscal';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.ts';
import type { FiscalService } from './fiscal.service.ts';

const FileParams = IdParamSchema.extend({
  token: z.string().min(16).max(64),
  file: z.enum(['danfe.pdf', 'danfe.xml', 'nfse.pdf', 'nfse.xml', 'evento.xml']),
});

/**
 * The files of an authorised nota (`GET /api/notas/:id/:token/danfe.pdf`, `…/danfe.xml`, `nfse.*`):
 * no login, the random token in the link is the key (the e-mail's links open from any device).
 */
export const fiscalRoutes: FastifyPluginAsyncZod<{ fiscal: FiscalService }> = async (app, { fiscal }) => {
  app.get(
    '/api/notas/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notas fiscais'],
        summary: 'Notas fiscais dos pedidos e inscrições desta conta (links do DANFE, da NFS-e e do XML)',
        response: { 200: MyNotasSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return fiscal.notasOfUser(user.id);
    },
  );

  app.get(
    '/api/notas/:id/:token/:file',
    {
      schema: {
        tags: ['notas fiscais'],
        summary: 'DANFE (PDF) ou XML de uma nota autorizada, pelo link enviado ao comprador',
        params: FileParams,
      },
    },
    async (req, reply) => {
      const ext = req.params.file.endsWith('.pdf') ? 'pdf' : 'xml';
      const { bytes, kind, number } = await fiscal.file(req.params.id, req.params.token, ext);
      const name = `${kind === 'nfse' ? 'nfse' : kind === 'nfe_evento' ? 'evento-nfe' : 'nfe'}-${number}.${ext}`;
      return reply
        .header('content-type', ext === 'pdf' ? 'application/pdf' : 'application/xml; charset=utf-8')
        .header('content-disposition', `inline; filename="${name}"`)
        .header('cache-control', 'private, no-store')
        .header('x-robots-tag', 'noindex')
        .send(bytes);
    },
  );
};
