import { createHash, timingSafeEqual } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  CardErrorSchema,
  CardPayRequestSchema,
  CardPayResponseSchema,
  CardTokenRequestSchema,
  CardTokenResponseSchema,
  type Finalidade,
  InstallmentsQuerySchema,
  InstallmentsResponseSchema,
  PixCreateRequestSchema,
  PixCreateResponseSchema,
  PixStatusResponseSchema,
  PixWebhookSchema,
  TxidParamSchema,
} from '@passada/core/contracts/payments';
import { precoJuros } from '@passada/core/installments';
import { reaisToCents } from '@passada/core/money';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Env } from '../../config/env.ts';
import { requireUser } from '../../plugins/auth.ts';
import { unauthorized } from '../../plugins/errors.ts';
import type { ChargePurpose, PaymentsService } from './payments.service.ts';

/** A 409 may carry the correct total (in reais) when the browser's disagreed. */
const TotalErrorSchema = ApiErrorSchema.extend({ total_correto: z.number().optional() });

const PURPOSES: Record<Finalidade, ChargePurpose> = { pedido: 'order', inscricao: 'registration' };

/** The draft travels under the field named after its purpose. */
function purposeOf(body: { finalidade: Finalidade; pedido?: unknown; inscricao?: unknown }) {
  return {
    purpose: PURPOSES[body.finalidade],
    draft: body.finalidade === 'pedido' ? body.pedido : body.inscricao,
  };
}

/** Shapes the order or registration a paid charge created as the wire names it. */
function fulfilledField(purpose: ChargePurpose, id: number | undefined) {
  if (id === undefined) return {};
  return purpose === 'order' ? { pedido_id: id } : { inscricao_id: id };
}

const sha = (v: string) => createHash('sha256').update(v).digest();

/**
 * Webhook authentication (docs/brazil.md, API Pix): a client certificate the TLS layer verified
 * (mTLS), or the shared secret registered in the webhook URL. Anything else is refused.
 */
function webhookAuthenticated(request: FastifyRequest, env: Env, hmac: string | undefined): boolean {
  const socket = request.raw.socket as Partial<TLSSocket>;
  if (socket.encrypted && socket.authorized === true) return true;
  const secret = env.EFI_WEBHOOK_SECRET;
  const given = hmac ?? request.headers['x-webhook-secret'];
  if (!secret || typeof given !== 'string') return false;
  return timingSafeEqual(sha(given), sha(secret));
}

export const paymentsRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService }> = async (
  app,
  { payments },
) => {
  const { env } = app;

  if (env.NODE_ENV !== 'test') {
    app.addHook('onReady', async () => {
      payments.start();
      if (
        env.PAYMENTS === 'efi' &&
        env.NODE_ENV === 'production' &&
        env.EFI_WEBHOOK_SECRET &&
        env.PUBLIC_URL
      ) {
        // Efí appends "/pix" to the registered URL; "ignorar=" absorbs it into a query parameter.
        const url = `${env.publicUrl}/api/webhooks/pix/?hmac=${encodeURIComponent(env.EFI_WEBHOOK_SECRET)}&ignorar=`;
        app.providers.payments
          .registerPixWebhook(url)
          .catch((err: unknown) =>
            app.log.error(
              { err: err instanceof Error ? err.message : String(err) },
              'pix webhook registration failed',
            ),
          );
      }
    });
  }

  app.post(
    '/api/pagar-pix/',
    {
      schema: {
        tags: ['pagamentos'],
        summary: 'Cria uma cobrança Pix para um pedido ou inscrição, pelo valor calculado no servidor',
        body: PixCreateRequestSchema,
        response: {
          201: PixCreateResponseSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          409: TotalErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const pix = await payments.createPix({
        user,
        ...purposeOf(request.body),
        claimedTotalCents: reaisToCents(request.body.total),
        ...(request.body.descricao ? { description: request.body.descricao } : {}),
      });
      return reply.status(201).send({
        qrcode_base64: pix.qrCodeDataUri,
        pix_copiaecola: pix.pixCopiaECola,
        txid: pix.txid,
        valor: pix.amountCents / 100,
        expira_em: pix.expiresAt.toISOString(),
      });
    },
  );

  app.get(
    '/api/status-pix/:txid/',
    {
      schema: {
        tags: ['pagamentos'],
        summary: 'Situação de uma cobrança Pix do usuário',
        params: TxidParamSchema,
        response: { 200: PixStatusResponseSchema, 401: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const s = await payments.status(user, request.params.txid);
      return { status: s.status, ...fulfilledField(s.purpose, s.fulfilledId) };
    },
  );

  app.post(
    '/api/pagar-cartao/',
    {
      schema: {
        tags: ['pagamentos'],
        summary: 'Cobra um cartão tokenizado, à vista ou parcelado',
        body: CardPayRequestSchema,
        response: {
          200: CardPayResponseSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          409: TotalErrorSchema,
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const b = request.body;
      const paid = await payments.chargeCard(user, {
        paymentToken: b.payment_token,
        installments: b.installments,
        claimedTotalCents: reaisToCents(b.total),
        customer: { name: b.name, cpf: b.cpf, email: b.email, phone: b.phone ?? '' },
        ...(b.produto ? { productName: b.produto } : {}),
        ...purposeOf(b),
      });
      return {
        detalhes: {
          data: {
            status: paid.status,
            charge_id: paid.chargeId,
            installments: paid.installments,
            installment_value: paid.installmentValueCents,
            total: paid.totalCents,
            preco_juros: precoJuros({ installment: paid.installments, value: paid.installmentValueCents }),
          },
        },
        ...fulfilledField(paid.purpose, paid.fulfilledId),
      };
    },
  );

  app.get(
    '/api/parcelas/',
    {
      schema: {
        tags: ['pagamentos'],
        summary: 'Parcelas possíveis para uma bandeira e um total em centavos',
        querystring: InstallmentsQuerySchema,
        response: { 200: InstallmentsResponseSchema, 400: ApiErrorSchema },
      },
    },
    async (request) => ({
      installments: await payments.installments(request.query.brand, request.query.total),
    }),
  );

  const webhookSchema = {
    tags: ['pagamentos'],
    summary: 'Notificações de Pix recebidos (Efí); exige mTLS ou o segredo do webhook',
    querystring: z.object({ hmac: z.string().optional(), ignorar: z.string().optional() }),
    body: PixWebhookSchema.partial().loose(),
    response: { 200: z.object({}), 401: ApiErrorSchema },
  };
  for (const url of ['/api/webhooks/pix/', '/api/webhooks/pix/pix']) {
    app.post(
      url,
      {
        schema: webhookSchema,
        // Before the body is even parsed: an unauthenticated caller learns nothing, not even validation errors.
        onRequest: async (request) => {
          const { hmac } = request.query as { hmac?: unknown };
          if (!webhookAuthenticated(request, env, typeof hmac === 'string' ? hmac : undefined))
            throw unauthorized('Webhook não autenticado.');
        },
      },
      async (request) => {
        const txids = (request.body.pix ?? []).flatMap((p) => (p.txid ? [p.txid] : []));
        await payments.receivePixNotifications(txids);
        return {};
      },
    );
  }

  // The simulated bank and tokenizer exist only in simulated mode (docs/architecture.md §5).
  const simulator = app.providers.payments.simulator;
  if (!simulator) return;

  app.post(
    '/api/simulador/pix/:txid/pagar',
    {
      schema: {
        tags: ['simulador'],
        summary: 'Simulado: o pagador paga a cobrança no banco; a confirmação segue o caminho do webhook',
        params: TxidParamSchema,
        response: {
          200: PixStatusResponseSchema.extend({ txid: z.string() }),
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const s = await payments.simulatePixPayment(request.params.txid);
      return { txid: s.txid, status: s.status, ...fulfilledField(s.purpose, s.fulfilledId) };
    },
  );

  app.post(
    '/api/simulador/cartao/token',
    {
      schema: {
        tags: ['simulador'],
        summary: 'Simulado: tokeniza um cartão como a biblioteca da Efí (mesmas validações)',
        body: CardTokenRequestSchema,
        response: { 200: CardTokenResponseSchema, 400: CardErrorSchema },
      },
    },
    async (request, reply) => {
      const result = simulator.tokenizeCard(request.body, app.now());
      if (!result.ok) return reply.status(400).send(result.error);
      return result.value;
    },
  );
};
