import { RecoveryPanelSchema, RecoverySettingsSchema } from '@passada/core/contracts/cart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audited, PAINEL_ERRORS, type PainelRouteConfig } from '../staff/index.ts';

const ORDERS = { painel: { permission: 'pedidos' } } satisfies { painel: PainelRouteConfig };

/**
 * The reminders of carts and registrations left unpaid (docs/decisions/0072): on or off, how long
 * after the buyer left, and what they did in the last 30 days.
 */
export const recoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const recovery = app.orders.recovery;
  const tags = ['painel: lembretes'];

  app.get(
    '/recuperacao/',
    {
      config: ORDERS,
      schema: {
        tags,
        summary:
          'Os lembretes de carrinho e de inscrição sem pagamento: se estão ativos, o atraso e os números de 30 dias',
        response: { 200: RecoveryPanelSchema, ...PAINEL_ERRORS },
      },
    },
    async () => recovery.panel(),
  );

  app.put(
    '/recuperacao/',
    {
      config: ORDERS,
      schema: {
        tags,
        summary: 'Ativar ou desativar os lembretes e escolher quanto tempo depois eles saem',
        body: RecoverySettingsSchema,
        response: { 200: RecoveryPanelSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      await audited(
        req,
        (tx) => recovery.saveSettings(tx, req.body),
        () => ({
          action: 'lembretes_configurados',
          entity: 'loja',
          entityId: 1,
          after: { ativa: req.body.ativa, atraso_minutos: req.body.atraso_minutos },
        }),
      );
      return recovery.panel();
    },
  );
};
