import fp from 'fastify-plugin';
import { cartRoutes } from './cart.routes.ts';
import { type CartRecovery, createCartRecovery } from './cart-recovery.ts';
import { createOrderAdditions, type OrderAdditions } from './order-additions.ts';
import { createOrderChange } from './order-change.ts';
import { createOrderChangeManager } from './order-change-manager.ts';
import { createOrderExchanges, type OrderExchanges } from './order-exchanges.ts';
import { createOrderRefundsAdmin, type OrderRefundsAdmin } from './order-refunds-admin.ts';
import { createOrderReturns } from './order-returns.ts';
import { createOrderWhatsApp, type OrderWhatsApp } from './order-whatsapp.ts';
import { ordersRoutes } from './orders.routes.ts';
import { createOrdersService } from './orders.service.ts';
import { createOrdersAdmin, type OrdersAdmin } from './orders-admin.ts';
import { productSizingRoutes } from './product-sizing.routes.ts';
import { createReturnTracking, type ReturnTracking } from './return-tracking.ts';
import { returnsRoutes } from './returns.routes.ts';
import { createReturnsAdmin, type ReturnsAdmin } from './returns-admin.ts';
import { reviewsRoutes } from './reviews.routes.ts';
import { createReviews, type Reviews } from './reviews.ts';
import { eraseOrdersPlacedBefore } from './sales-records.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The back office's side of orders (list, detail, status flow); the painel module calls it. */
    orders: {
      admin: OrdersAdmin;
      returnsAdmin: ReturnsAdmin;
      exchanges: OrderExchanges;
      tracking: ReturnTracking;
      refunds: OrderRefundsAdmin;
      /** Verified reviews (decision 0071): the back office's queue and the product's summary. */
      reviews: Pick<Reviews, 'painelList' | 'moderate' | 'summary'>;
      /**
       * WhatsApp updates to buyers who opted in: `notifyUpdate(orderId, what, tx)` with "what" completing
       * "Pedido nº 1042: …" (shipping tracking calls it for each delivery event).
       */
      whatsapp: Pick<OrderWhatsApp, 'notifyUpdate'>;
      /** Staff's proposals of additions to orders not shipped yet (decision 0087, later). */
      additions: Pick<OrderAdditions, 'offer'>;
      /** Reminders of carts and registrations left unpaid (decision 0072): the back office's settings. */
      recovery: Pick<CartRecovery, 'panel' | 'saveSettings'>;
    };
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
    const additions = createOrderAdditions({
      db: app.db,
      env: app.env,
      now: app.now,
      jobs: app.jobs,
      mail: app.providers.mail,
      orders,
    });
    app.jobs.work('mail.order-addition-offer', (data) => additions.sendOffer(data));
    // Every change to a sold order goes through these named steps (money, stock, notas, e-mails).
    const change = createOrderChange({
      db: app.db,
      jobs: app.jobs,
      catalog: app.catalog,
      payments: app.payments,
    });
    // The one door for a change to an order before it ships (docs/decisions/0065).
    const manager = createOrderChangeManager({
      db: app.db,
      now: app.now,
      jobs: app.jobs,
      payments: app.payments,
      catalog: app.catalog,
      coupons: app.coupons,
      registrations: app.registrations.cart,
      kitPickedUp: app.registrationsAdmin.kitPickedUp,
      notaReplaceable: app.fiscal.orderNfeReplaceable,
      change,
    });
    // After the sale: withdrawal, returns and exchanges (docs/decisions/0036).
    const returns = createOrderReturns({
      db: app.db,
      env: app.env,
      now: app.now,
      log: app.log,
      mail: app.providers.mail,
      jobs: app.jobs,
      payments: app.payments,
      registrations: app.registrations.cart,
      shipping: app.providers.shipping,
      change,
      manager,
      confirmFirst: orders.confirmFirst,
    });
    app.jobs.work('mail.return-update', ({ returnId, eventId }) => returns.sendUpdate(returnId, eventId));
    // Exchanges (docs/decisions/0040): a charge with `finalidade: 'troca'` pays a price difference.
    const exchanges = createOrderExchanges({
      db: app.db,
      now: app.now,
      log: app.log,
      jobs: app.jobs,
      catalog: app.catalog,
      payments: app.payments,
      returns,
      change,
    });
    app.payments.registerPurpose('exchange', exchanges.purpose);
    app.jobs.work('returns.lapse-exchanges', async () => {
      await exchanges.lapseExchanges();
    });
    // The `postada` step from the carrier's tracking of the return code, when it offers it.
    const tracking = createReturnTracking({
      db: app.db,
      now: app.now,
      log: app.log,
      jobs: app.jobs,
      shipping: app.providers.shipping,
    });
    app.jobs.work('returns.follow-postings', async () => {
      await tracking.followPostings();
    });
    app.addHook('onReady', async () => {
      // Tests drive these themselves, on their own clock.
      if (app.env.NODE_ENV !== 'test') {
        await app.jobs.schedule('returns.lapse-exchanges', '30 3 * * *', {});
        await app.jobs.schedule('returns.follow-postings', '15 * * * *', {});
      }
    });
    const whatsapp = createOrderWhatsApp({
      db: app.db,
      env: app.env,
      jobs: app.jobs,
      whatsapp: app.providers.whatsapp,
    });
    app.jobs.work('whatsapp.order-update', ({ orderId, what }) => whatsapp.sendUpdate(orderId, what));
    // The buyer's data on orders past the records' legal period, asked by accounts (decision 0061).
    const recovery = createCartRecovery({
      db: app.db,
      jobs: app.jobs,
      mail: app.providers.mail,
      whatsapp: app.providers.whatsapp,
      env: app.env,
      now: app.now,
      catalog: app.catalog,
      events: app.events,
    });
    app.jobs.work('orders.cart-recovery', () => recovery.sweep().then(() => undefined));
    app.jobs.work('mail.cart-recovery', ({ reminderId }) => recovery.sendMail(reminderId));
    app.jobs.work('whatsapp.cart-recovery', ({ reminderId }) => recovery.sendWhatsApp(reminderId));
    await app.jobs.schedule('orders.cart-recovery', '*/5 * * * *', {});
    const reviews = createReviews({
      db: app.db,
      now: app.now,
      setRating: (tx, productId, tenths) => app.catalog.admin.setRating(tx, productId, tenths),
      storage: app.providers.media,
      maxPixels: app.env.PHOTO_MAX_PIXELS,
      log: app.log,
    });
    app.accounts.personalData.register({
      module: 'orders',
      eraseSalesRecords: eraseOrdersPlacedBefore,
      // An erased account's cart, reminders and choice about them go with it (decision 0072), and
      // its review photos (decision 0071, later).
      forgetAccount: async (tx, account) => {
        await recovery.forgetUser(tx, account.userId);
        await reviews.forgetPhotos(tx, account.userId);
      },
    });
    app.decorate('orders', {
      additions: { offer: additions.offer },
      recovery: { panel: recovery.panel, saveSettings: recovery.saveSettings },
      reviews: { painelList: reviews.painelList, moderate: reviews.moderate, summary: reviews.summary },
      whatsapp: { notifyUpdate: whatsapp.notifyUpdate },
      admin: createOrdersAdmin({
        db: app.db,
        now: app.now,
        jobs: app.jobs,
        payments: app.payments,
        registrations: app.registrations.cart,
        manager,
      }),
      returnsAdmin: createReturnsAdmin({
        db: app.db,
        now: app.now,
        jobs: app.jobs,
        payments: app.payments,
        catalog: app.catalog,
        returns,
        change,
        registrations: app.registrations.cart,
        env: app.env,
      }),
      exchanges,
      tracking,
      refunds: createOrderRefundsAdmin({ db: app.db, payments: app.payments }),
    });
    await app.register(ordersRoutes, { orders });
    await app.register(productSizingRoutes);
    await app.register(reviewsRoutes, { reviews, storage: app.providers.media });
    await app.register(cartRoutes, { recovery });
    await app.register(returnsRoutes, { returns, exchanges });
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
      'fiscal',
      'events',
    ],
  },
);
export { orderMailPreviews } from './mail-previews.ts';
