import fp from 'fastify-plugin';
import { createAnswerCache } from '../../plugins/answer-cache.ts';
import { CATALOG_CHANGED } from './catalog.repository.ts';
import { catalogRoutes } from './catalog.routes.ts';
import { type CatalogService, createCatalogService } from './catalog.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Products and stock; orders hold and give back units only through it. */
    catalog: CatalogService;
  }
}

/** The product catalogue, its generated images and its stock (docs/product.md §2). */
export default fp(
  async (app) => {
    const catalog = createCatalogService({ db: app.db });
    app.decorate('catalog', catalog);
    // Lists and product pages are read far more than stock moves; every process drops its copies
    // when any process's write commits (docs/decisions/0014-cached-catalogue-answers.md).
    const cache = createAnswerCache();
    const stopListening = await app.database.listen(CATALOG_CHANGED, cache.invalidate);
    app.addHook('onClose', stopListening);
    await app.register(catalogRoutes, { catalog, cache });
  },
  { name: 'catalog', dependencies: ['infra'] },
);
