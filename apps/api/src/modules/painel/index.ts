import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import { TOKEN_SECURITY_SCHEME } from '../../plugins/auth.ts';
import { accessRoutes } from './access.routes.ts';
import { catalogRoutes } from './catalog.routes.ts';
import { couponsRoutes } from './coupons.routes.ts';
import { eventsRoutes } from './events.routes.ts';
import { painelActionGuard, painelGuard } from './guard.ts';
import { mediaRoutes } from './media.routes.ts';
import { ordersRoutes } from './orders.routes.ts';
import { MAX_PHOTO_BYTES } from './photos.ts';
import { registrationsRoutes } from './registrations.routes.ts';
import { createStaffService } from './staff.service.ts';

/** The back office under `/api/painel/` (docs/product.md): staff, audit, catalogue, stock, events, registrations, orders, dashboard. */
export default fp(
  async (app) => {
    const staff = createStaffService({ db: app.db, env: app.env, now: app.now });
    app.decorate('painel', { staff });
    for (const note of await staff.secureOnStart()) app.log.warn(note);

    await app.register(mediaRoutes, { storage: app.providers.media });
    await app.register(
      async (scope) => {
        await scope.register(multipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5 } });
        scope.decorateRequest('staff', null);
        // The OpenAPI document marks every staff-only operation, so the authentication sweep covers them.
        scope.addHook('onRoute', (route) => {
          if (route.config?.painel?.public) return;
          route.schema = { ...route.schema, security: [{ [TOKEN_SECURITY_SCHEME]: [] }] };
        });
        scope.addHook('onRequest', painelGuard(staff));
        scope.addHook('preHandler', painelActionGuard);
        await scope.register(accessRoutes, { staff });
        await scope.register(catalogRoutes);
        await scope.register(eventsRoutes);
        await scope.register(ordersRoutes);
        await scope.register(registrationsRoutes);
        await scope.register(couponsRoutes);
      },
      { prefix: '/api/painel' },
    );
  },
  {
    name: 'painel',
    dependencies: ['infra', 'catalog', 'events', 'registrations', 'orders', 'payments', 'coupons'],
  },
);
