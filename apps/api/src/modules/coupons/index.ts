import fp from 'fastify-plugin';
import { couponsRoutes } from './coupons.routes.ts';
import { type CouponsService, createCouponsService } from './coupons.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Discount coupons: orders and registrations price, hold and confirm them; the back office edits them. */
    coupons: CouponsService;
  }
}

/** Discount coupons for the shop and for races (modules/coupons/README.md). */
export default fp(
  async (app) => {
    const coupons = createCouponsService({ db: app.db, now: app.now, events: app.events });
    app.decorate('coupons', coupons);
    await app.register(couponsRoutes, { coupons });
  },
  { name: 'coupons', dependencies: ['infra', 'events'] },
);
