import fp from 'fastify-plugin';

export { MAIL_LOGO_PATH } from './mail-brand.ts';

import { createMailBrand, type MailBrandService, mailLogoRoutes } from './mail-brand.ts';
import { createMessagesService, type MessagesService } from './messages.service.ts';
import { createMessagesAdmin, type MessagesAdmin } from './messages-admin.ts';
import { webhookRoutes } from './webhook.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The message log's delivery states and WhatsApp opt-outs; `admin` lists the log for the back office;
     * `brand` keeps the e-mails' logo staff sent.
     */
    messages: MessagesService & { admin: MessagesAdmin; brand: MailBrandService };
  }
}

/**
 * Messages after they leave (docs/decisions/0050): Meta's WhatsApp webhook (delivery reports written to
 * `message_log`, "PARAR" recorded in `whatsapp_opt_outs`) and the log as the back office reads it.
 */
export default fp(
  async (app) => {
    const messages = createMessagesService({ db: app.db, env: app.env, now: app.now, log: app.log });
    const brand = createMailBrand({ db: app.db, now: app.now });
    app.decorate('messages', {
      ...messages,
      admin: createMessagesAdmin({ db: app.db, now: app.now }),
      brand,
    });
    await app.register(webhookRoutes, { messages });
    await app.register(mailLogoRoutes, { brand, storage: app.providers.media });
  },
  { name: 'messages', dependencies: ['infra'] },
);
