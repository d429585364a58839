import fp from 'fastify-plugin';
import { createAnswerCache } from '../../plugins/answer-cache.ts';
import { EVENTS_CHANGED } from '../events/events.service.ts';
import { resultsRoutes } from './results.routes.ts';
import { createResultsService, RESULTS_CHANGED, type ResultsService } from './results.service.ts';
import { createResultsAdmin, type ResultsAdmin } from './results-admin.ts';
import { createResultsMail } from './results-mail.ts';

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
      jobs: app.jobs,
      maxLines: app.env.RESULTS_IMPORT_MAX_LINES,
    });
    // A publication e-mails each finisher whose result is new or changed, with the certificate.
    const mail = createResultsMail({
      env: app.env,
      log: app.log,
      mail: app.providers.mail,
      results,
      contactsByBib: app.registrations.contactsByBib,
    });
    app.jobs.work('mail.result-certificate', ({ eventId, bibs }) => mail.sendCertificates(eventId, bibs), {
      concurrency: 2,
    });
    app.decorate('results', { ...results, admin });
    // The public pages are read by thousands right after a publication, and change only with the next
    // one, a name they show (a trigger notifies RESULTS_CHANGED, migration 0051) or the event itself:
    // every process keeps them built and compressed until then (answer-cache.ts).
    const cache = createAnswerCache(app.env.RESULTS_CACHE_MAX_ANSWERS);
    for (const channel of [RESULTS_CHANGED, EVENTS_CHANGED]) {
      const stopListening = await app.database.listen(channel, cache.invalidate);
      app.addHook('onClose', stopListening);
    }
    await app.register(resultsRoutes, { results, cache });
  },
  { name: 'results', dependencies: ['infra', 'jobs', 'events', 'registrations'] },
);
