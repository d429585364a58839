import path from 'node:path';
import { normalizePhone } from '@passada/core/phone';
import type { Env } from '../../config/env.ts';
import { createCloudWhatsApp } from './cloud.provider.ts';
import { createOutboxWhatsApp } from './outbox.provider.ts';
import type { WhatsAppProvider } from './whatsapp.provider.ts';

export {
  renderTemplate,
  templateParameter,
  WHATSAPP_TEMPLATES,
  type WhatsAppTemplateName,
} from './templates.ts';
export { WhatsAppApiError, type WhatsAppMessage, type WhatsAppProvider } from './whatsapp.provider.ts';

/** "(85) 99999-0000" → "5585999990000": the Cloud API's international digits of a Brazilian phone. */
export const whatsappNumber = (phone: string) => `55${normalizePhone(phone)}`;

export function createWhatsAppProvider(env: Env): WhatsAppProvider {
  return env.WHATSAPP_PROVIDER === 'cloud' && env.WHATSAPP_PHONE_NUMBER_ID && env.WHATSAPP_ACCESS_TOKEN
    ? createCloudWhatsApp({
        baseUrl: env.WHATSAPP_API_URL,
        version: env.WHATSAPP_API_VERSION,
        phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
        accessToken: env.WHATSAPP_ACCESS_TOKEN,
        timeoutMs: env.WHATSAPP_TIMEOUT_MS,
      })
    : createOutboxWhatsApp(path.join(env.dataDir, 'outbox', 'whatsapp'));
}
