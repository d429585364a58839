import fp from 'fastify-plugin';
import { registrationsRoutes } from './registrations.routes.ts';
import { createRegistrationsService } from './registrations.service.ts';

/** Event registrations (docs/product.md §7): paid through a 'registration' charge, then looked up by CPF. */
export default fp(
  async (app) => {
    const registrations = createRegistrationsService({
      db: app.db,
      now: app.now,
      log: app.log,
      mail: app.providers.mail,
      jobs: app.jobs,
      payments: app.payments,
      events: app.events,
      users: app.accounts.users,
    });
    app.payments.registerPurpose('registration', registrations.purpose);
    app.jobs.work('mail.registration-confirmation', ({ registrationId }) =>
      registrations.sendConfirmation(registrationId),
    );
    await app.register(registrationsRoutes, { registrations });
  },
  { name: 'registrations', dependencies: ['infra', 'jobs', 'payments', 'events', 'accounts'] },
);
