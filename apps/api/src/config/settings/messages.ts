import { z } from 'zod';

/** Messages: e-mail, WhatsApp and its webhook, the message log, and the encarregado the privacy page names. */
export const messageSettings = {
  MAIL_PROVIDER: z.enum(['outbox', 'smtp']).default('outbox'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Passada <contato@passada.com.br>'),
  /** Days the record of each message sent (recipient, job, sent or failed and why) is kept. */
  MESSAGE_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  /** WhatsApp: `outbox` (JSON files under DATA_DIR/outbox/whatsapp) or `cloud` (Meta's Cloud API). */
  WHATSAPP_PROVIDER: z.enum(['outbox', 'cloud']).default('outbox'),
  WHATSAPP_API_URL: z.url().default('https://graph.facebook.com'),
  WHATSAPP_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'como v21.0')
    .default('v21.0'),
  WHATSAPP_PHONE_NUMBER_ID: z.string().optional(),
  /** A system user's token with whatsapp_business_messaging; a secret. */
  WHATSAPP_ACCESS_TOKEN: z.string().optional(),
  WHATSAPP_TIMEOUT_MS: z.coerce.number().int().min(1000).max(60_000).default(10_000),
  /** The Verify Token typed in the app's Webhooks settings; GET /api/webhooks/whatsapp/ answers it. */
  WHATSAPP_WEBHOOK_VERIFY_TOKEN: z.string().min(1).optional(),
  /** The Meta app's secret: the key of X-Hub-Signature-256 on each webhook POST; a secret. */
  WHATSAPP_APP_SECRET: z.string().min(1).optional(),
  /** The encarregado (LGPD art. 41): who answers the people and the ANPD, named on /privacidade. */
  PRIVACY_OFFICER_NAME: z.string().min(1).default('Encarregado de dados da Passada'),
  PRIVACY_OFFICER_EMAIL: z.email('e-mail inválido').default('privacidade@passada.com.br'),
  /** Days before an event's first day when the kit-pickup reminder goes to those who opted in. */
  WHATSAPP_KIT_REMINDER_DAYS: z.coerce.number().int().min(1).max(30).default(2),
};
