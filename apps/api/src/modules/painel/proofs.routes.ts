import { createReadStream } from 'node:fs';
import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import { PROOF_STATUSES, ProofDecisionSchema, ProofReviewSchema } from '@passada/core/contracts/price-rules';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actor, audited, PAINEL_ERRORS, type PainelRouteConfig } from '../staff/index.ts';

/** Who reviews proofs (student IDs, teachers', PCD documents: health data). */
const PROOFS = { painel: { permission: 'comprovantes' } } satisfies { painel: PainelRouteConfig };

/**
 * The review queue of special prices' proofs (docs/decisions/0068): the document beside the runner's
 * data, read only by who holds `comprovantes`; each decision audited, a refusal e-mailed to the runner.
 */
export const proofsRoutes: FastifyPluginAsyncZod = async (app) => {
  const proofs = app.registrationsAdmin.proofs;
  const tags = ['painel: eventos'];
  const errors = { ...PAINEL_ERRORS, 400: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema };

  app.get(
    '/comprovantes/',
    {
      config: PROOFS,
      schema: {
        tags,
        summary:
          'A fila de comprovantes de preço especial: pendentes por prazo (ou os de uma situação), de um evento ou de todos',
        querystring: z.object({
          evento: z.coerce.number().int().positive().optional(),
          situacao: z.enum(PROOF_STATUSES).default('pendente'),
        }),
        response: { 200: z.array(ProofReviewSchema), ...errors },
      },
    },
    (req) => proofs.queue({ eventId: req.query.evento, status: req.query.situacao }),
  );

  app.get(
    '/comprovantes/:id/arquivo/',
    {
      config: PROOFS,
      schema: {
        tags,
        summary: 'O arquivo de um comprovante (foto em WebP ou PDF), nunca guardado em cache',
        params: IdParamSchema,
      },
    },
    async (req, reply) => {
      const file = await proofs.file(req.params.id);
      return reply
        .type(file.type)
        .header('cache-control', 'no-store')
        .header('content-disposition', 'inline')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(file.path));
    },
  );

  app.post(
    '/comprovantes/:id/decisao/',
    {
      config: PROOFS,
      schema: {
        tags,
        summary: 'Aprovar ou recusar um comprovante (uma vez); a recusa vai ao participante com o motivo',
        params: IdParamSchema,
        body: ProofDecisionSchema,
        response: { 200: ProofReviewSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => proofs.decide(tx, req.params.id, req.body, actor(req).name),
        (after) => ({
          action: after.situacao === 'aprovado' ? 'comprovante_aprovado' : 'comprovante_recusado',
          entity: 'inscricao',
          entityId: after.inscricao,
          after: { regra: after.regra.nome, situacao: after.situacao, motivo: after.motivo },
        }),
      ),
  );
};
