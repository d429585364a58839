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
  FreeConfirmRequestSchema,
  FreeConfirmResponseSchema,
  IdempotencyKeySchema,
  InstallmentsQuerySchema,
  InstallmentsResponseSchema,
  PaymentListResponseSchema,
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
import { badRequest, unauthorized } from '../../plugins/errors.ts';
import type { RouteLimit } from '../../plugins/rate-limit.ts';
import { PaymentProviderError } from '../../providers/payments/index.ts';
import type { ChargePurpose, PaymentsService } from './payments.service.ts';

/** A 409 may carry the correct total (in reais) when the browser's disagreed. */
const TotalErrorSchema = ApiErrorSchema.extend({ total_correto: z.number().optional() });

const PURPOSES: Record<Finalidade, ChargePurpose> = {
  pedido: 'order',
  inscricao: 'registration',
  troca: 'exchange',
  vagas_equipe: 'team_places',
};

/** The draft travels under the field named after its purpose. */
function purposeOf(body: {
  finalidade: Finalidade;
  pedido?: unknown;
  inscricao?: unknown;
  troca?: unknown;
  vagas_equipe?: unknown;
}) {
  const drafts = {
    pedido: body.pedido,
    inscricao: body.inscricao,
    troca: body.troca,
    vagas_equipe: body.vagas_equipe,
  };
  return { purpose: PURPOSES[body.finalidade], draft: drafts[body.finalidade] };
}

/** Shapes the order or registration a paid charge created as the wire names it. */
function fulfilledField(purpose: ChargePurpose, id: number | undefined) {
  if (id === undefined || purpose === 'exchange') return {};
  if (purpose === 'team_places') return { vagas_equipe_id: id };
  return purpose === 'order' ? { pedido_id: id } : { inscricao_id: id };
}

const sha = (v: string) => createHash('sha256').update(v).digest();

/**
 * Webhook authentication (docs/decisions/0013-efi-webhook-skip-mtls.md): a client certificate the TLS
 * layer verified (mTLS), or the shared secret registered in the webhook URL sent from one of Efí's
 * addresses (`request.ip`, so TRUST_PROXY applies). Anything else is refused.
 */
function webhookAuthenticated(request: FastifyRequest, env: Env, hmac: string | undefined): boolean {
  const socket = request.raw.socket as Partial<TLSSocket>;
  if (socket.encrypted && socket.authorized === true) return true;
  const secret = env.EFI_WEBHOOK_SECRET;
  const given = hmac ?? request.headers['x-webhook-secret'];
  if (!secret || typeof given !== 'string') return false;
  if (!timingSafeEqual(sha(given), sha(secret))) return false;
  const allowed = env.EFI_WEBHOOK_ALLOWED_IPS;
  return allowed.includes('*') || allowed.includes(request.ip);
}

/** Card notifications come as a form or JSON `notification=<token>`. */
const CardNotificationSchema = z.object({
  notification: z.string().min(1).max(200),
});

export const paymentsRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService }> = async (
  app,
  { payments },
) => {
  const { env } = app;

  // Efí posts card notifications as a form (`notification=<token>`).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  // Each route counts its own per-IP allowance; one account shares a single allowance across all of
  // them, so many addresses cannot multiply it.
  const limited = (route: string): RouteLimit[] => [
    { name: `payments-${route}`, max: env.PAYMENTS_RATE_LIMIT_PER_IP, windowSeconds: 600 },
    { name: 'payments', max: env.PAYMENTS_RATE_LIMIT_PER_ACCOUNT, windowSeconds: 600, per: 'account' },
  ];

  app.post(
    '/api/pagar-pix/',
    {
      config: { limit: limited('pix'), auth: 'user' },
      schema: {
        tags: ['pagamentos'],
        summary: 'Cria uma cobrança Pix para um pedido ou inscrição, pelo valor calculado no servidor',
        body: PixCreateRequestSchema,
        response: {
          201: PixCreateResponseSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          409: TotalErrorSchema,
          429: ApiErrorSchema,
          502: ApiErrorSchema,
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
      config: { auth: 'user' },
      schema: {
        tags: ['pagamentos'],
        summary: 'Situação de uma cobrança (Pix ou cartão) do usuário',
        params: TxidParamSchema,
        response: { 200: PixStatusResponseSchema, 401: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const s = await payments.status(user, request.params.txid);
      return {
        status: s.status,
        ...fulfilledField(s.purpose, s.fulfilledId),
        ...(s.reason ? { motivo: s.reason } : {}),
        ...(s.expiresAt ? { expira_em: s.expiresAt.toISOString() } : {}),
      };
    },
  );

  const CardErrorWithTxid = ApiErrorSchema.extend({ txid: z.string().optional() });
  app.post(
    '/api/pagar-cartao/',
    {
      config: { limit: limited('card'), auth: 'user' },
      schema: {
        tags: ['pagamentos'],
        summary:
          'Cobra um cartão tokenizado; 200 pago, 202 em análise. Exige o cabeçalho Idempotency-Key (um por tentativa)',
        body: CardPayRequestSchema,
        response: {
          200: CardPayResponseSchema,
          202: CardPayResponseSchema,
          400: CardErrorWithTxid,
          401: ApiErrorSchema,
          409: TotalErrorSchema.extend({ txid: z.string().optional() }),
          429: ApiErrorSchema,
          502: CardErrorWithTxid,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const key = IdempotencyKeySchema.safeParse(request.headers['idempotency-key']);
      if (!key.success)
        throw badRequest(
          'Envie o cabeçalho Idempotency-Key (de 1 a 100 caracteres) com um valor novo a cada tentativa de pagamento.',
          'idempotency_key_invalida',
        );
      const b = request.body;
      const paid = await payments.chargeCard(user, {
        paymentToken: b.payment_token,
        installments: b.installments,
        claimedTotalCents: reaisToCents(b.total),
        idempotencyKey: key.data,
        customer: { name: b.name, cpf: b.cpf, email: b.email, phone: b.phone ?? '', birth: b.birth },
        ...(b.produto ? { productName: b.produto } : {}),
        ...purposeOf(b),
      });
      return reply.status(paid.status === 'paid' ? 200 : 202).send({
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
        txid: paid.txid,
      });
    },
  );

  app.post(
    '/api/confirmar-gratuito/',
    {
      config: { limit: limited('free'), auth: 'user' },
      schema: {
        tags: ['pagamentos'],
        summary:
          'Confirma sem pagamento uma inscrição ou um pedido de total zero (corrida gratuita, meia-entrada de R$ 0,01, cupom que cobre tudo)',
        body: FreeConfirmRequestSchema,
        response: {
          201: FreeConfirmResponseSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: TotalErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const done = await payments.confirmFree({
        user,
        ...purposeOf(request.body),
        claimedTotalCents: reaisToCents(request.body.total),
      });
      return reply
        .status(201)
        .send({ txid: done.txid, status: 'CONCLUIDA', ...fulfilledField(done.purpose, done.fulfilledId) });
    },
  );

  app.get(
    '/api/pagamentos/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pagamentos'],
        summary: 'Pagamentos do usuário em análise, recusados ou devolvidos nos últimos 30 dias',
        response: { 200: PaymentListResponseSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => payments.listNoteworthy(await requireUser(request)),
  );

  app.get(
    '/api/parcelas/',
    {
      config: { limit: limited('installments') },
      schema: {
        tags: ['pagamentos'],
        summary: 'Parcelas possíveis para uma bandeira e um total em centavos',
        querystring: InstallmentsQuerySchema,
        response: {
          200: InstallmentsResponseSchema,
          400: ApiErrorSchema,
          429: ApiErrorSchema,
          502: ApiErrorSchema,
        },
      },
    },
    async (request) => ({
      installments: await payments.installments(request.query.brand, request.query.total),
    }),
  );

  const webhookSchema = {
    tags: ['pagamentos'],
    summary:
      'Notificações de Pix recebidos (Efí); exige mTLS, ou o segredo do webhook vindo de um endereço da Efí',
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
        const items = request.body.pix ?? [];
        const txids = items.flatMap((p) => (p.txid ? [p.txid] : []));
        // A refund moving at the payer's bank comes as the Pix it returns, with its `devolucoes`.
        const refunded = items.flatMap((p) => (p.devolucoes?.length ? [p.endToEndId] : []));
        await payments.receivePixNotifications(txids, refunded);
        return {};
      },
    );
  }

  app.post(
    '/api/webhooks/cartao/',
    {
      schema: {
        tags: ['pagamentos'],
        summary:
          'Notificação de cartão da Efí (um token); o servidor lê a notificação na Efí e age pelo último status',
        body: CardNotificationSchema,
        response: { 200: z.object({}), 400: ApiErrorSchema },
      },
    },
    async (request) => {
      try {
        await payments.receiveCardNotification(request.body.notification);
      } catch (err) {
        // An unknown token is the caller's mistake; anything else is ours, and Efí will deliver again.
        if (err instanceof PaymentProviderError && err.status === 404)
          throw badRequest('Notificação desconhecida.', 'notificacao_desconhecida');
        throw err;
      }
      return {};
    },
  );

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
      config: { limit: limited('card-token') },
      schema: {
        tags: ['simulador'],
        summary: 'Simulado: tokeniza um cartão como a biblioteca da Efí (mesmas validações)',
        body: CardTokenRequestSchema,
        response: { 200: CardTokenResponseSchema, 400: CardErrorSchema, 429: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const result = simulator.tokenizeCard(request.body, app.now());
      if (!result.ok) return reply.status(400).send(result.error);
      return result.value;
    },
  );
};
