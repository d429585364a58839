import fp from 'fastify-plugin';
import { createLabelsService, type LabelsService } from './labels.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Shipping labels and their tracking (docs/decisions/0044); the painel's label routes call it. */
    labels: LabelsService;
  }
}

/**
 * Shipping labels: bought from `app.providers.labels`, printed from the painel, tracked by the
 * `shipping.track-all` job every SHIPPING_TRACKING_CRON.
 */
export default fp(
  async (app) => {
    const labels = createLabelsService({
      db: app.db,
      env: app.env,
      now: app.now,
      log: app.log,
      provider: app.providers.labels,
      mail: app.providers.mail,
      jobs: app.jobs,
      catalog: app.catalog,
      orders: app.orders.admin,
      whatsapp: app.orders.whatsapp,
    });
    app.decorate('labels', labels);
    app.jobs.work('shipping.track-all', () => labels.trackAll());
    app.jobs.work('mail.tracking-update', ({ orderId, state }) => labels.sendTrackingUpdate(orderId, state));
    app.jobs.work('shipping.cancel-label', ({ orderId }) => labels.cancelForOrder(orderId));
    // Tests drive tracking themselves, on their own clock.
    if (app.env.NODE_ENV !== 'test')
      app.addHook('onReady', async () =>
        app.jobs.schedule('shipping.track-all', app.env.SHIPPING_TRACKING_CRON),
      );
  },
  { name: 'shipping-labels', dependencies: ['infra', 'jobs', 'catalog', 'orders'] },
);
