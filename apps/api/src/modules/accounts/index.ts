import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import fp from 'fastify-plugin';
import { purgeMessageLog } from '../../providers/message-log.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { type AddressesService, createAddressesService } from './addresses.service.ts';
import { type CustomersAdmin, createCustomersAdmin } from './customers-admin.ts';
import { applyRetention } from './personal-data.ts';
import { applySalesRetention, salesRetentionCutoff } from './sales-retention.ts';
import { createUsersService, type UsersService } from './users.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Users and their addresses; orders read a buyer's address and registrations an owner's contact here. */
    accounts: { users: UsersService; addresses: AddressesService; customers: CustomersAdmin };
  }
}

/** Accounts: users and tokens, addresses, CEP lookup (docs/product.md §6). */
export default fp(
  async (app) => {
    const users = createUsersService({
      db: app.db,
      env: app.env,
      now: app.now,
      mail: app.providers.mail,
      jobs: app.jobs,
      // Payments is registered after accounts; it is there by the time an account is deleted.
      forgetPayments: (tx, userId) => app.payments.forgetAccount(tx, userId),
      // Registrations too (waitlist entries and transfers, docs/decisions/0047).
      forgetRegistrations: (tx, account) => app.registrations.forgetAccount(tx, account),
    });
    const addresses = createAddressesService({ db: app.db });
    const customers = createCustomersAdmin({ db: app.db, now: app.now, eraseAccount: users.eraseAccount });
    app.decorate('accounts', { users, addresses, customers });
    // E-mails leave the request: the answer never waits for (or reveals) a mail server.
    app.jobs.work('mail.password-reset', ({ userId }) => users.sendPasswordReset(userId));
    app.jobs.work('mail.login-link', ({ userId }) => users.sendLoginLink(userId));
    app.jobs.work('mail.account-notice', ({ noticeId }) => users.sendAccountNotice(noticeId));
    app.jobs.work('privacy.retention', async () => {
      const removed = {
        ...(await applyRetention(app.db, app.now(), app.env.LOGIN_DEVICE_TTL_DAYS)),
        messageLog: await purgeMessageLog(app.db, app.now(), app.env.MESSAGE_LOG_RETENTION_DAYS),
      };
      app.log.info({ removed }, 'Retenção de dados pessoais aplicada');
    });
    // Every night at 03:30 in Fortaleza, when the shop is quiet.
    await app.jobs.schedule('privacy.retention', '30 3 * * *');
    // Orders, registrations and the audit log past the records' legal period (decision 0050).
    app.jobs.work('privacy.sales-retention', async () => {
      const cutoff = salesRetentionCutoff(
        dateInTimeZone(app.now(), STORE_TIME_ZONE),
        app.env.SALES_RETENTION_YEARS,
      );
      const changed = await applySalesRetention(
        app.db,
        { forgetCharges: (tx, ids) => app.payments.forgetCharges(tx, ids) },
        cutoff,
        app.now(),
      );
      app.log.info(
        { job: 'privacy.sales-retention', changed, cutoff },
        'Dados pessoais de vendas antigas anonimizados',
      );
    });
    await app.jobs.schedule('privacy.sales-retention', '55 3 * * *');
    // Not wrapped in fastify-plugin: the rate limiter stays scoped to the account routes.
    await app.register(accountsRoutes, { users, addresses });
  },
  { name: 'accounts', dependencies: ['infra', 'jobs'] },
);
export { accountMailPreviews } from './mail-previews.ts';
