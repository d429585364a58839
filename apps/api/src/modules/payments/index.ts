import fp from 'fastify-plugin';
import { paymentsRoutes } from './payments.routes.ts';
import { createPaymentsService, type PaymentsService } from './payments.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Charges and their confirmation; orders and registrations register what a charge pays for. */
    payments: PaymentsService;
  }
}

/** Charges (Pix and card), their one settling path and their reconciliation (docs/architecture.md §5). */
export default fp(
  async (app) => {
    const { env } = app;
    const payments = createPaymentsService({
      db: app.db,
      env,
      provider: app.providers.payments,
      now: app.now,
      log: app.log,
      jobs: app.jobs,
      mail: app.providers.mail,
      whatsapp: app.providers.whatsapp,
    });
    app.decorate('payments', payments);
    // The drafts of an erased account's charges, and of sales past their period, after every other
    // module's erasure (decision 0061).
    app.accounts.personalData.registerCharges({
      forgetAccount: payments.forgetAccount,
      forgetCharges: payments.forgetCharges,
    });

    const reconcileOne = async ({ chargeId }: { chargeId: number }) =>
      payments.reconcile(chargeId, 'reconcile');
    app.jobs.work('charges.reconcile', reconcileOne);
    app.jobs.work('charges.expire', reconcileOne);
    app.jobs.work('charges.remove', ({ chargeId }) => payments.removeEnded(chargeId));
    app.jobs.work('charges.reconcile-all', async () => {
      await payments.reconcileAll();
    });
    app.jobs.work('mail.refund-notice', async ({ chargeId }) => payments.sendRefundNotice(chargeId));
    app.jobs.work('whatsapp.pix-code', ({ chargeId }) => payments.sendPixOnWhatsApp(chargeId));

    let registering: Promise<void> = Promise.resolve();
    app.addHook('onReady', async () => {
      // Tests drive reconciliation themselves, on their own clock.
      if (env.NODE_ENV !== 'test') {
        await app.jobs.schedule('charges.reconcile-all', '* * * * *', {});
        // Once at start: a crash may have left charges whose provider answer was never recorded.
        await app.jobs.send('charges.reconcile-all', {}, { singletonKey: 'start' });
      }
      if (env.PAYMENTS === 'efi' && env.EFI_WEBHOOK_SECRET) {
        // Efí skips mTLS on our word (docs/decisions/0013-efi-webhook-skip-mtls.md): the secret
        // in the URL authenticates it; Efí appends "/pix", which "ignorar=" absorbs.
        const url = `${env.publicUrl}/api/webhooks/pix/?hmac=${encodeURIComponent(env.EFI_WEBHOOK_SECRET)}&ignorar=`;
        registering = payments.registerWebhook(url);
      }
    });
    app.addHook('onClose', async () => registering);
    await app.register(paymentsRoutes, { payments });
  },
  { name: 'payments', dependencies: ['infra', 'jobs', 'accounts'] },
);
export { paymentMailPreviews } from './mail-previews.ts';
