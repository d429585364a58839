import fp from 'fastify-plugin';
import { fiscalRoutes } from './fiscal.routes.ts';
import { createFiscalService, FiscalPending, type FiscalService } from './fiscal.service.ts';

export { fiscalMailPreviews } from './mail-previews.ts';
export { FiscalPending, type FiscalService };

declare module 'fastify' {
  interface FastifyInstance {
    /** Notas fiscais: NF-e of orders, NFS-e of registrations (docs/decisions/0043). */
    fiscal: FiscalService;
  }
}

/** Notas fiscais of every sale, issued by jobs after payment (docs/decisions/0043). */
export default fp(
  async (app) => {
    const fiscal = createFiscalService({
      db: app.db,
      env: app.env,
      now: app.now,
      log: app.log,
      provider: app.providers.invoicing,
      mail: app.providers.mail,
      jobs: app.jobs,
    });
    app.decorate('fiscal', fiscal);
    app.jobs.work('fiscal.issue-order', ({ orderId }) => fiscal.issueOrder(orderId));
    app.jobs.work('fiscal.issue-registration', ({ registrationId }) =>
      fiscal.issueRegistration(registrationId),
    );
    app.jobs.work('fiscal.issue-team-places', ({ batchId }) => fiscal.invoiceTeamPlaces(batchId));
    app.jobs.work('fiscal.team-places-reduced', ({ batchId }) => fiscal.invoiceTeamPlaces(batchId));
    app.jobs.work('fiscal.process', async ({ documentId }) => {
      await fiscal.process(documentId);
    });
    app.jobs.work('fiscal.cancel-order', ({ orderId }) => fiscal.cancelOrder(orderId));
    app.jobs.work('fiscal.order-swapped', ({ orderId, swappedAt }) =>
      fiscal.orderSwapped(orderId, new Date(swappedAt)),
    );
    app.jobs.work('fiscal.cancel-registration', ({ registrationId }) =>
      fiscal.cancelRegistration(registrationId),
    );
    app.jobs.work('fiscal.return-refunded', ({ returnId }) => fiscal.returnRefunded(returnId));
    app.jobs.work('fiscal.exchange-shipped', ({ returnId }) => fiscal.exchangeShipped(returnId));
    app.jobs.work('fiscal.order-reduced', ({ orderId, refundId, amountCents, carrierReturn }) =>
      fiscal.orderReduced(orderId, refundId, amountCents, carrierReturn),
    );
    app.jobs.work('fiscal.retry-pending', () => fiscal.retryPending());
    app.jobs.work('fiscal.issue-event-month', () => fiscal.issueLastMonth());
    app.jobs.work('mail.fiscal-document', ({ documentId }) => fiscal.sendMail(documentId));
    await app.jobs.schedule('fiscal.retry-pending', '*/15 * * * *');
    // One NFS-e per event per month (docs/decisions/0049): at 06:00 on the 1st, for the month before.
    if (app.env.NFSE_GROUPING === 'event_month')
      await app.jobs.schedule('fiscal.issue-event-month', '0 6 1 * *');
    await app.register(fiscalRoutes, { fiscal });
  },
  { name: 'fiscal', dependencies: ['infra', 'jobs'] },
);
