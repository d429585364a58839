import fp from 'fastify-plugin';
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
    await app.register(catalogRoutes, { catalog });
  },
  { name: 'catalog', dependencies: ['infra'] },
);
