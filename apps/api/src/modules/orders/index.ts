import fp from 'fastify-plugin';
import { ordersRoutes } from './orders.routes.ts';
import { createOrdersService } from './orders.service.ts';

/** Orders: paid through an 'order' charge, then listed for their owner (docs/product.md §5). */
export default fp(
  async (app) => {
    const orders = createOrdersService({
      db: app.db,
      env: app.env,
      now: app.now,
      log: app.log,
      mail: app.providers.mail,
      payments: app.payments,
      catalog: app.catalog,
      addresses: app.accounts.addresses,
      shipping: app.shipping,
    });
    // A charge with `finalidade: 'pedido'` pays for an order: payments calls back into this module.
    app.payments.registerPurpose('order', orders.purpose);
    // A shutdown lets confirmation e-mails already under way finish before the database goes.
    app.addHook('onClose', async () => orders.drain());
    await app.register(ordersRoutes, { orders });
  },
  { name: 'orders', dependencies: ['infra', 'payments', 'catalog', 'accounts', 'shipping'] },
);
