import fp from 'fastify-plugin';
import { paymentsRoutes } from './payments.routes.ts';
import { createPaymentsService, type PaymentsService } from './payments.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Charges and their confirmation; orders and registrations register what a charge pays for. */
    payments: PaymentsService;
  }
}

/** Charges (Pix and card), their one confirmation path and the expiry sweep (docs/architecture.md §5). */
export default fp(
  async (app) => {
    const payments = createPaymentsService({
      db: app.db,
      env: app.env,
      provider: app.providers.payments,
      now: app.now,
      log: app.log,
    });
    app.decorate('payments', payments);
    app.addHook('onClose', async () => payments.stop());
    await app.register(paymentsRoutes, { payments });
  },
  { name: 'payments', dependencies: ['infra'] },
);
