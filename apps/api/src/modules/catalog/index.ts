import fp from 'fastify-plugin';
import { createAnswerCache } from '../../plugins/answer-cache.ts';
import { audit, SYSTEM_ACTOR } from '../staff/index.ts';
import { CATALOG_CHANGED, touchSaleBoundaries } from './catalog.repository.ts';
import { catalogRoutes } from './catalog.routes.ts';
import { type CatalogService, createCatalogService } from './catalog.service.ts';
import { createStockAlerts, type StockAlerts } from './stock-alerts.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Products and stock; orders hold and give back units only through it. */
    catalog: CatalogService & { stockAlerts: Pick<StockAlerts, 'nudge'> };
  }
}

/** The product catalogue, its generated images and its stock (docs/product.md §2). */
export default fp(
  async (app) => {
    const catalog = createCatalogService({ db: app.db, now: app.now });
    // "Avise-me quando chegar" (docs/decisions/0069): the first in line told when units come back.
    const stockAlerts = createStockAlerts({
      db: app.db,
      jobs: app.jobs,
      mail: app.providers.mail,
      env: app.env,
      now: app.now,
    });
    app.jobs.work('catalog.stock-alerts', () => stockAlerts.sweep().then(() => undefined));
    app.jobs.work('mail.stock-alert', ({ alertId }) => stockAlerts.sendMail(alertId));
    // Every minute: returns, cancelled charges and expired Pix give units back without staff.
    await app.jobs.schedule('catalog.stock-alerts', '* * * * *', {});
    // A sale's price holds from its start to its end: the cached lists and pages change then (decision 0082).
    app.jobs.work('catalog.sale-boundaries', async () => {
      const now = app.now();
      await touchSaleBoundaries(app.db, new Date(now.getTime() - 5 * 60_000), now);
    });
    await app.jobs.schedule('catalog.sale-boundaries', '* * * * *', {});
    // A collection's "lançamento": drafts published at the time staff chose (decision 0085).
    app.jobs.work('catalog.scheduled-publish', async () => {
      await catalog.admin.publishDue((tx, after) =>
        audit(tx, SYSTEM_ACTOR, {
          action: 'publicado',
          entity: 'produto',
          entityId: after.id,
          after: { rascunho: false, publicar_em: null },
        }),
      );
    });
    await app.jobs.schedule('catalog.scheduled-publish', '* * * * *', {});
    // An erased account's alerts go with it (decision 0061).
    app.accounts.personalData.register({
      module: 'catalog',
      forgetAccount: async (tx, account) => {
        if (account.confirmedEmail) await stockAlerts.forgetEmail(tx, account.confirmedEmail);
      },
    });
    app.decorate('catalog', Object.assign(catalog, { stockAlerts: { nudge: stockAlerts.nudge } }));
    // Lists and product pages are read far more than stock moves; every process drops its copies
    // when any process's write commits (docs/decisions/0014-cached-catalogue-answers.md).
    const cache = createAnswerCache();
    const stopListening = await app.database.listen(CATALOG_CHANGED, cache.invalidate);
    app.addHook('onClose', stopListening);
    await app.register(catalogRoutes, { catalog, cache, stockAlerts });
  },
  { name: 'catalog', dependencies: ['infra', 'jobs', 'accounts'] },
);
