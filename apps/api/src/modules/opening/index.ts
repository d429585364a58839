import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import fp from 'fastify-plugin';
import { lotteryRoutes } from './lottery.routes.ts';
import { createLotteryService, type LotteryService } from './lottery.service.ts';
import { eraseLotteryEntriesOfEventsEndedBefore, forgetLotteryEntries } from './lottery-data.repository.ts';
import { OPENING_CHANGED } from './opening.repository.ts';
import { openingRoutes } from './opening.routes.ts';
import { createOpeningService, type OpeningService } from './opening.service.ts';
import { type RegistrationCounts, registrationCountsSlot } from './registration-counts.ts';

export { lotteryPainelRoutes } from './lottery-painel.routes.ts';
export { lotteryMailPreviews } from './mail-previews.ts';
export { openingPainelRoutes } from './opening-painel.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Opening day: the waiting room of an event's opening (docs/decisions/0046-opening-day.md). */
    opening: OpeningService & {
      /** The registrations module's counts of what stands against the limits, installed at its start. */
      setRegistrationCounts(counts: RegistrationCounts): void;
    };
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
    // Registrations registers after this module and installs its counts here (setRegistrationCounts).
    const registrations = registrationCountsSlot();
    const lottery = createLotteryService({
      db: app.db,
      now: app.now,
      env: app.env,
      events: app.events,
      jobs: app.jobs,
      mail: app.providers.mail,
      registrations,
    });
    const opening = createOpeningService({
      db: app.db,
      now: app.now,
      secret: app.env.CHECKIN_TOKEN_SECRET,
      joinBatchMax: app.env.OPENING_JOIN_BATCH_MAX,
      registrations,
      lottery,
      onOpeningsChanged: app.events.openingsChanged,
    });
    app.decorate('opening', { ...opening, setRegistrationCounts: registrations.install });
    app.decorate('lottery', lottery);
    app.jobs.work('mail.lottery', ({ entryId, kind }) => lottery.sendMail(entryId, kind));
    // The entries' personal data: gone with the account, and blanked a while after the event; accounts
    // asks and schedules (decisions 0051, 0061).
    app.accounts.personalData.register({ module: 'opening', forgetAccount: forgetLotteryEntries });
    app.jobs.work('privacy.lottery-data', async () => {
      const endedBefore = addDays(
        dateInTimeZone(app.now(), STORE_TIME_ZONE),
        -app.env.LOTTERY_RETENTION_DAYS_AFTER_EVENT,
      );
      const erased = await eraseLotteryEntriesOfEventsEndedBefore(app.db, endedBefore, app.now());
      app.log.info(
        { job: 'privacy.lottery-data', erased, endedBefore },
        'Dados de sorteios apagados após o evento',
      );
    });
    app.events.setOpeningGate(opening.gate);
    app.events.setOpeningNotYet(opening.notYet);
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
  { name: 'opening', dependencies: ['infra', 'jobs', 'accounts', 'events'] },
);
