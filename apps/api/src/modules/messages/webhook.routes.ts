import { ApiErrorSchema } from '@passada/core/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, unauthorized } from '../../plugins/errors.ts';
import type { MessagesService } from './messages.service.ts';
import { sameSecret, signatureValid } from './webhook.ts';

const forbidden = (detail: string) => new HttpError(403, detail, 'forbidden');

/** The verification request's query (PHP-style dotted names, as Meta sends them). */
const VerifyQuerySchema = z.object({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().optional(),
  'hub.challenge': z.string().max(200).optional(),
});

/**
 * Meta's WhatsApp webhook (docs/decisions/0050), public: the GET answers the subscription check when the
 * verify token matches; the POST is taken only with a valid `X-Hub-Signature-256` over the raw bytes.
 * Not wrapped in fastify-plugin: the raw-body JSON parser stays on these two routes.
 */
export const webhookRoutes: FastifyPluginAsyncZod<{ messages: MessagesService }> = async (
  app,
  { messages },
) => {
  const { env } = app;
  // The signature covers the bytes as sent, so the body is kept as a Buffer and parsed after the check.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
    (_r, body, done) => done(null, body),
  );

  app.get(
    '/api/webhooks/whatsapp/',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Verificação da assinatura do webhook do WhatsApp (hub.challenge)',
        querystring: VerifyQuerySchema,
        response: { 200: z.string(), 403: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const token = env.WHATSAPP_WEBHOOK_VERIFY_TOKEN;
      if (!token || q['hub.mode'] !== 'subscribe' || !sameSecret(q['hub.verify_token'], token)) {
        throw forbidden('Token de verificação do webhook do WhatsApp inválido.');
      }
      return reply.type('text/plain; charset=utf-8').send(q['hub.challenge'] ?? '');
    },
  );

  app.post(
    '/api/webhooks/whatsapp/',
    {
      schema: {
        tags: ['webhooks'],
        summary:
          'Notificações do WhatsApp Cloud API: situação das mensagens enviadas e pedidos para parar (assinadas com X-Hub-Signature-256)',
        response: {
          200: z.object({ situacoes: z.number(), descadastros: z.number() }),
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          403: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const secret = env.WHATSAPP_APP_SECRET;
      if (!secret) throw forbidden('Webhook do WhatsApp não configurado (WHATSAPP_APP_SECRET).');
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!signatureValid(raw, request.headers['x-hub-signature-256'], secret)) {
        // Nothing of the body is logged: it carries phone numbers and what people wrote.
        request.log.warn('Webhook do WhatsApp recusado: assinatura inválida');
        throw unauthorized('Assinatura do webhook do WhatsApp inválida.');
      }
      const result = await messages.handleNotification(raw);
      return { situacoes: result.statuses, descadastros: result.optOuts };
    },
  );
};
