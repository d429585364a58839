import path from 'node:path';
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
