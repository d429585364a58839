import { AfterSaleSaveSchema, PainelAfterSaleSchema } from '@passada/core/contracts/after-sale';
import { IdParamSchema } from '@passada/core/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audited, PAINEL_ERRORS } from '../staff/index.ts';

const EventIdSchema = IdParamSchema;

/**
 * An event's after-sale rules (docs/decisions/0035-runner-after-sale.md): what runners may do alone
 * after paying. Admins read and save them with the version read; each save is audited.
 */
export const afterSaleRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['painel: eventos'];

  app.get(
    '/events/:id/pos-venda/',
    {
      config: { painel: { permission: 'eventos' } },
      schema: {
        tags,
        summary: 'Regras de pós-venda do evento (cancelamento, transferência, trocas, lista de espera)',
        params: EventIdSchema,
        response: { 200: PainelAfterSaleSchema, ...PAINEL_ERRORS },
      },
    },
    (req) => app.registrationsAdmin.afterSale.rules(req.params.id),
  );

  app.put(
    '/events/:id/pos-venda/',
    {
      config: { painel: { permission: 'eventos' } },
      schema: {
        tags,
        summary: 'Salvar as regras de pós-venda com a versão lida (409 se outra pessoa salvou antes)',
        params: EventIdSchema,
        body: AfterSaleSaveSchema,
        response: { 200: PainelAfterSaleSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      await audited(
        req,
        async (tx) => {
          const before = await app.registrationsAdmin.afterSale.save(tx, req.params.id, req.body);
          // A waitlist turned on, or offers held longer: the sweep looks again (docs/decisions/0042).
          await app.registrationsAdmin.waitlist.nudge(tx);
          return before;
        },
        (before) => ({
          action: 'alterado',
          entity: 'pos_venda',
          entityId: req.params.id,
          before,
          after: req.body,
        }),
      );
      return app.registrationsAdmin.afterSale.rules(req.params.id);
    },
  );
};
