import fp from 'fastify-plugin';
import { eventsRoutes } from './events.routes.ts';
import { createEventsService, type EventsService } from './events.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Events and their categories; registrations take and give back places only through it. */
    events: EventsService;
  }
}

/** Running events: list, one event, posters, and the places of each category (docs/product.md §7). */
export default fp(
  async (app) => {
    const events = createEventsService({ db: app.db, now: app.now });
    app.decorate('events', events);
    await app.register(eventsRoutes, { events });
  },
  { name: 'events', dependencies: ['infra'] },
);
