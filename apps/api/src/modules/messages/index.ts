import fp from 'fastify-plugin';
import { createMessagesService, type MessagesService } from './messages.service.ts';
import { createMessagesAdmin, type MessagesAdmin } from './messages-admin.ts';
import { webhookRoutes } from './webhook.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The message log's delivery states and WhatsApp opt-outs; `admin` lists the log for the back office. */
    messages: MessagesService & { admin: MessagesAdmin };
  }
}

/**
 * Messages after they leave (docs/decisions/0050): Meta's WhatsApp webhook (delivery reports written to
 * `message_log`, "PARAR" recorded in `whatsapp_opt_outs`) and the log as the back office reads it.
 */
export default fp(
  async (app) => {
    const messages = createMessagesService({ db: app.db, env: app.env, now: app.now, log: app.log });
    app.decorate('messages', { ...messages, admin: createMessagesAdmin({ db: app.db, now: app.now }) });
    await app.register(webhookRoutes, { messages });
  },
  { name: 'messages', dependencies: ['infra'] },
);
