import fp from 'fastify-plugin';
import { createAnswerCache } from '../../plugins/answer-cache.ts';
import { createNextEdition } from './next-edition.ts';
import { createResultPhotos, type ResultPhotos } from './result-photos.ts';
import { resultOfEntry } from './results.repository.ts';
import { resultsRoutes } from './results.routes.ts';
import { createResultsService, RESULTS_CHANGED, type ResultsService } from './results.service.ts';
import { createResultsAdmin, type ResultsAdmin } from './results-admin.ts';
import { createResultsMail } from './results-mail.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Race results: the public pages' reads, and the back office's import (`admin`). */
    results: ResultsService & { admin: ResultsAdmin & { photos: ResultPhotos } };
  }
}

/** Race results after the finish line (docs/decisions/0064): timers' files, places, public pages. */
export default fp(
  async (app) => {
    const photos = createResultPhotos({ db: app.db, maxLines: app.env.RESULTS_IMPORT_MAX_LINES });
    const results = createResultsService({
      db: app.db,
      photosOfBib: photos.ofBib,
      findEvent: (id) => app.events.findEventRow(id),
      secret: app.env.CHECKIN_TOKEN_SECRET,
      publicUrl: app.env.publicUrl,
    });
    const admin = createResultsAdmin({
      db: app.db,
      now: app.now,
      jobs: app.jobs,
      maxLines: app.env.RESULTS_IMPORT_MAX_LINES,
      productExists: (id, tx) =>
        app.catalog.getProduct(id, {}, tx).then(
          () => true,
          () => false,
        ),
      findEvent: (id, tx) => app.events.findEventRow(id, tx),
    });
    // A publication e-mails each finisher whose result is new or changed, with the certificate.
    const mail = createResultsMail({
      env: app.env,
      log: app.log,
      mail: app.providers.mail,
      whatsapp: app.providers.whatsapp,
      results,
      contactsByBib: app.registrations.contactsByBib,
      finisherShirt: async (id) => {
        const product = await app.catalog.getProduct(id).catch(() => undefined);
        if (!product) return undefined;
        const unitsBySize = new Map<string, number>();
        for (const s of product.stock)
          unitsBySize.set(s.size.name, (unitsBySize.get(s.size.name) ?? 0) + s.quantity);
        return { id: product.id, name: product.name, unitsBySize };
      },
    });
    app.jobs.work('mail.result-certificate', ({ eventId, bibs }) => mail.sendCertificates(eventId, bibs), {
      concurrency: app.env.RESULTS_CERTIFICATE_WORKERS,
    });
    app.jobs.work('whatsapp.result-published', ({ eventId, bibs }) => mail.sendWhatsApp(eventId, bibs));
    // The loop back: a finisher's account pre-registers the runner in the next edition in one click.
    const nextEdition = createNextEdition({
      nextEditionOf: async (eventId) => {
        const next = (await results.backToShop(eventId)).proxima_edicao;
        return next ? { id: next.id, nome: next.nome } : null;
      },
      resultOfEntry: (entryId) => resultOfEntry(app.db, entryId),
      runnerOfEntry: app.registrations.runnerOfEntry,
      categoriesOf: (eventId) => app.events.categoriesOfEvent(eventId),
      opensByLottery: (eventId) => app.opening.status(eventId)?.modo === 'sorteio',
      enterLottery: (eventId, user, input) => app.lottery.enter(eventId, user, input, true),
      joinWaitlist: app.registrations.joinWaitlist,
    });
    app.decorate('results', { ...results, admin: { ...admin, photos } });
    // The public pages are read by thousands right after a publication, and change only with the next
    // one, a name they show (a trigger notifies RESULTS_CHANGED, migration 0051), the event's name, date or
    // city, or its links back to the shop: every process keeps them built and compressed until then.
    const cache = createAnswerCache(app.env.RESULTS_CACHE_MAX_ANSWERS);
    // Not `events_changed`: it fires on every place held anywhere. The event's name, date and city reach
    // RESULTS_CHANGED through a trigger (migration 0054).
    const stopListening = await app.database.listen(RESULTS_CHANGED, cache.invalidate);
    app.addHook('onClose', stopListening);
    await app.register(resultsRoutes, { results, cache, nextEdition });
  },
  { name: 'results', dependencies: ['infra', 'jobs', 'catalog', 'events', 'opening', 'registrations'] },
);
