import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authTokens, charges, users } from '../../db/schema/index.ts';
import type { ChargePurposeHandler, ChargeRow } from '../../modules/payments/payments.service.ts';
import { type AuthUser, hashToken } from '../../plugins/auth.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';

/** A user with a live token written straight to the tables, so these tests do not depend on sign-up. */
export async function makeUser(app: FastifyInstance) {
  const { db, now } = app;
  const name = `pagador_${randomBytes(4).toString('hex')}`;
  const [user] = await db
    .insert(users)
    .values({ username: name, email: `${name}@example.com`, fullName: 'Pagador Teste', passwordHash: 'x' })
    .returning();
  const token = randomBytes(32).toString('base64url');
  await db.insert(authTokens).values({
    userId: user!.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(now().getTime() + 86_400_000),
  });
  return { id: user!.id, headers: { authorization: `Token ${token}` } };
}

const FakeDraftSchema = z.object({ quantity: z.number().int().min(1) });
type FakeDraft = z.infer<typeof FakeDraftSchema>;

/**
 * Stands in for the orders or registrations module: prices a draft at `unitCents` each from its own
 * data, holds units from a tiny stock, and records every fulfilment so tests can count them.
 */
export function makeFakePurpose(opts: { unitCents: number; stock: number }) {
  const state = {
    stock: opts.stock,
    held: new Map<number, number>(),
    fulfilCalls: 0,
    releaseCalls: 0,
    fulfilled: [] as Array<{ id: number; chargeId: number; amountCents: number; userId: number | null }>,
    preparedFor: [] as AuthUser[],
  };
  const handler: ChargePurposeHandler<FakeDraft> = {
    async prepare(_tx, { user, draft }) {
      const parsed = FakeDraftSchema.safeParse(draft);
      if (!parsed.success) throw badRequest('Rascunho inválido.', 'validation_error');
      state.preparedFor.push(user);
      return {
        amountCents: opts.unitCents * parsed.data.quantity,
        description: 'Pedido de teste',
        draft: parsed.data,
      };
    },
    async reserve(_tx, chargeId, draft) {
      if (state.stock < draft.quantity) throw conflict('Produto esgotado.', 'esgotado');
      state.stock -= draft.quantity;
      state.held.set(chargeId, draft.quantity);
    },
    async release(_tx, chargeId) {
      state.releaseCalls += 1;
      state.stock += state.held.get(chargeId) ?? 0;
      state.held.delete(chargeId);
    },
    async fulfil(_tx, charge: ChargeRow) {
      state.fulfilCalls += 1;
      if (state.fulfilled.some((f) => f.chargeId === charge.id)) throw new Error('fulfilled twice');
      const id = 1000 + state.fulfilled.length;
      state.fulfilled.push({
        id,
        chargeId: charge.id,
        amountCents: charge.amountCents,
        userId: charge.userId,
      });
      state.held.delete(charge.id);
      return { id };
    },
    async fulfilledBy(_db, chargeId) {
      const f = state.fulfilled.find((x) => x.chargeId === chargeId);
      return f ? { id: f.id } : null;
    },
    payer: () => ({ name: 'Pagador Teste', email: 'pagador.teste@example.com', page: '/user/pedidos' }),
  };
  return { handler, state };
}

/** The charge row behind a txid, as stored. */
export async function chargeByTxid(app: FastifyInstance, txid: string): Promise<ChargeRow | undefined> {
  return (await app.db.select().from(charges).where(eq(charges.txid, txid)))[0];
}

/** A Pix for `quantity` units of the fake purpose at R$ 50,00 each, as the checkout asks for it. */
export function orderPix(app: FastifyInstance, headers: Record<string, string>, quantity: number) {
  return app.inject({
    method: 'POST',
    url: '/api/pagar-pix/',
    headers,
    payload: { total: 50 * quantity, finalidade: 'pedido', pedido: { quantity } },
  });
}

/** The payer pays the Pix at the (simulated) bank; confirmation follows the webhook's path. */
export function simulatePixPaid(app: FastifyInstance, txid: string) {
  return app.inject({ method: 'POST', url: `/api/simulador/pix/${txid}/pagar` });
}

/**
 * Runs `fn` while the shop's removal of an open Pix has not reached the bank yet: the job that removes it
 * (`charges.remove`, woken as soon as the charge ends) waits at the provider until `fn` is done. A payment
 * made inside `fn` is one the payer's bank settled before the removal arrived.
 */
export async function removalDelayed<T>(app: FastifyInstance, fn: () => Promise<T>): Promise<T> {
  const provider = app.providers.payments;
  const cancelPix = provider.cancelPix;
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  provider.cancelPix = async (txid) => {
    await arrived;
    return cancelPix.call(provider, txid);
  };
  try {
    return await fn();
  } finally {
    provider.cancelPix = cancelPix;
    arrive();
  }
}

/** Tokenizes a card in the simulated provider as the browser does; `extra` overrides any field. */
export function tokenizeCard(
  app: FastifyInstance,
  card: { number: string; holderName: string; holderDocument: string },
  extra: Record<string, unknown> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/simulador/cartao/token',
    payload: {
      brand: 'visa',
      cvv: '123',
      expirationMonth: '12',
      expirationYear: '2030',
      reuse: false,
      ...card,
      ...extra,
    },
  });
}

/** A card token the simulated provider accepts (fails the test when it refuses). */
export async function cardToken(
  app: FastifyInstance,
  card: { number: string; holderName: string; holderDocument: string },
): Promise<string> {
  const res = await tokenizeCard(app, card);
  if (res.statusCode !== 200) throw new Error(`tokenize failed: ${res.statusCode} ${res.body}`);
  return res.json<{ payment_token: string }>().payment_token;
}

/**
 * A Pix's removal racing its payment: while `expire` runs (the clock moved past the deadline and our
 * expiry asked for), the provider answers the removal as done, yet the payer's bank keeps the charge.
 * The shop gives its places back; the payment lands later.
 */
export async function removalRacingAPayment(app: FastifyInstance, expire: () => Promise<unknown>) {
  const provider = app.providers.payments;
  const cancelPix = provider.cancelPix;
  provider.cancelPix = async (id) => ({
    ...(await provider.getPix(id)),
    status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  });
  try {
    await expire();
  } finally {
    provider.cancelPix = cancelPix;
  }
}
