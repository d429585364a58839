import fp from 'fastify-plugin';
import { resultsRoutes } from './results.routes.ts';
import { createResultsService, type ResultsService } from './results.service.ts';
import { createResultsAdmin, type ResultsAdmin } from './results-admin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Race results: the public pages' reads, and the back office's import (`admin`). */
    results: ResultsService & { admin: ResultsAdmin };
  }
}

/** Race results after the finish line (docs/decisions/0064): timers' files, places, public pages. */
export default fp(
  async (app) => {
    const results = createResultsService({
      db: app.db,
      findEvent: (id) => app.events.findEventRow(id),
      secret: app.env.CHECKIN_TOKEN_SECRET,
      publicUrl: app.env.publicUrl,
    });
    const admin = createResultsAdmin({
      db: app.db,
      now: app.now,
      maxLines: app.env.RESULTS_IMPORT_MAX_LINES,
    });
    app.decorate('results', { ...results, admin });
    await app.register(resultsRoutes, { results });
  },
  { name: 'results', dependencies: ['infra', 'events', 'registrations'] },
);
