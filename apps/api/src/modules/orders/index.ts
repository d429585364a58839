import fp from 'fastify-plugin';
import { createOrderReturns } from './order-returns.ts';
import { ordersRoutes } from './orders.routes.ts';
import { createOrdersService } from './orders.service.ts';
import { createOrdersAdmin, type OrdersAdmin } from './orders-admin.ts';
import { returnsRoutes } from './returns.routes.ts';
import { createReturnsAdmin, type ReturnsAdmin } from './returns-admin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The back office's side of orders (list, detail, status flow); the painel module calls it. */
    orders: { admin: OrdersAdmin; returnsAdmin: ReturnsAdmin };
  }
}

/** Orders: paid through an 'order' charge, then listed for their owner (docs/product.md §5). */
export default fp(
  async (app) => {
    const orders = createOrdersService({
      db: app.db,
      env: app.env,
      now: app.now,
      log: app.log,
      mail: app.providers.mail,
      jobs: app.jobs,
      payments: app.payments,
      catalog: app.catalog,
      addresses: app.accounts.addresses,
      shipping: app.shipping,
      coupons: app.coupons,
      registrations: app.registrations.cart,
    });
    // A charge with `finalidade: 'pedido'` pays for an order: payments calls back into this module.
    app.payments.registerPurpose('order', orders.purpose);
    app.coupons.registerPricer('order', orders.pricePreview);
    app.jobs.work('mail.order-confirmation', ({ orderId }) => orders.sendConfirmation(orderId));
    app.jobs.work('mail.order-status', ({ orderId, status }) => orders.sendStatusNotice(orderId, status));
    // After the sale: withdrawal, returns and exchanges (docs/decisions/0036).
    const returns = createOrderReturns({
      db: app.db,
      env: app.env,
      now: app.now,
      log: app.log,
      mail: app.providers.mail,
      jobs: app.jobs,
      payments: app.payments,
      catalog: app.catalog,
      coupons: app.coupons,
      registrations: app.registrations.cart,
      kitPickedUp: app.registrationsAdmin.kitPickedUp,
      shipping: app.providers.shipping,
    });
    app.jobs.work('mail.return-update', ({ returnId }) => returns.sendUpdate(returnId));
    app.decorate('orders', {
      admin: createOrdersAdmin({
        db: app.db,
        now: app.now,
        jobs: app.jobs,
        payments: app.payments,
        catalog: app.catalog,
        registrations: app.registrations.cart,
        kitPickedUp: app.registrationsAdmin.kitPickedUp,
        coupons: app.coupons,
      }),
      returnsAdmin: createReturnsAdmin({
        db: app.db,
        now: app.now,
        jobs: app.jobs,
        payments: app.payments,
        catalog: app.catalog,
        returns,
      }),
    });
    await app.register(ordersRoutes, { orders });
    await app.register(returnsRoutes, { returns });
  },
  {
    name: 'orders',
    dependencies: [
      'infra',
      'jobs',
      'payments',
      'catalog',
      'accounts',
      'shipping',
      'coupons',
      'registrations',
    ],
  },
);
