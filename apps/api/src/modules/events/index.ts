import { addDays, dateInTimeZone, STORE_TIME_ZONE, storeDayStart } from '@passada/core/calendar';
import fp from 'fastify-plugin';
import { createAnswerCache } from '../../plugins/answer-cache.ts';
import { createEventWaves, type EventWavesService } from './event-waves.service.ts';
import { EVENTS_CHANGED } from './events.repository.ts';
import { eventsRoutes } from './events.routes.ts';
import { createEventsService, type EventsService } from './events.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Events and their categories; registrations take and give back places (and start waves, `waves`)
     * only through it.
     */
    events: EventsService & { waves: EventWavesService };
  }
}

/** Running events: list, one event, posters, and the places of each category (docs/product.md §7). */
export default fp(
  async (app) => {
    const events = createEventsService({ db: app.db, now: app.now });
    const waves = createEventWaves({ db: app.db });
    app.decorate('events', Object.assign(events, { waves }));
    // The list and each event are read by everyone at an opening, far more than places move: every
    // process keeps them until any process's write to an event, its places, kits or lots commits
    // (each such write notifies EVENTS_CHANGED, docs/decisions/0014), or a new day in Fortaleza
    // begins (lots by date, registrations closing at the deadline).
    const cache = createAnswerCache();
    const stopListening = await app.database.listen(EVENTS_CHANGED, cache.invalidate);
    // An opening saved, removed or reached changes `inscricoes_abertas` (the opening module says so).
    events.onAnswersStale(cache.invalidate);
    app.addHook('onClose', stopListening);
    let day = { starts: 0, ends: 0 };
    const fresh = () => {
      const now = app.now().getTime();
      if (now >= day.starts && now < day.ends) return cache;
      cache.invalidate();
      const today = dateInTimeZone(new Date(now), STORE_TIME_ZONE);
      day = { starts: storeDayStart(today).getTime(), ends: storeDayStart(addDays(today, 1)).getTime() };
      return cache;
    };
    await app.register(eventsRoutes, { events, waves, cache: fresh });
  },
  { name: 'events', dependencies: ['infra'] },
);
