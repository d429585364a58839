import fp from 'fastify-plugin';
import { shippingRoutes } from './shipping.routes.ts';

export { shippingMailPreviews } from './mail-previews.ts';

import { createShippingService, type ShippingService } from './shipping.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** PAC and SEDEX quotes; orders price their shipping through it. */
    shipping: ShippingService;
  }
}

/** Shipping quotes for a CEP and a cart (docs/architecture.md §6). */
export default fp(
  async (app) => {
    const shipping = createShippingService({
      provider: app.providers.shipping,
      env: app.env,
      now: app.now,
      catalog: app.catalog,
      log: app.log,
    });
    app.decorate('shipping', shipping);
    await app.register(shippingRoutes, { shipping });
  },
  { name: 'shipping', dependencies: ['infra', 'catalog'] },
);
