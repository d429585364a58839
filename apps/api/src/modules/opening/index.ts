import fp from 'fastify-plugin';
import { lotteryRoutes } from './lottery.routes.ts';
import { createLotteryService, type LotteryService } from './lottery.service.ts';
import { OPENING_CHANGED } from './opening.repository.ts';
import { openingRoutes } from './opening.routes.ts';
import { createOpeningService, type OpeningService } from './opening.service.ts';

export { lotteryPainelRoutes } from './lottery-painel.routes.ts';
export { lotteryMailPreviews } from './mail-previews.ts';
export { openingPainelRoutes } from './opening-painel.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Opening day: the waiting room of an event's opening (docs/decisions/0046-opening-day.md). */
    opening: OpeningService;
    /** The lottery opening (sorteio, docs/decisions/0051-lottery-opening.md). */
    lottery: LotteryService;
  }
}

/**
 * Opening day: each process keeps the openings' rows in memory, read again every
 * OPENING_REFRESH_MS and whenever a save notifies OPENING_CHANGED, so position polls cost no
 * database statement; the registrations' prepare step asks it through the events service's gate.
 */
export default fp(
  async (app) => {
    const lottery = createLotteryService({
      db: app.db,
      now: app.now,
      env: app.env,
      events: app.events,
      jobs: app.jobs,
      mail: app.providers.mail,
    });
    const opening = createOpeningService({
      db: app.db,
      now: app.now,
      secret: app.env.CHECKIN_TOKEN_SECRET,
      joinBatchMax: app.env.OPENING_JOIN_BATCH_MAX,
      lottery,
    });
    app.decorate('opening', opening);
    app.decorate('lottery', lottery);
    app.jobs.work('mail.lottery', ({ entryId, kind }) => lottery.sendMail(entryId, kind));
    app.events.setOpeningGate(opening.gate);
    await opening.refresh();
    const reread = () => {
      opening.refresh().catch((err) => app.log.warn({ err }, 'abertura: leitura das filas falhou'));
    };
    const stopListening = await app.database.listen(OPENING_CHANGED, reread);
    const timer = setInterval(reread, app.env.OPENING_REFRESH_MS);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await stopListening();
    });
    await app.register(openingRoutes, { opening });
    await app.register(lotteryRoutes, { opening, lottery });
  },
  { name: 'opening', dependencies: ['infra', 'jobs', 'events'] },
);
