import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chargeRefunds, charges, registrations } from '../../db/schema/index.ts';
import { SIMULATED_PENDING_CARD } from '../../providers/payments/simulado.provider.ts';
import { readOutbox } from '../../test/factories/accounts.ts';
import { type MadeEvent, placesLeft } from '../../test/factories/events.ts';
import { chargeByTxid, removalDelayed, simulatePixPaid } from '../../test/factories/payments.ts';
import {
  APPROVED_CARD,
  paidRegistrationWorld,
  participant,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 10:00 in Fortaleza on 24 November 2026; the race starts on the 28th.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const CANCELLED_FIRST = 'A inscrição foi cancelada antes de o pagamento da transferência chegar.';

/**
 * What is still being paid for a registration when it is cancelled, or when its transfer is withdrawn
 * (docs/decisions/0060): the transfer waiting for the new runner ends, its payment is refused before
 * any charge, a card charged meanwhile is returned with its reason (not a provider error), and open
 * charges of a dearer distance or a transfer — card as well as Pix — end and give their place back.
 */
describe('open charges of a cancelled registration or a withdrawn transfer', () => {
  const t = useClockedTestApp(START);
  /** 5 km R$ 50 (10 places), 10 km R$ 80 (the last place). */
  const w = paidRegistrationWorld(t, { firstCpf: 561_000_000, email: 'aberta', today: TODAY, tenKPlaces: 1 });
  const { db, nextCpf, request, newEvent, cats, saveRules } = w;
  const paidRegistration = async (event: MadeEvent) => (await w.paidRegistration(event)).id;

  /** The holder names a new runner (R$ 10,00 fee); answers the new runner's data and the link's token. */
  async function transferTo(event: MadeEvent, id: number) {
    const cpf = nextCpf();
    const to = {
      nome_completo: 'Bia Nova Corredora',
      cpf,
      email: `nova.${cpf}@example.com`,
    };
    const asked = await request('POST', w.buyer, `/api/inscricoes/${id}/transferir/`, to);
    expect(asked.statusCode, asked.body).toBe(201);
    const token = readOutbox(t.dataDir)
      .filter((m) => m.includes(to.email))
      .at(-1)
      ?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeDefined();
    const draft = {
      ...participant(event, [cats(event)[0]], { ...to, data_nascimento: '1992-03-04' }),
      transferencia: token,
    };
    return { to, token: token!, draft };
  }

  const staffCancel = (id: number) =>
    request('POST', w.admin, `/api/painel/registrations/${id}/cancel/`, { motivo: 'Pedido do corredor' });

  const chargesOf = async (userId: number) =>
    (await db().select().from(charges).where(eq(charges.userId, userId))).length;

  it('a card paying for a transfer while staff cancel the registration is returned whole, refused in words', async () => {
    const event = await newEvent('Corrida do Cancelamento no Meio');
    await saveRules(event, { transferencia_taxa: 10 });
    const id = await paidRegistration(event);
    const { draft } = await transferTo(event, id);

    // Staff cancel while the card is with the provider: the charge was already made.
    const provider = t.app.providers.payments;
    const chargeCard = provider.chargeCard;
    provider.chargeCard = async (input) => {
      const cancelled = await staffCancel(id);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      return chargeCard.call(provider, input);
    };
    let paid: Awaited<ReturnType<typeof registrationCard>>;
    try {
      paid = await registrationCard(t.app, {
        number: APPROVED_CARD,
        draft,
        total: 10,
        user: w.friend,
        key: randomUUID(),
      });
    } finally {
      provider.chargeCard = chargeCard;
    }
    expect(paid.statusCode, paid.body).toBe(409);
    expect(paid.json()).toMatchObject({
      code: 'pagamento_devolvido',
      detail: `${CANCELLED_FIRST} O valor cobrado no cartão foi devolvido.`,
    });
    const charge = await chargeByTxid(t.app, paid.json().txid);
    expect(charge).toMatchObject({ status: 'DEVOLVIDA', reason: CANCELLED_FIRST, amountCents: 1000 });
    const refunds = await db().select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge!.id));
    expect(refunds).toEqual([expect.objectContaining({ amountCents: 1000, reason: CANCELLED_FIRST })]);
    // The registration stays the first runner's, cancelled.
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(row!.cancelledAt).not.toBeNull();
    expect(row!.fullName).not.toBe('Bia Nova Corredora');
  });

  it('a cancelled registration ends its pending transfer: the link says so and paying is refused before any charge', async () => {
    const event = await newEvent('Corrida da Transferência Encerrada');
    await saveRules(event, { transferencia_taxa: 10 });
    const id = await paidRegistration(event);
    const { token, draft } = await transferTo(event, id);
    expect((await staffCancel(id)).statusCode).toBe(200);

    expect((await request('GET', null, `/api/transferencias/${token}/`)).json()).toMatchObject({
      status: 'cancelada',
    });
    const before = await chargesOf(w.friend.id);
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: 10,
      user: w.friend,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toMatchObject({ code: 'inscricao_cancelada' });
    expect(paid.json().detail).toMatch(/cancelada/);
    expect(await chargesOf(w.friend.id)).toBe(before);
  });

  it("a dearer distance's card still pending at the provider ends with the registration: place back, a late approval returned", async () => {
    const event = await newEvent('Corrida do Cartão em Análise');
    await saveRules(event, { troca_distancia_taxa: 5 });
    const [five, ten] = cats(event);
    const id = await paidRegistration(event);
    const pending = await registrationCard(t.app, {
      number: SIMULATED_PENDING_CARD,
      draft: { troca_distancia: { inscricao: id, de: five, para: ten } },
      total: 35,
      user: w.buyer,
      key: randomUUID(),
    });
    expect(pending.statusCode, pending.body).toBe(202);
    const txid = pending.json().txid as string;
    expect(await chargeByTxid(t.app, txid)).toMatchObject({ status: 'EM_ANALISE' });
    expect(await placesLeft(db(), ten)).toBe(0);

    expect((await staffCancel(id)).statusCode).toBe(200);
    const reason = 'A inscrição foi cancelada antes de o pagamento da troca de distância chegar.';
    const ended = await chargeByTxid(t.app, txid);
    expect(ended).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', reason });
    // The last 10 km place is the public's again.
    expect(await placesLeft(db(), ten)).toBe(1);

    // The provider approves it after all: returned whole, with the reason.
    const sim = t.app.providers.payments.simulator!;
    const { notificationToken } = sim.settleCard(ended!.providerChargeId!, 'paid');
    const note = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/cartao/',
      payload: { notification: notificationToken },
    });
    expect(note.statusCode).toBe(200);
    const returned = await chargeByTxid(t.app, txid);
    expect(returned).toMatchObject({ status: 'DEVOLVIDA', reason });
    const refunds = await db().select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, returned!.id));
    expect(refunds).toEqual([expect.objectContaining({ amountCents: 3500, reason })]);
    expect(await placesLeft(db(), ten)).toBe(1);
  });

  it("a withdrawn transfer's open Pix ends with it, and paid anyway it is returned saying why", async () => {
    const event = await newEvent('Corrida da Transferência Desistida');
    await saveRules(event, { transferencia_taxa: 10 });
    const id = await paidRegistration(event);
    const { draft } = await transferTo(event, id);
    const pix = await registrationPix(t.app, draft, 10, w.friend.headers);
    expect(pix.statusCode, pix.body).toBe(201);
    const txid = pix.json().txid as string;

    const reason = 'A transferência foi cancelada por quem a pediu antes de o pagamento chegar.';
    await removalDelayed(t.app, async () => {
      const withdrawn = await request('POST', w.buyer, `/api/inscricoes/${id}/transferencia/cancelar/`);
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      expect(await chargeByTxid(t.app, txid)).toMatchObject({
        status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
        reason,
      });
      // Paid at the bank before the removal reached it: returned whole with the reason.
      await simulatePixPaid(t.app, txid);
    });
    const returned = await chargeByTxid(t.app, txid);
    expect(returned).toMatchObject({ status: 'DEVOLVIDA', reason });
  });
});
