/**
 * A strict stand-in for Meta's WhatsApp Business Cloud API on 127.0.0.1, for tests only: the
 * `POST /{version}/{phone-number-id}/messages` endpoint with template messages, checked the way the
 * Cloud API checks them (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages)
 * and answered with its success and Graph error shapes
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes). It also writes the
 * webhook notifications Meta would post back, signed the way Meta signs them: status reports of the
 * messages it accepted and incoming text messages
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status/,
 * https://developers.facebook.com/docs/graph-api/webhooks/getting-started).
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A template approved in WhatsApp Manager: its name, language and how many body parameters it takes. */
export interface ApprovedTemplate {
  name: string;
  language: string;
  bodyParameters: number;
}

/** A message the fake accepted, as it arrived. */
export interface AcceptedMessage {
  id: string;
  to: string;
  template: string;
  language: string;
  parameters: string[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};

export interface FakeWhatsApp {
  url: string;
  version: string;
  phoneNumberId: string;
  token: string;
  accepted: AcceptedMessage[];
  /** The next request is answered with this Graph error (e.g. 130429, throughput reached). */
  failOnce(code: 130429 | 131026 | 2): void;
  /** The Meta app's secret the notifications are signed with. */
  appSecret: string;
  /**
   * A `messages` notification reporting `status` of a message this fake accepted (`failed` carries
   * error 131026 unless another is given), as the body and headers Meta posts.
   */
  statusNotification(
    messageId: string,
    status: 'sent' | 'delivered' | 'read' | 'failed',
    error?: { code: number; title: string },
  ): WebhookDelivery;
  /** A `messages` notification of a text someone sent to the business number. */
  /** A text the person sent, now or at `at` (the webhook's `timestamp`, in seconds). */
  incomingText(from: string, body: string, at?: Date): WebhookDelivery;
  close(): Promise<void>;
}

/** A notification as Meta posts it: the exact bytes and the headers, signature included. */
export interface WebhookDelivery {
  payload: string;
  headers: Record<string, string>;
}

/** `X-Hub-Signature-256` of these bytes with this secret. */
export function signWebhook(payload: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(payload, 'utf8').digest('hex')}`;
}

function graphError(status: number, code: number, message: string, details?: string) {
  return {
    status,
    body: {
      error: {
        message: `(#${code}) ${message}`,
        type: 'OAuthException',
        code,
        ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    },
  };
}

const FAILURES = {
  130429: () => graphError(400, 130429, 'Rate limit hit', 'Cloud API message throughput has been reached.'),
  131026: () => graphError(400, 131026, 'Message undeliverable', 'Message could not be delivered.'),
  2: () => graphError(503, 2, 'Service temporarily unavailable'),
} as const;

export async function startFakeWhatsApp(opts: {
  templates: ApprovedTemplate[];
  /** The numbers a test account may write to; absent, any. */
  allowedRecipients?: string[];
}): Promise<FakeWhatsApp> {
  const version = 'v21.0';
  const phoneNumberId = '106540352242922';
  const token = `EAAJ${randomBytes(16).toString('hex')}`;
  const accepted: AcceptedMessage[] = [];
  const appSecret = randomBytes(16).toString('hex');
  const businessAccountId = '102290129340398';
  const displayPhoneNumber = '15550783881';
  const notification = (value: Json): WebhookDelivery => {
    // Meta escapes non-ASCII characters in what it signs (`\u00e9`), so the bytes differ from a
    // plain JSON.stringify: the receiver must check the signature on the raw body.
    const payload = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: businessAccountId,
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: displayPhoneNumber, phone_number_id: phoneNumberId },
                ...value,
              },
              field: 'messages',
            },
          ],
        },
      ],
    }).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return {
      payload,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signWebhook(payload, appSecret),
        'user-agent': 'facebookexternalua',
      },
    };
  };
  const stamp = () => String(Math.floor(Date.now() / 1000));
  const pending: Array<keyof typeof FAILURES> = [];

  function answer(req: http.IncomingMessage, raw: string): { status: number; body: Json } {
    if (req.method !== 'POST' || req.url !== `/${version}/${phoneNumberId}/messages`) {
      return graphError(400, 100, 'Unsupported post request.');
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      return graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    const failure = pending.shift();
    if (failure !== undefined) return FAILURES[failure]();
    let body: Json;
    try {
      body = obj(JSON.parse(raw));
    } catch {
      return graphError(400, 100, 'Invalid parameter', 'Request body is not valid JSON.');
    }
    if (body.messaging_product !== 'whatsapp') {
      return graphError(400, 100, 'Invalid parameter', 'The parameter messaging_product is required.');
    }
    const to = String(body.to ?? '');
    if (!/^\+?\d{8,15}$/.test(to))
      return graphError(400, 100, 'Invalid parameter', 'Invalid "to" parameter.');
    if (opts.allowedRecipients && !opts.allowedRecipients.includes(to.replace(/^\+/, ''))) {
      return graphError(400, 131030, 'Recipient phone number not in allowed list');
    }
    if (body.type !== 'template') {
      // A free-form message outside the 24-hour window: the shop only ever starts conversations.
      return graphError(
        400,
        131047,
        'Re-engagement message',
        'More than 24 hours have passed since the customer last replied.',
      );
    }
    const template = obj(body.template);
    const language = String(obj(template.language).code ?? '');
    const approved = opts.templates.find((t) => t.name === template.name && t.language === language);
    if (!approved) {
      return graphError(
        404,
        132001,
        'Template name does not exist in the translation',
        `template name (${String(template.name)}) does not exist in ${language}`,
      );
    }
    const components = Array.isArray(template.components) ? template.components.map(obj) : [];
    if (components.some((c) => c.type !== 'body')) {
      return graphError(400, 132012, 'Parameter format does not match format in the created template');
    }
    const parameters = components.flatMap((c) => (Array.isArray(c.parameters) ? c.parameters.map(obj) : []));
    if (parameters.length !== approved.bodyParameters) {
      return graphError(
        400,
        132000,
        'Number of parameters does not match the expected number of params',
        `body: number of localizable_params (${parameters.length}) does not match the expected number of params (${approved.bodyParameters})`,
      );
    }
    const texts: string[] = [];
    for (const p of parameters) {
      const text = typeof p.text === 'string' ? p.text : '';
      if (p.type !== 'text' || text.trim() === '') {
        return graphError(400, 132012, 'Parameter format does not match format in the created template');
      }
      if (/[\n\t]| {5,}/.test(text)) {
        return graphError(
          400,
          132018,
          'There was an issue with the parameters in your template.',
          'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
        );
      }
      texts.push(text);
    }
    const id = `wamid.${randomBytes(24).toString('base64url')}`;
    accepted.push({ id, to, template: approved.name, language, parameters: texts });
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to.replace(/^\+/, '') }],
        messages: [{ id }],
      },
    };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { status, body } = answer(req, Buffer.concat(chunks).toString('utf8'));
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    version,
    phoneNumberId,
    token,
    accepted,
    failOnce: (code) => {
      pending.push(code);
    },
    appSecret,
    statusNotification(messageId, status, error) {
      const message = accepted.find((m) => m.id === messageId);
      if (!message) throw new Error(`fake-whatsapp: no accepted message ${messageId}`);
      const recipient = message.to.replace(/^\+/, '');
      const failure = error ?? { code: 131026, title: 'Message undeliverable' };
      return notification({
        statuses: [
          {
            id: messageId,
            status,
            timestamp: stamp(),
            recipient_id: recipient,
            ...(status === 'failed'
              ? {
                  errors: [
                    {
                      code: failure.code,
                      title: failure.title,
                      message: failure.title,
                      error_data: { details: 'Message failed to send.' },
                      href: '/documentation/business-messaging/whatsapp/support/error-codes',
                    },
                  ],
                }
              : {
                  pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'utility' },
                }),
          },
        ],
      });
    },
    incomingText(from, body, at) {
      return notification({
        contacts: [{ profile: { name: 'Cliente' }, wa_id: from }],
        messages: [
          {
            from,
            id: `wamid.${randomBytes(24).toString('base64url')}`,
            timestamp: at ? String(Math.floor(at.getTime() / 1000)) : stamp(),
            type: 'text',
            text: { body },
          },
        ],
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
