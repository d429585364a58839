import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import fp from 'fastify-plugin';
import type { Tx } from '../../db/client.ts';
import { type AfterSaleAdmin, createAfterSaleAdmin } from './after-sale-admin.ts';
import { pruneDeskChanges } from './checkin-desk.repository.ts';
import { eraseHealthDataOfEventsEndedBefore } from './health-data.repository.ts';
import { countForBuyer, countForCpf, countOfEvent, standingCpfs } from './opening-limits.repository.ts';
import { pickupDelegationRoutes } from './pickup-delegation.routes.ts';
import { proofsRoutes } from './proofs.routes.ts';
import type { Change } from './registration-change.ts';
import type { Waitlist } from './registration-waitlist.ts';
import { registrationsRoutes } from './registrations.routes.ts';
import { createRegistrationsAdmin } from './registrations-admin.ts';
import { contactsByBib, type EntryRunner, runnerOfEntry } from './runner-contacts.repository.ts';
import { eraseRunnerDataOfEventsEndedBefore, forgetRunner } from './runner-data.repository.ts';
import { eraseRegistrationsOfEventsEndedBefore } from './sales-records.repository.ts';
import { giveMissingWaves, waveCounts } from './start-waves.ts';
import { teamsRoutes } from './teams.routes.ts';
import { countsOf } from './waitlist.repository.ts';
import { waitlistRoutes } from './waitlist.routes.ts';
import { createWhatsAppNotices } from './whatsapp-notices.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The back office's side of registrations: participants, exports, check-in and its undo, cancellation. */
    registrationsAdmin: RegistrationsAdmin & {
      afterSale: AfterSaleAdmin;
      waitlist: Pick<Waitlist, 'painelList' | 'nudge'>;
      /** Staff change a registration's distance and shirt size through the change manager (0060). */
      change: Change['staffChange'];
      /** What staff's cancellation returns, or returned, by payer (docs/decisions/0056, later). */
      refundByPayer: RegistrationsService['staffRefundByPayer'];
      teams: RegistrationsService['teams']['ofEvent'];
      /** Places reserved for named teams at an opening (docs/decisions/0076). */
      teamQuotas: Pick<RegistrationsService['teamQuotas'], 'forStaff' | 'save'> & {
        /** The minute job's step (`registrations.team-quotas-end`), for the tests' clock. */
        sweepEnded: () => Promise<number>;
      };
      proofs: Pick<RegistrationsService['proofs'], 'queue' | 'file' | 'decide' | 'deskView'>;
      /**
       * Staff acting for the runner who asked them (docs/decisions/0083): the transfer's state, asking it
       * and withdrawing it, through the same rules and invitation as the runner's own.
       */
      transfer: {
        status: (id: number) => ReturnType<RegistrationsService['transfer']['status']>;
        request: (
          id: number,
          to: Parameters<RegistrationsService['transfer']['request']>[2],
        ) => ReturnType<RegistrationsService['transfer']['request']>;
        cancel: (id: number) => ReturnType<RegistrationsService['transfer']['cancelPending']>;
      };
    };
    /**
     * Registrations paid inside a shop order (the mixed cart), which the orders module calls, and the
     * back office's cancellation of a direct registration.
     */
    registrations: {
      cart: RegistrationsCart;
      cancel: RegistrationsService['cancel'];
      contactsByBib: (eventId: number, bibs: number[]) => ReturnType<typeof contactsByBib>;
      /** Who ran a race entry of a registration the account made (the next edition, decision 0064). */
      runnerOfEntry: (entryId: number, userId: number) => Promise<EntryRunner | undefined>;
      /** Joins a sold-out category's waitlist, as the public form does (decision 0042). */
      joinWaitlist: Waitlist['join'];
      /** How many standing runners each start wave holds (the organiser's wave screen, decision 0066). */
      waveCounts: (waveIds: number[], tx?: Tx) => Promise<Map<number, number>>;
      /** Gives a wave to the category's standing runners without one (decision 0066, later): how many. */
      giveMissingWaves: (tx: Tx, categoryId: number) => Promise<number>;
    };
  }
}

import {
  createRegistrationsService,
  type RegistrationCancellation,
  type RegistrationsCart,
  type RegistrationsService,
} from './registrations.service.ts';

/** The back office's side of registrations, decorated as `app.registrationsAdmin`. */
export type RegistrationsAdmin = ReturnType<typeof createRegistrationsAdmin<RegistrationCancellation>>;

/** Event registrations (docs/product.md §7): paid through a 'registration' charge, then looked up by CPF. */
export default fp(
  async (app) => {
    const registrations = createRegistrationsService({
      db: app.db,
      env: app.env,
      now: app.now,
      log: app.log,
      mail: app.providers.mail,
      jobs: app.jobs,
      payments: app.payments,
      events: app.events,
      users: app.accounts.users,
      coupons: app.coupons,
      // How the event opens (the opening module registers before this one).
      opening: { modeOf: (eventId) => app.opening.status(eventId)?.modo ?? null },
    });
    app.payments.registerPurpose('registration', registrations.purpose);
    app.payments.registerPurpose('team_places', registrations.teamPlaces.purpose);
    // What stands against an opening's limits per CPF and per buyer, and which lottery winners paid:
    // registrations and the charges paying for them, counted here (docs/architecture.md §9, rule 11).
    app.opening.setRegistrationCounts({
      countForCpf,
      countForBuyer,
      countOfEvent,
      standingCpfs,
      heldPlaces: (db, ids) => countsOf(db, [...ids], app.now()),
    });
    // The public's places leave out what the waitlist and the teams' quotas hold (decisions 0047, 0076).
    app.events.setPlacesHeld((db, ids) => countsOf(db, ids, app.now()));
    app.coupons.registerPricer('registration', registrations.pricePreview);
    app.jobs.work('mail.registration-confirmation', ({ registrationId }) =>
      registrations.sendConfirmation(registrationId),
    );
    app.jobs.work('mail.registration-cancelled', ({ registrationId }) =>
      registrations.sendCancellation(registrationId),
    );
    app.jobs.work('privacy.proof-file', ({ fileName }) => registrations.proofs.eraseFile(fileName));
    app.jobs.work('mail.proof-refused', ({ registrationId }) =>
      registrations.proofs.sendRefused(registrationId),
    );
    app.jobs.work('mail.registration-changed', ({ changeId }) => registrations.change.sendChanged(changeId));
    app.jobs.work('mail.registration-transferred', ({ transferId }) =>
      registrations.transfer.sendTransferred(transferId),
    );
    // WhatsApp, to those who opted in (docs/decisions/0045).
    const notices = createWhatsAppNotices({
      db: app.db,
      env: app.env,
      jobs: app.jobs,
      events: app.events,
      whatsapp: app.providers.whatsapp,
      reminderDays: app.env.WHATSAPP_KIT_REMINDER_DAYS,
      refusalOf: registrations.proofs.refusalOf,
    });
    app.jobs.work('whatsapp.registration-confirmed', ({ registrationId }) =>
      notices.sendConfirmation(registrationId),
    );
    app.jobs.work('whatsapp.proof-refused', ({ registrationId }) => notices.sendProofRefused(registrationId));
    app.jobs.work('whatsapp.kit-reminder', ({ registrationId }) => notices.sendKitReminder(registrationId));
    app.jobs.work('whatsapp.kit-reminders', async () => {
      const queued = await notices.queueKitReminders(dateInTimeZone(app.now(), STORE_TIME_ZONE));
      app.log.info({ job: 'whatsapp.kit-reminders', queued }, 'Lembretes de retirada do kit enfileirados');
    });
    // Every morning at 09:00 in Fortaleza: a reminder read during the day.
    await app.jobs.schedule('whatsapp.kit-reminders', '0 9 * * *');
    // A team's places nobody claimed by the registration deadline: refunded or back to sale (0073).
    app.jobs.work('registrations.team-places-close', async () => {
      const closed = await registrations.teamPlaces.sweep();
      if (closed)
        app.log.info({ job: 'registrations.team-places-close', closed }, 'Vagas de equipe encerradas');
    });
    await app.jobs.schedule('registrations.team-places-close', '*/15 * * * *');
    // Teams' quotas at an opening whose end came: their places back to the public (0076).
    app.jobs.work('registrations.team-quotas-end', async () => {
      await registrations.teamQuotas.sweepEnded(registrations.waitlist.nudge);
    });
    await app.jobs.schedule('registrations.team-quotas-end', '* * * * *');
    // A captain's list of members: each invited by e-mail; unanswered ones erased at night (0075).
    app.jobs.work('mail.team-invite', ({ inviteId }) => registrations.teamInvites.sendInvite(inviteId));
    app.jobs.work('privacy.team-invites', async () => {
      const erased = await registrations.teamInvites.eraseUnanswered();
      app.log.info(
        { job: 'privacy.team-invites', erased, days: app.env.TEAM_INVITE_DAYS },
        'Convites de equipe sem resposta apagados',
      );
    });
    await app.jobs.schedule('privacy.team-invites', '50 3 * * *');
    // A team that reached a better price: its earlier members' differences back (0074).
    app.jobs.work('registrations.team-tier', async ({ teamId, eventId }) => {
      const refunded = await registrations.teamTiers.rebate(teamId, eventId);
      if (refunded)
        app.log.info(
          { job: 'registrations.team-tier', teamId, eventId, refunded },
          'Preço de equipe devolvido',
        );
    });
    // Referral links whose referrals counted: the referrer's rebate (0086), checked every hour.
    app.jobs.work('registrations.referral-rebates', async () => {
      const paid = await registrations.referrals.payRebates();
      if (paid) app.log.info({ job: 'registrations.referral-rebates', paid }, 'Indicações devolvidas');
    });
    await app.jobs.schedule('registrations.referral-rebates', '17 * * * *');
    app.jobs.work('mail.referral-rebate', ({ registrationId }) =>
      registrations.referrals.sendRebateMail(registrationId),
    );
    // The desk's change log keeps one row per event (the version is its id), pruned at night.
    app.jobs.work('checkin.prune-desk-changes', async () => {
      const pruned = await pruneDeskChanges(app.db);
      app.log.info(
        { job: 'checkin.prune-desk-changes', pruned },
        'Registro de mudanças da mesa de kits podado',
      );
    });
    await app.jobs.schedule('checkin.prune-desk-changes', '40 4 * * *');
    // Health data kept only as long as the event needs it (docs/operations.md, retention table).
    app.jobs.work('privacy.health-data', async () => {
      const today = dateInTimeZone(app.now(), STORE_TIME_ZONE);
      const endedBefore = addDays(today, -app.env.PCD_RETENTION_DAYS_AFTER_EVENT);
      const erased = await eraseHealthDataOfEventsEndedBefore(app.db, endedBefore, app.now());
      // The documents sent for special prices go with them (docs/decisions/0068).
      const proofFiles = await registrations.proofs.eraseAfterEvents(endedBefore);
      // The record of the erasure: which registrations, when, under which rule (no personal data).
      app.log.info(
        {
          job: 'privacy.health-data',
          erased,
          proofFiles,
          endedBefore,
          days: app.env.PCD_RETENTION_DAYS_AFTER_EVENT,
        },
        'Dados de saúde (PCD) apagados após o evento',
      );
    });
    // What runners gave for waitlists and transfers, kept only until a while after the event (0047).
    app.jobs.work('privacy.runner-data', async () => {
      const today = dateInTimeZone(app.now(), STORE_TIME_ZONE);
      const cutoff = {
        waitlistEndedBefore: addDays(today, -app.env.WAITLIST_RETENTION_DAYS_AFTER_EVENT),
        transfersEndedBefore: addDays(today, -app.env.TRANSFER_RETENTION_DAYS_AFTER_EVENT),
      };
      const erased = await eraseRunnerDataOfEventsEndedBefore(app.db, cutoff, app.now());
      app.log.info(
        { job: 'privacy.runner-data', erased, ...cutoff },
        'Dados de lista de espera e transferências apagados após o evento',
      );
    });
    // The waitlist (docs/decisions/0042-waitlist.md): offers, and offers whose time ran out passing on.
    const { waitlist } = registrations;
    app.jobs.work('waitlist.sweep', async () => {
      await waitlist.sweepAll();
    });
    app.jobs.work('mail.waitlist', ({ entryId, kind }) => waitlist.sendMail(entryId, kind));
    await app.jobs.schedule('waitlist.sweep', '* * * * *', {});
    app.decorate('registrationsAdmin', {
      ...createRegistrationsAdmin({
        db: app.db,
        now: app.now,
        checkinSecret: app.env.CHECKIN_TOKEN_SECRET,
        events: app.events,
        cancel: registrations.cancel,
      }),
      afterSale: createAfterSaleAdmin({ db: app.db, events: app.events }),
      waitlist: { painelList: waitlist.painelList, nudge: waitlist.nudge },
      change: registrations.change.staffChange,
      refundByPayer: registrations.staffRefundByPayer,
      /** An event's teams with captain and members (docs/decisions/0067). */
      teams: registrations.teams.ofEvent,
      transfer: {
        status: (id) => registrations.transfer.status({ by: 'loja' }, id),
        request: (id, to) => registrations.transfer.request({ by: 'loja' }, id, to),
        cancel: (id) => registrations.transfer.cancelPending({ by: 'loja' }, id),
      },
      teamQuotas: {
        forStaff: registrations.teamQuotas.forStaff,
        save: registrations.teamQuotas.save,
        sweepEnded: () => registrations.teamQuotas.sweepEnded(waitlist.nudge),
      },
      /** The review queue of special prices' proofs (docs/decisions/0068). */
      proofs: {
        queue: registrations.proofs.queue,
        file: registrations.proofs.file,
        decide: registrations.proofs.decide,
        deskView: registrations.proofs.deskView,
      },
    });
    app.decorate('registrations', {
      cart: registrations.cart,
      cancel: registrations.cancel,
      /** A standing registration's name and address per bib of an event (results, decision 0064). */
      contactsByBib: (eventId: number, bibs: number[]) => contactsByBib(app.db, eventId, bibs),
      runnerOfEntry: (entryId: number, userId: number) => runnerOfEntry(app.db, entryId, userId),
      joinWaitlist: (eventId, input) => waitlist.join(eventId, input),
      waveCounts: (waveIds: number[], tx?: Tx) => waveCounts(tx ?? app.db, waveIds),
      giveMissingWaves: (tx: Tx, categoryId: number) => giveMissingWaves(tx, app.events.waves, categoryId),
    });
    // What an account and the sales past their period keep here, asked by accounts (decisions 0047,
    // 0057, 0061); accounts schedules the nightly jobs above.
    app.accounts.personalData.register({
      module: 'registrations',
      async forgetAccount(tx, account) {
        const { offersFreed } = await forgetRunner(tx, account, app.now());
        // The special prices' documents (a PCD one is health data) go with the account.
        await registrations.proofs.forgetAccount(tx, account.userId);
        // A deleted offer's place goes to the next in line.
        if (offersFreed) await waitlist.nudge(tx);
      },
      eraseSalesRecords: eraseRegistrationsOfEventsEndedBefore,
    });
    await app.register(registrationsRoutes, { registrations });
    await app.register(pickupDelegationRoutes, { registrations });
    await app.register(waitlistRoutes, { waitlist });
    await app.register(teamsRoutes, {
      teams: registrations.teams,
      places: registrations.teamPlaces,
      invites: registrations.teamInvites,
    });
    await app.register(proofsRoutes, { proofs: registrations.proofs });
  },
  {
    name: 'registrations',
    dependencies: ['infra', 'jobs', 'payments', 'events', 'opening', 'accounts', 'coupons'],
  },
);
export { registrationMailPreviews } from './mail-previews.ts';
