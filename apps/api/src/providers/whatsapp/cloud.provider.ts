import { WHATSAPP_TEMPLATES } from './templates.ts';
import { WhatsAppApiError, type WhatsAppMessage, type WhatsAppProvider } from './whatsapp.provider.ts';

export interface CloudApiOptions {
  /** `https://graph.facebook.com` (WHATSAPP_API_URL; tests point it at the fake). */
  baseUrl: string;
  /** Graph API version, e.g. `v21.0` (WHATSAPP_API_VERSION). */
  version: string;
  /** The business phone number's id in WhatsApp Manager (WHATSAPP_PHONE_NUMBER_ID). */
  phoneNumberId: string;
  /** A system user's access token with `whatsapp_business_messaging` (WHATSAPP_ACCESS_TOKEN). */
  accessToken: string;
  timeoutMs: number;
}

type GraphError = { error?: { message?: string; code?: number; error_data?: { details?: string } } };

/**
 * Meta's WhatsApp Business Cloud API: `POST /{version}/{phone-number-id}/messages` with a template
 * message (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages,
 * https://developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates). The answer
 * carries `messages[0].id` (the wamid); an error carries `error.code` and `error.error_data.details`
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes), thrown as
 * WhatsAppApiError so the message log keeps the code. Delivery itself is reported later by webhook;
 * an accepted request counts as sent.
 */
export function createCloudWhatsApp(opts: CloudApiOptions): WhatsAppProvider {
  const url = `${opts.baseUrl.replace(/\/$/, '')}/${opts.version}/${opts.phoneNumberId}/messages`;
  return {
    name: 'cloud',
    async send(message: WhatsAppMessage) {
      const expected = WHATSAPP_TEMPLATES[message.template].parameters.length;
      if (message.parameters.length !== expected) {
        throw new Error(
          `Modelo ${message.template}: ${expected} parâmetros esperados, ${message.parameters.length} dados.`,
        );
      }
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: message.to,
          type: 'template',
          template: {
            name: message.template,
            language: { code: 'pt_BR' },
            components: [
              { type: 'body', parameters: message.parameters.map((text) => ({ type: 'text', text })) },
            ],
          },
        }),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      const body = (await res.json().catch(() => ({}))) as GraphError & { messages?: Array<{ id?: string }> };
      if (!res.ok || body.error) {
        throw new WhatsAppApiError(
          res.status,
          body.error?.code,
          body.error?.error_data?.details ?? body.error?.message ?? 'resposta sem detalhes',
        );
      }
      const id = body.messages?.[0]?.id;
      if (!id) throw new WhatsAppApiError(res.status, undefined, 'resposta sem o id da mensagem');
      return { id };
    },
  };
}
