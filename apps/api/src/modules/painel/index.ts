import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import { TOKEN_SECURITY_SCHEME } from '../../plugins/auth.ts';
import { lotteryPainelRoutes, openingPainelRoutes } from '../opening/index.ts';
import { declarePainelRoute, painelGuard, painelRequestGuard } from '../staff/index.ts';
import { accessRoutes } from './access.routes.ts';
import { afterSaleRoutes } from './after-sale.routes.ts';
import { catalogRoutes } from './catalog.routes.ts';
import { checkinRoutes } from './checkin.routes.ts';
import { checkinEventsRoutes } from './checkin-events.routes.ts';
import { checkinOfflineRoutes } from './checkin-offline.routes.ts';
import { checkinTeamsRoutes } from './checkin-teams.routes.ts';
import { couponsRoutes } from './coupons.routes.ts';
import { customersRoutes } from './customers.routes.ts';
import { eventsRoutes } from './events.routes.ts';
import { fiscalRoutes } from './fiscal.routes.ts';
import { homeRoutes } from './home.routes.ts';
import { labelsRoutes } from './labels.routes.ts';
import { lotteryEntriesRoutes } from './lottery-entries.routes.ts';
import { mediaRoutes } from './media.routes.ts';
import { messagesRoutes } from './messages.routes.ts';
import { ordersRoutes } from './orders.routes.ts';
import { participantsRoutes } from './participants.routes.ts';
import { createPhotoService, type PhotoService } from './photo.service.ts';
import { photosRoutes } from './photos.routes.ts';
import { MAX_PHOTO_BYTES, tuneSharp } from './photos.ts';
import { priceRulesRoutes } from './price-rules.routes.ts';
import { productPhotosRoutes } from './product-photos.routes.ts';
import { proofsRoutes } from './proofs.routes.ts';
import { recoveryRoutes } from './recovery.routes.ts';
import { registrationsRoutes } from './registrations.routes.ts';
import { reportsRoutes } from './reports.routes.ts';
import { resultsRoutes } from './results.routes.ts';
import { returnsRoutes } from './returns.routes.ts';
import { reviewsRoutes } from './reviews.routes.ts';
import { stockRoutes } from './stock.routes.ts';
import { teamsRoutes } from './teams.routes.ts';
import { waitlistRoutes } from './waitlist.routes.ts';
import { wavesRoutes } from './waves.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Photos uploaded in the back office and their processing queue (docs/decisions/0027). */
    photos: PhotoService;
  }
}

/**
 * The back office's HTTP face under `/api/painel/` (docs/product.md, decision 0030): each route
 * validates, declares who may call it, and makes one call to a module's staff service (or the staff
 * module's), wrapped in `audited` when it changes something. No rules and no SQL of its own.
 */
export default fp(
  async (app) => {
    const staff = app.staff;

    tuneSharp();
    const photos = createPhotoService({
      db: app.db,
      storage: app.providers.media,
      jobs: app.jobs,
      catalog: app.catalog,
      log: app.log,
      maxPixels: app.env.PHOTO_MAX_PIXELS,
      resultPhotoDone: (tx, url, status) => app.results.admin.photos.done(tx, url, status),
    });
    app.decorate('photos', photos);
    // One photo at a time per process: decoding and encoding side by side is what took the shop down.
    app.jobs.work('photos.process', ({ photoId }, job) => photos.process(photoId, job.attempt), {
      concurrency: 1,
    });

    await app.register(mediaRoutes, { storage: app.providers.media });
    await app.register(
      async (scope) => {
        await scope.register(multipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5 } });
        scope.decorateRequest('staff', null);
        // Every route declares what it needs or refuses to register (docs/decisions/0032).
        scope.addHook('onRoute', (route) => declarePainelRoute(route, TOKEN_SECURITY_SCHEME));
        scope.addHook('onRequest', painelGuard(staff));
        scope.addHook('preHandler', painelRequestGuard(staff));
        await scope.register(accessRoutes, { staff });
        await scope.register(catalogRoutes);
        await scope.register(reviewsRoutes);
        await scope.register(recoveryRoutes);
        await scope.register(productPhotosRoutes);
        await scope.register(homeRoutes);
        await scope.register(stockRoutes);
        await scope.register(participantsRoutes);
        await scope.register(checkinRoutes);
        await scope.register(checkinTeamsRoutes);
        await scope.register(checkinOfflineRoutes);
        await scope.register(eventsRoutes);
        await scope.register(openingPainelRoutes);
        await scope.register(lotteryPainelRoutes);
        await scope.register(lotteryEntriesRoutes);
        await scope.register(checkinEventsRoutes);
        await scope.register(ordersRoutes);
        await scope.register(labelsRoutes);
        await scope.register(returnsRoutes);
        await scope.register(registrationsRoutes);
        await scope.register(afterSaleRoutes);
        await scope.register(waitlistRoutes);
        await scope.register(couponsRoutes);
        await scope.register(customersRoutes);
        await scope.register(photosRoutes);
        await scope.register(reportsRoutes);
        await scope.register(resultsRoutes);
        await scope.register(wavesRoutes);
        await scope.register(priceRulesRoutes);
        await scope.register(proofsRoutes);
        await scope.register(teamsRoutes);
        await scope.register(fiscalRoutes);
        await scope.register(messagesRoutes);
      },
      { prefix: '/api/painel' },
    );
  },
  {
    name: 'painel',
    dependencies: [
      'infra',
      'jobs',
      'staff',
      'catalog',
      'events',
      'opening',
      'registrations',
      'results',
      'orders',
      'payments',
      'coupons',
      'accounts',
      'fiscal',
      'messages',
    ],
  },
);
