import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import fp from 'fastify-plugin';
import { purgeMessageLog } from '../../providers/message-log.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { type AddressesService, createAddressesService } from './addresses.service.ts';
import { type CustomersAdmin, createCustomersAdmin } from './customers-admin.ts';
import { applyRetention } from './personal-data.ts';
import {
  createPersonalDataOwners,
  type PersonalDataOwners,
  RETENTION_SCHEDULE,
  type RetentionJob,
} from './personal-data-owners.ts';
import { applySalesRetention, salesRetentionCutoff } from './sales-retention.ts';
import { createUsersService, type UsersService } from './users.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Users and their addresses; orders read a buyer's address and registrations an owner's contact here.
     * `personalData`: every module keeping personal data registers how it erases it (decision 0061).
     */
    accounts: {
      users: UsersService;
      addresses: AddressesService;
      customers: CustomersAdmin;
      personalData: PersonalDataOwners;
    };
  }
}

/** Accounts: users and tokens, addresses, CEP lookup (docs/product.md §6). */
export default fp(
  async (app) => {
    const personalData = createPersonalDataOwners();
    const users = createUsersService({
      db: app.db,
      env: app.env,
      now: app.now,
      mail: app.providers.mail,
      jobs: app.jobs,
      // The modules registered after accounts register what they keep of an account (decision 0061).
      forgetOwned: (tx, account) => personalData.forgetAccount(tx, account),
    });
    const addresses = createAddressesService({ db: app.db });
    const customers = createCustomersAdmin({ db: app.db, now: app.now, eraseAccount: users.eraseAccount });
    app.decorate('accounts', { users, addresses, customers, personalData });
    // E-mails leave the request: the answer never waits for (or reveals) a mail server.
    app.jobs.work('mail.password-reset', ({ userId }) => users.sendPasswordReset(userId));
    app.jobs.work('mail.login-link', ({ userId }) => users.sendLoginLink(userId));
    app.jobs.work('mail.account-notice', ({ noticeId }) => users.sendAccountNotice(noticeId));
    app.jobs.work('mail.email-confirmation', ({ confirmationId }) =>
      users.sendEmailConfirmation(confirmationId),
    );
    app.jobs.work('privacy.retention', async () => {
      const removed = {
        ...(await applyRetention(app.db, app.now(), app.env.LOGIN_DEVICE_TTL_DAYS)),
        messageLog: await purgeMessageLog(app.db, app.now(), app.env.MESSAGE_LOG_RETENTION_DAYS),
      };
      app.log.info({ removed }, 'Retenção de dados pessoais aplicada');
    });
    // Orders, registrations and the audit log past the records' legal period (decision 0050).
    app.jobs.work('privacy.sales-retention', async () => {
      const cutoff = salesRetentionCutoff(
        dateInTimeZone(app.now(), STORE_TIME_ZONE),
        app.env.SALES_RETENTION_YEARS,
      );
      const changed = await applySalesRetention(app.db, personalData, cutoff, app.now());
      app.log.info(
        { job: 'privacy.sales-retention', changed, cutoff },
        'Dados pessoais de vendas antigas anonimizados',
      );
    });
    // Every night in Fortaleza, when the shop is quiet: accounts keeps the schedule, the job that owns
    // each kind of data does its part (registrations, opening; decision 0061).
    for (const [job, cron] of Object.entries(RETENTION_SCHEDULE))
      await app.jobs.schedule(job as RetentionJob, cron);
    // Not wrapped in fastify-plugin: the rate limiter stays scoped to the account routes.
    await app.register(accountsRoutes, { users, addresses });
  },
  { name: 'accounts', dependencies: ['infra', 'jobs'] },
);
export { accountMailPreviews } from './mail-previews.ts';
export {
  ERASED_NAME,
  type ErasedAccount,
  type SalesCutoff,
  type SalesRecordsErased,
} from './personal-data-owners.ts';
