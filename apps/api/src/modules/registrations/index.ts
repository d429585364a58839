import fp from 'fastify-plugin';
import { type AfterSaleAdmin, createAfterSaleAdmin } from './after-sale-admin.ts';
import { registrationsRoutes } from './registrations.routes.ts';
import { createRegistrationsAdmin } from './registrations-admin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The back office's side of registrations: participants, exports, check-in and its undo, cancellation. */
    registrationsAdmin: RegistrationsAdmin & { afterSale: AfterSaleAdmin };
    /**
     * Registrations paid inside a shop order (the mixed cart), which the orders module calls, and the
     * back office's cancellation of a direct registration.
     */
    registrations: { cart: RegistrationsCart; cancel: RegistrationsService['cancel'] };
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
    });
    app.payments.registerPurpose('registration', registrations.purpose);
    app.coupons.registerPricer('registration', registrations.pricePreview);
    app.jobs.work('mail.registration-confirmation', ({ registrationId }) =>
      registrations.sendConfirmation(registrationId),
    );
    app.jobs.work('mail.registration-cancelled', ({ registrationId }) =>
      registrations.sendCancellation(registrationId),
    );
    app.decorate('registrationsAdmin', {
      ...createRegistrationsAdmin({
        db: app.db,
        now: app.now,
        checkinSecret: app.env.CHECKIN_TOKEN_SECRET,
        cancel: registrations.cancel,
      }),
      afterSale: createAfterSaleAdmin({ db: app.db, events: app.events }),
    });
    app.decorate('registrations', { cart: registrations.cart, cancel: registrations.cancel });
    await app.register(registrationsRoutes, { registrations });
  },
  { name: 'registrations', dependencies: ['infra', 'jobs', 'payments', 'events', 'accounts', 'coupons'] },
);
