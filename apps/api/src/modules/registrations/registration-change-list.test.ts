import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { charges, registrationChanges, registrations } from '../../db/schema/index.ts';
import { readOutbox, waitForMail } from '../../test/factories/accounts.ts';
import { kitLeft, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import {
  cpfFrom,
  participant,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { participantLinkToken } from './participant-link.ts';

const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const APPROVED_CARD = '4111111111111111';

/**
 * A list of changes with money (docs/decisions/0056, later): the list's fees and differences reckoned
 * once, one charge for what is due (the list applied at its payment, every rule asked again) or one
 * refund for what comes back, never above what was paid; all or nothing.
 */
describe('a list of changes with money', () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let cpfSeq = 541_000_000;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
  });

  const db = () => t.app.db;
  const request = (
    method: 'GET' | 'POST' | 'PUT',
    who: { headers: Record<string, string> } | null,
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  /** 5 km R$ 50, 10 km R$ 80 (the last place), 3 km R$ 30; shirts M (10) and G (the last one). */
  const newEvent = (name: string) =>
    makeEvent(db(), {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [
        [
          { name: '5 km', priceCents: 5000, placesLeft: 10 },
          { name: '10 km', priceCents: 8000, placesLeft: 1 },
          { name: '3 km', priceCents: 3000, placesLeft: 10 },
        ],
      ],
      kitSizes: [
        { size: 'M', left: 10 },
        { size: 'G', left: 1 },
      ],
    });
  const cats = (e: MadeEvent) => e.days[0]!.categories.map((c) => c.id) as [number, number, number];
  const sizes = (e: MadeEvent) => e.kitSizes!.map((k) => k.id) as [number, number];

  async function paidRegistration(event: MadeEvent) {
    const draft = participant(event, [cats(event)[0]], {
      cpf: cpfFrom(cpfSeq++),
      email: `lista.${cpfSeq}@example.com`,
      tamanho_camisa: sizes(event)[0],
    });
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: 50,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    return { draft, id: paid.json().inscricao_id as number };
  }

  async function saveRules(event: MadeEvent, changes: Record<string, unknown>) {
    const url = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...body } = (await request('GET', admin, url)).json();
    expect((await request('PUT', admin, url, { ...body, ...changes })).statusCode).toBe(200);
  }

  const changesOf = (id: number) =>
    db().select().from(registrationChanges).where(eq(registrationChanges.registrationId, id));
  const registration = async (id: number) =>
    (await db().select().from(registrations).where(eq(registrations.id, id)))[0]!;

  it('a dearer distance and a shirt: one quote, one card charge for both, the list applied when paid, one e-mail per change', async () => {
    const event = await newEvent('Corrida da Lista Paga');
    await saveRules(event, { troca_distancia_taxa: 5 });
    const [five, ten] = cats(event);
    const [, g] = sizes(event);
    const { draft, id } = await paidRegistration(event);
    const operacoes = [
      { tipo: 'distancia', categoria_id: ten },
      { tipo: 'camiseta', tamanho: g },
    ];

    const quote = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/cotacao/`, { operacoes });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toEqual({
      permitido: true,
      motivo: null,
      taxa: 5,
      diferenca: 30,
      a_pagar: 35,
      a_devolver: 0,
    });
    // The quote took nothing: the last place and the last G are still there.
    expect(await placesLeft(db(), ten)).toBe(1);
    expect(await kitLeft(db(), g)).toBe(1);
    expect(await changesOf(id)).toEqual([]);

    // Confirmed without paying: refused, nothing written.
    const direct = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/`, { operacoes });
    expect(direct.statusCode).toBe(409);
    expect(direct.json()).toMatchObject({ code: 'pagamento_necessario', a_pagar: 35 });
    expect(await changesOf(id)).toEqual([]);

    // A lower total is refused: the amount is the server's.
    const cheap = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: { alteracoes: { inscricao: id, operacoes } },
      total: 30,
      user: buyer,
      key: randomUUID(),
    });
    expect(cheap.statusCode).toBe(409);

    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: { alteracoes: { inscricao: id, operacoes } },
      total: 35,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ inscricao_id: id });
    expect(await placesLeft(db(), ten)).toBe(0);
    expect(await placesLeft(db(), five)).toBe(10);
    expect(await kitLeft(db(), g)).toBe(0);
    expect(await registration(id)).toMatchObject({ kitSize: 'G' });
    const history = await changesOf(id);
    expect(history.map((c) => c.kind).sort()).toEqual(['troca_distancia', 'troca_tamanho']);
    const distance = history.find((c) => c.kind === 'troca_distancia')!;
    expect(distance).toMatchObject({
      feeCents: 3500,
      detail: { de: five, para: ten, diferenca_cents: 3000 },
    });
    const chargeId = (distance.detail as { cobranca: number }).cobranca;
    const [charge] = await db().select().from(charges).where(eq(charges.id, chargeId));
    expect(charge).toMatchObject({ amountCents: 3500, status: 'CONCLUIDA' });
    // The card says what was paid: the 50,00 of the sale and the 35,00 of the list.
    expect(
      (await request('GET', buyer, '/api/inscricoes/')).json().find((r: { id: number }) => r.id === id),
    ).toMatchObject({ total: 85, categoria_evento_detalhes: [{ id: ten }] });

    await waitForMail(t.dataDir, draft.email, 'foi trocado de M para G');
    await waitForMail(t.dataDir, draft.email, 'foi trocada para 10 km');
    const toParticipant = readOutbox(t.dataDir).filter(
      (m) => m.includes(draft.email) && m.includes(`inscrição nº ${id} alterada`),
    );
    expect(toParticipant).toHaveLength(2);

    // Paying it again is refused: the registration is no longer what the list started from.
    const again = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: { alteracoes: { inscricao: id, operacoes } },
      total: 35,
      user: buyer,
      key: randomUUID(),
    });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    expect((await changesOf(id)).length).toBe(2);

    // A later cancel returns what both charges paid, never more.
    const back = (await request('GET', buyer, `/api/inscricoes/${id}/cancelamento/`)).json()
      .valor_devolvido as number;
    expect(back).toBeLessThanOrEqual(85);
  });

  it('a Pix for a list holds the new shirt: the last G refused to others while it is open, given back at expiry, the list completed when paid', async () => {
    const event = await newEvent('Corrida da Lista com Camisa Guardada');
    await saveRules(event, { troca_distancia_taxa: 5 });
    const [five, ten] = cats(event);
    const [m, g] = sizes(event);
    const first = await paidRegistration(event);
    const other = await paidRegistration(event);
    const operacoes = [
      { tipo: 'distancia', categoria_id: ten },
      { tipo: 'camiseta', tamanho: g },
    ];
    const listPix = () =>
      registrationPix(t.app, { alteracoes: { inscricao: first.id, operacoes } }, 35, buyer.headers);
    const pix = await listPix();
    expect(pix.statusCode, pix.body).toBe(201);
    // The Pix holds the new place and the last G while it waits.
    expect(await placesLeft(db(), ten)).toBe(0);
    expect(await kitLeft(db(), g)).toBe(0);
    // So neither another registration's change nor a new sale takes that G meanwhile.
    const size = await request('POST', buyer, `/api/inscricoes/${other.id}/alteracoes/`, {
      operacoes: [{ tipo: 'camiseta', tamanho: g }],
    });
    expect(size.statusCode, size.body).toBe(409);
    expect(size.json()).toMatchObject({ code: 'tamanho_esgotado' });
    // (Another account: a new charge of the same account would replace its open Pix.)
    const sale = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: participant(event, [five], {
        cpf: cpfFrom(cpfSeq++),
        email: `lista.${cpfSeq}@example.com`,
        tamanho_camisa: g,
      }),
      total: 50,
      user: await makeBuyer(t.app),
      key: randomUUID(),
    });
    expect(sale.statusCode, sale.body).toBe(409);
    expect(sale.json()).toMatchObject({ code: 'tamanho_esgotado' });

    // Left unpaid, the Pix expires and gives the place and the shirt back, once.
    t.clock = new Date(t.clock.getTime() + 31 * 60_000);
    await t.app.payments.expireDue();
    await t.app.payments.expireDue();
    expect(await placesLeft(db(), ten)).toBe(1);
    expect(await kitLeft(db(), g)).toBe(1);

    // A new Pix holds them again; paid, the list is applied with the shirt it held.
    const again = await listPix();
    expect(again.statusCode, again.body).toBe(201);
    expect(await kitLeft(db(), g)).toBe(0);
    const txid = again.json().txid as string;
    expect((await request('POST', null, `/api/simulador/pix/${txid}/pagar`)).statusCode).toBeLessThan(300);
    await expect
      .poll(async () => (await db().select().from(charges).where(eq(charges.txid, txid)))[0]?.status)
      .toBe('CONCLUIDA');
    expect(await registration(first.id)).toMatchObject({ kitSize: 'G' });
    expect((await changesOf(first.id)).map((c) => c.kind).sort()).toEqual([
      'troca_distancia',
      'troca_tamanho',
    ]);
    expect(await kitLeft(db(), g)).toBe(0);
    expect(await kitLeft(db(), m)).toBe(9);
    expect(await placesLeft(db(), ten)).toBe(0);
    expect(await placesLeft(db(), five)).toBe(9);
  });

  it('a cheaper distance and a shirt: one refund of the difference less the fee, as shown, never above what was paid', async () => {
    const event = await newEvent('Corrida da Lista Mais Barata');
    await saveRules(event, { troca_distancia_devolve_diferenca: true, troca_distancia_taxa: 2 });
    const [five, , three] = cats(event);
    const [, g] = sizes(event);
    const { id } = await paidRegistration(event);
    const operacoes = [
      { tipo: 'camiseta', tamanho: g },
      { tipo: 'distancia', categoria_id: three, de: five },
    ];
    const quote = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/cotacao/`, { operacoes });
    expect(quote.json()).toEqual({
      permitido: true,
      motivo: null,
      taxa: 2,
      diferenca: -20,
      a_pagar: 0,
      a_devolver: 18,
    });
    // Confirmed with another amount (an older quote): refused, nothing written or returned.
    const refundsBefore = t.app.providers.payments.simulator!.refunds().length;
    const stale = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/`, { operacoes });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'valor_divergente', a_devolver: 18 });
    expect(await changesOf(id)).toEqual([]);
    expect(await kitLeft(db(), g)).toBe(1);

    const done = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/`, {
      operacoes,
      a_devolver: 18,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({
      inscricao: id,
      categoria_evento: [three],
      categorias: ['3 km'],
      tamanho_camisa: 'G',
      a_devolver: 18,
      cancelada_em: null,
    });
    const sent = t.app.providers.payments.simulator!.refunds().slice(refundsBefore);
    expect(sent.map((r) => r.amountCents)).toEqual([1800]);
    const history = await changesOf(id);
    expect(history.find((c) => c.kind === 'troca_distancia')).toMatchObject({
      feeCents: 200,
      refundCents: 1800,
    });
    expect(history.find((c) => c.kind === 'troca_tamanho')).toMatchObject({ refundCents: 0 });
    // What is left to return is what was paid less what came back.
    const cancel = (await request('GET', buyer, `/api/inscricoes/${id}/cancelamento/`)).json();
    expect(cancel.valor_devolvido).toBeLessThanOrEqual(32);
  });

  it('through the participant’s link: the list quoted and paid by card from the runner’s own account', async () => {
    const event = await newEvent('Corrida da Lista Pelo Link');
    const [, ten] = cats(event);
    const [, g] = sizes(event);
    const { id } = await paidRegistration(event);
    const link = participantLinkToken(t.env.CHECKIN_TOKEN_SECRET, {
      registrationId: id,
      expiresAt: new Date(START.getTime() + 7 * 24 * 3_600_000),
      nonce: (await registration(id)).participantLinkNonce,
    });
    const runner = await makeBuyer(t.app);
    const operacoes = [
      { tipo: 'camiseta', tamanho: g },
      { tipo: 'distancia', categoria_id: ten },
    ];
    const quote = await request('POST', null, `/api/inscricoes/link/${link}/alteracoes/cotacao/`, {
      operacoes,
    });
    expect(quote.json()).toMatchObject({ permitido: true, a_pagar: 30 });
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: { alteracoes: { link, inscricao: id + 999, operacoes } },
      total: 30,
      user: runner,
      key: randomUUID(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const view = (await request('GET', null, `/api/inscricoes/link/${link}/`)).json();
    expect(view).toMatchObject({ categoria_evento: [ten], tamanho_camisa: 'G' });
    const history = await changesOf(id);
    expect(history.map((c) => c.actor)).toEqual(['participante', 'participante']);
    const chargeId = (history.find((c) => c.kind === 'troca_distancia')!.detail as { cobranca: number })
      .cobranca;
    const [charge] = await db().select().from(charges).where(eq(charges.id, chargeId));
    expect(charge).toMatchObject({ userId: runner.id, amountCents: 3000 });
  });

  describe('a transfer or a cancellation inside a list', () => {
    it('a cancellation is the only operation of its list; alone it cancels and returns what its quote showed', async () => {
      const event = await newEvent('Corrida da Lista Cancelada');
      const [, , three] = cats(event);
      const { id } = await paidRegistration(event);
      const mixed = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/`, {
        operacoes: [
          { tipo: 'distancia', categoria_id: three },
          { tipo: 'cancelamento', valor_devolvido: 0 },
        ],
      });
      expect(mixed.statusCode).toBe(409);
      expect(mixed.json()).toMatchObject({ code: 'cancelamento_sozinho' });
      expect(await changesOf(id)).toEqual([]);
      expect(await registration(id)).toMatchObject({ cancelledAt: null });

      const operacoes = [{ tipo: 'cancelamento', valor_devolvido: 0 }];
      const quote = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/cotacao/`, { operacoes });
      expect(quote.json()).toMatchObject({ permitido: true, a_pagar: 0 });
      const back = quote.json().a_devolver as number;
      expect(back).toBeGreaterThan(0);
      expect(back).toBeLessThanOrEqual(50);
      const refundsBefore = t.app.providers.payments.simulator!.refunds().length;
      const done = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/`, {
        operacoes: [{ tipo: 'cancelamento', valor_devolvido: back }],
      });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({
        inscricao: id,
        a_devolver: back,
        cancelada_em: expect.any(String),
      });
      const sent = t.app.providers.payments.simulator!.refunds().slice(refundsBefore);
      expect(sent.reduce((sum, r) => sum + r.amountCents, 0)).toBe(Math.round(back * 100));
    });

    it('a transfer is asked after the list’s other changes, by its own rules; with something to pay, refused; one refused undoes the list', async () => {
      const event = await newEvent('Corrida da Lista Transferida');
      await saveRules(event, { troca_distancia_taxa: 5 });
      const [five, ten, three] = cats(event);
      const [, g] = sizes(event);
      const { draft, id } = await paidRegistration(event);
      const to = {
        nome_completo: 'Nina Nova Corredora',
        cpf: cpfFrom(cpfSeq++),
        email: `nina.${cpfSeq}@example.com`,
      };

      // A dearer distance before a transfer: the new runner would receive a place not yet paid for.
      const dearer = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/`, {
        operacoes: [
          { tipo: 'transferencia', ...to },
          { tipo: 'distancia', categoria_id: ten },
        ],
      });
      expect(dearer.statusCode).toBe(409);
      expect(dearer.json()).toMatchObject({ code: 'transferencia_com_pagamento' });
      expect(await placesLeft(db(), ten)).toBe(1);

      // The transfer's own rules refuse the holder's own CPF: the shirt before it is undone too.
      const own = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/`, {
        operacoes: [
          { tipo: 'camiseta', tamanho: g },
          { tipo: 'transferencia', ...to, cpf: draft.cpf },
        ],
      });
      expect(own.statusCode).toBe(400);
      expect(own.json()).toMatchObject({ code: 'mesmo_titular' });
      expect(await kitLeft(db(), g)).toBe(1);
      expect(await changesOf(id)).toEqual([]);

      // Written first, the transfer is still asked last: the shirt and the distance change, then the
      // invitation goes to the new runner for the registration as the list left it.
      const operacoes = [
        { tipo: 'transferencia', ...to },
        { tipo: 'camiseta', tamanho: g },
        { tipo: 'distancia', categoria_id: three },
      ];
      const quote = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/cotacao/`, { operacoes });
      expect(quote.json()).toMatchObject({ permitido: true, a_pagar: 0, a_devolver: 0 });
      const done = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/`, { operacoes });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({
        categoria_evento: [three],
        tamanho_camisa: 'G',
        cancelada_em: null,
        transferencia: { pendente: { nome_completo: to.nome_completo, email: to.email } },
      });
      expect(await placesLeft(db(), five)).toBe(10);
      await waitForMail(t.dataDir, to.email, '/inscricoes/transferencia/');
      expect(await placesLeft(db(), three)).toBe(9);
      // A second transfer while this one is pending: the transfer's own rule.
      const second = await request('POST', buyer, `/api/inscricoes/${id}/alteracoes/`, {
        operacoes: [{ tipo: 'transferencia', ...to, cpf: cpfFrom(cpfSeq++) }],
      });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ code: 'transferencia_pendente' });
    });
  });
});
