import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import { TOKEN_SECURITY_SCHEME } from '../../plugins/auth.ts';
import { painelActionGuard, painelGuard } from '../staff/index.ts';
import { accessRoutes } from './access.routes.ts';
import { catalogRoutes } from './catalog.routes.ts';
import { couponsRoutes } from './coupons.routes.ts';
import { eventsRoutes } from './events.routes.ts';
import { mediaRoutes } from './media.routes.ts';
import { ordersRoutes } from './orders.routes.ts';
import { MAX_PHOTO_BYTES } from './photos.ts';
import { registrationsRoutes } from './registrations.routes.ts';

/**
 * The back office's HTTP face under `/api/painel/` (docs/product.md, decision 0030): each route
 * validates, declares who may call it, and makes one call to a module's staff service (or the staff
 * module's), wrapped in `audited` when it changes something. No rules and no SQL of its own.
 */
export default fp(
  async (app) => {
    const staff = app.staff;
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
    dependencies: ['infra', 'staff', 'catalog', 'events', 'registrations', 'orders', 'payments', 'coupons'],
  },
);
