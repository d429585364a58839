import { randomUUID } from 'node:crypto';
import { formatBRL } from '@passada/core/money';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { chargeRefunds, charges, paymentEvents, registrations } from '../../db/schema/index.ts';
import { readOutbox, waitForMail } from '../../test/factories/accounts.ts';
import { createCoupon } from '../../test/factories/coupons.ts';
import { kitLeft, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { makeUser, removalDelayed } from '../../test/factories/payments.ts';
import { paidRegistrationWorld, participant, registrationCard } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { participantLinkToken } from './participant-link.ts';

// 10:00 in Fortaleza on 24 November 2026; the race starts on the 28th, registrations close on the 27th.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const APPROVED_CARD = '4111111111111111';
const MINUTE = 60_000;
const at = (minutes: number) => new Date(START.getTime() + minutes * MINUTE);

type Who = { headers: Record<string, string> };

/**
 * The change manager (docs/decisions/0056): every change to a sold registration runs the rules of a new
 * sale — the lottery's result and category, the waitlist's held offers — and prices its money from what
 * was really paid; each change of distance or shirt is e-mailed.
 */
describe('changes to a sold registration run the rules of a new sale', () => {
  const t = useClockedTestApp(START, { env: { LOG_LEVEL: 'error' } });
  const w = paidRegistrationWorld(t, { firstCpf: 561_000_000, email: 'troca', today: TODAY });
  const { db, nextCpf, request, saveRules } = w;

  const cats = (e: MadeEvent) => e.days[0]!.categories.map((c) => c.id);

  async function pay(
    event: MadeEvent,
    category: number,
    total: number,
    extra: Record<string, unknown> = {},
    who: { email: string; headers: Record<string, string> } = w.buyer,
  ) {
    const cpf = (extra.cpf as string | undefined) ?? nextCpf();
    const draft = participant(event, [category], { cpf, email: `troca.${cpf}@example.com`, ...extra });
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total,
      user: who,
      key: randomUUID(),
    });
    return { res: paid, cpf, email: draft.email as string, id: paid.json().inscricao_id as number };
  }

  /** The holder invites `to` to take the registration over; the token of the link mailed to them. */
  async function inviteTransfer(registrationId: number, to: { email: string }) {
    const invited = await request('POST', w.buyer, `/api/inscricoes/${registrationId}/transferir/`, to);
    expect(invited.statusCode, invited.body).toBe(201);
    const token = readOutbox(t.dataDir)
      .filter((mail) => mail.includes(to.email))
      .at(-1)
      ?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeDefined();
    return token!;
  }

  /** The new runner's Pix for the transfer's fee, created by `who`. */
  function transferPix(
    who: Who,
    event: MadeEvent,
    to: Record<string, unknown>,
    token: string,
    total: number,
  ) {
    return request('POST', who, '/api/pagar-pix/', {
      total,
      descricao: 'Transferência',
      finalidade: 'inscricao',
      inscricao: { ...participant(event, cats(event), { ...to }), transferencia: token },
    });
  }

  describe('a lottery event', () => {
    let event: MadeEvent;
    let tenK: number;
    let fiveK: number;
    const winner = { cpf: '', email: 'vencedora.sorteio@example.com' };
    const loser = { cpf: '', email: 'perdedor.sorteio@example.com' };

    /** One place in the 10 km is drawn; two runners enter it; the winner pays. */
    beforeAll(async () => {
      event = await makeEvent(db(), {
        name: 'Corrida do Sorteio Transferido',
        today: TODAY,
        startDate: '2026-11-28',
        registrationDeadline: '2026-11-27',
        days: [
          [
            { name: '10 km', priceCents: 5000, placesLeft: 1 },
            { name: '5 km', priceCents: 4000, placesLeft: 50 },
          ],
        ],
      });
      [tenK, fiveK] = cats(event) as [number, number];
      const saved = await request('PUT', w.admin, `/api/painel/events/${event.id}/abertura/`, {
        modo: 'sorteio',
        abre_em: at(10).toISOString(),
        pre_fila_minutos: 0,
        admitidos_por_minuto: null,
        minutos_da_vez: 15,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: 4,
        sorteio: {
          inscricoes_de: at(10).toISOString(),
          inscricoes_ate: at(60).toISOString(),
          vagas: 1,
          horas_para_pagar: 48,
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      t.clock = at(10);
      const staffPost = (path: string) =>
        request('POST', w.admin, `/api/painel/events/${event.id}/sorteio/${path}/`);
      expect((await staffPost('compromisso')).statusCode).toBe(200);
      const entrants: Array<Who & { id: number; cpf: string; email: string }> = [];
      for (const person of [winner, loser]) {
        const user = await makeUser(t.app);
        person.cpf = nextCpf();
        entrants.push({ ...user, cpf: person.cpf, email: person.email });
        const entered = await request('POST', user, `/api/events/${event.id}/sorteio/`, {
          nome_completo: `Corredor ${user.id}`,
          cpf: person.cpf,
          email: person.email,
          data_nascimento: '1990-05-10',
          categoria: tenK,
        });
        expect(entered.statusCode, entered.body).toBe(201);
      }
      t.clock = at(60);
      expect((await staffPost('sortear')).statusCode).toBe(200);
      // Whoever the seed drew is the winner of this test.
      const mine = await Promise.all(
        entrants.map(async (r) => ({
          r,
          entries: (await request('GET', r, `/api/events/${event.id}/sorteio/minhas/`)).json(),
        })),
      );
      const won = mine.find((m) => m.entries[0]?.estado === 'sorteado')!;
      const lost = mine.find((m) => m !== won)!;
      expect(won, JSON.stringify(mine)).toBeDefined();
      Object.assign(winner, { cpf: won.r.cpf, email: won.r.email });
      Object.assign(loser, { cpf: lost.r.cpf, email: lost.r.email });
    });

    it('a transfer to a CPF the draw did not pick is refused, and so is a change to another distance', async () => {
      const paid = await pay(event, tenK, 50, { cpf: winner.cpf, email: winner.email });
      expect(paid.res.statusCode, paid.res.body).toBe(200);

      // The loser's CPF was not drawn: the holder cannot hand the place to it.
      const toLoser = await request('POST', w.buyer, `/api/inscricoes/${paid.id}/transferir/`, {
        nome_completo: 'Perdedor do Sorteio',
        cpf: loser.cpf,
        email: 'perdedor.novo@example.com',
      });
      expect(toLoser.statusCode, toLoser.body).toBe(409);
      expect(toLoser.json().code).toBe('nao_sorteado');
      // Nor to a CPF that never entered.
      const toStranger = await request('POST', w.buyer, `/api/inscricoes/${paid.id}/transferir/`, {
        nome_completo: 'Pessoa de Fora',
        cpf: nextCpf(),
        email: 'de.fora@example.com',
      });
      expect(toStranger.statusCode).toBe(409);
      expect(toStranger.json().code).toBe('nao_sorteado');

      // The place drawn is in the 10 km: the 5 km (free, cheaper) is refused by the draw's category rule.
      const quote = await request(
        'GET',
        w.buyer,
        `/api/inscricoes/${paid.id}/troca-distancia/?de=${tenK}&para=${fiveK}`,
      );
      expect(quote.json()).toMatchObject({ permitido: false, motivo: expect.stringMatching(/sorteada/) });
      const change = await request('POST', w.buyer, `/api/inscricoes/${paid.id}/trocar-distancia/`, {
        de: tenK,
        para: fiveK,
        a_devolver: 0,
      });
      expect(change.statusCode).toBe(409);
      expect(change.json().code).toBe('categoria_do_sorteio');
      const [row] = await db().select().from(registrations).where(eq(registrations.id, paid.id));
      expect(row!.cpf).toBe(winner.cpf);
    });
  });

  describe('a place held for the waitlist', () => {
    /** "5 km" R$ 89,90 with one place and a waitlist; "10 km" R$ 109,90 and "3 km" R$ 59,90 with places. */
    async function heldOffer(name: string) {
      const event = await makeEvent(db(), {
        name,
        today: TODAY,
        startDate: '2026-11-28',
        registrationDeadline: '2026-11-27',
        days: [
          [
            { name: '5 km', priceCents: 8990, placesLeft: 1 },
            { name: '10 km', priceCents: 10990, placesLeft: 50 },
            { name: '3 km', priceCents: 5990, placesLeft: 50 },
          ],
        ],
      });
      const [five] = cats(event) as [number];
      await saveRules(event, { lista_espera_categorias: [five] });
      const first = await pay(event, five, 89.9);
      expect(first.res.statusCode).toBe(200);
      const cpf = nextCpf();
      const bia = { nome_completo: 'Bia Da Fila', cpf, email: `bia.${cpf}@example.com` };
      expect(
        (await request('POST', null, `/api/events/${event.id}/lista-espera/`, { categoria: five, ...bia }))
          .statusCode,
      ).toBe(201);
      // Staff cancel the only registration: the place is offered to Bia and held for her.
      const cancelled = await request('POST', w.admin, `/api/painel/registrations/${first.id}/cancel/`, {
        motivo: 'desistiu',
      });
      expect(cancelled.statusCode).toBe(200);
      const offer = await waitForMail(t.dataDir, bia.email, 'está reservada para você');
      const token = /lista-espera\/(\d+-[0-9a-f]{32}-[A-Za-z0-9_-]{22})/.exec(offer)![1]!;
      expect(await placesLeft(db(), five)).toBe(1);
      return { event, bia, token };
    }

    /** Bia, holding the offer, registers and pays. */
    const biaPays = (event: MadeEvent, bia: { cpf: string }, token: string) =>
      pay(event, cats(event)[0]!, 89.9, { ...bia, oferta_espera: token });

    it('a cheaper change of distance into it is refused, and the offer holder still gets it', async () => {
      const { event, bia, token } = await heldOffer('Corrida da Vaga Guardada');
      const [five, ten] = cats(event) as [number, number];
      const other = await pay(event, ten, 109.9);
      expect(other.res.statusCode).toBe(200);
      const quote = await request(
        'GET',
        w.buyer,
        `/api/inscricoes/${other.id}/troca-distancia/?de=${ten}&para=${five}`,
      );
      expect(quote.json()).toMatchObject({ permitido: false });
      const change = await request('POST', w.buyer, `/api/inscricoes/${other.id}/trocar-distancia/`, {
        de: ten,
        para: five,
        a_devolver: 0,
      });
      expect(change.statusCode).toBe(409);
      const taken = await biaPays(event, bia, token);
      expect(taken.res.statusCode, taken.res.body).toBe(200);
    });

    it('a dearer change of distance into it (paid) is refused, and the offer holder still gets it', async () => {
      const { event, bia, token } = await heldOffer('Corrida da Vaga Guardada Paga');
      const [five, , three] = cats(event) as [number, number, number];
      const other = await pay(event, three, 59.9);
      expect(other.res.statusCode).toBe(200);
      const change = await registrationCard(t.app, {
        number: APPROVED_CARD,
        draft: { troca_distancia: { inscricao: other.id, de: three, para: five } },
        total: 30,
        user: w.buyer,
        key: randomUUID(),
      });
      expect(change.statusCode).toBe(409);
      const taken = await biaPays(event, bia, token);
      expect(taken.res.statusCode, taken.res.body).toBe(200);
    });
  });

  describe('the money of a cheaper distance', () => {
    /** "10 km" R$ 80 and "3 km" R$ 15; a cheaper distance returns the difference, less a fee. */
    async function refundingEvent(name: string, feeReais: number) {
      const event = await makeEvent(db(), {
        name,
        today: TODAY,
        startDate: '2026-11-28',
        registrationDeadline: '2026-11-27',
        days: [
          [
            { name: '10 km', priceCents: 8000, placesLeft: 10 },
            { name: '3 km', priceCents: 1500, placesLeft: 10 },
          ],
        ],
      });
      await saveRules(event, { troca_distancia_devolve_diferenca: true, troca_distancia_taxa: feeReais });
      return event;
    }
    const history = async (cpf: string, event: MadeEvent) =>
      (await request('GET', w.buyer, `/api/participantes/cpf/${cpf}/?evento=${event.id}`)).json()
        .historico as string[];

    it('never returns more than was paid: R$ 20,00 paid with a coupon gives back R$ 20,00, not R$ 65,00', async () => {
      const event = await refundingEvent('Corrida do Cupom Trocado', 0);
      const [ten, three] = cats(event) as [number, number];
      const coupon = await createCoupon(t.app, w.admin.headers, {
        tipo: 'fixo',
        valor: 60,
        escopo: 'corridas',
      });
      const paid = await pay(event, ten, 20, { cupom: coupon.codigo });
      expect(paid.res.statusCode, paid.res.body).toBe(200);
      const url = `/api/inscricoes/${paid.id}/troca-distancia/?de=${ten}&para=${three}`;
      expect((await request('GET', w.buyer, url)).json()).toMatchObject({
        permitido: true,
        diferenca: -65,
        a_devolver: 20,
      });
      const done = await request('POST', w.buyer, `/api/inscricoes/${paid.id}/trocar-distancia/`, {
        de: ten,
        para: three,
        a_devolver: 20,
      });
      expect(done.statusCode, done.body).toBe(200);
      const refunds = await db().select().from(chargeRefunds);
      expect(refunds.filter((r) => r.amountCents === 2000).length).toBeGreaterThan(0);
      expect(await history(paid.cpf, event)).toEqual([expect.stringMatching(/devolvido R\$\s20,00\)\.$/)]);
    });

    it('a fee kept out of the refund reads "retido", and a registration a coupon paid whole gets nothing back', async () => {
      const event = await refundingEvent('Corrida da Taxa Retida', 10);
      const [ten, three] = cats(event) as [number, number];
      const paid = await pay(event, ten, 80);
      expect(paid.res.statusCode).toBe(200);
      const done = await request('POST', w.buyer, `/api/inscricoes/${paid.id}/trocar-distancia/`, {
        de: ten,
        para: three,
        a_devolver: 55,
      });
      expect(done.statusCode, done.body).toBe(200);
      const line = (await history(paid.cpf, event))[0]!;
      expect(line).toMatch(/retido R\$\s10,00, devolvido R\$\s55,00/);
      expect(line).not.toMatch(/pago/);

      // A coupon paid it whole: nothing was paid, so nothing comes back and no fee was "paid".
      const coupon = await createCoupon(t.app, w.admin.headers, {
        tipo: 'fixo',
        valor: 80,
        escopo: 'corridas',
      });
      const cpf = nextCpf();
      const draft = participant(event, [ten], {
        cpf,
        email: `cupom.total.${cpf}@example.com`,
        cupom: coupon.codigo,
      });
      const free = await request('POST', w.buyer, '/api/confirmar-gratuito/', {
        total: 0,
        finalidade: 'inscricao',
        inscricao: draft,
      });
      expect(free.statusCode, free.body).toBe(201);
      const freeId = free.json().inscricao_id as number;
      const url = `/api/inscricoes/${freeId}/troca-distancia/?de=${ten}&para=${three}`;
      expect((await request('GET', w.buyer, url)).json()).toMatchObject({ permitido: true, a_devolver: 0 });
      const changed = await request('POST', w.buyer, `/api/inscricoes/${freeId}/trocar-distancia/`, {
        de: ten,
        para: three,
        a_devolver: 0,
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ a_devolver: 0 });
      expect(await history(draft.cpf as string, event)).toEqual([
        expect.not.stringMatching(/pago|devolvido/),
      ]);
    });
  });

  it('a change of shirt size and of distance each send the participant an e-mail', async () => {
    const event = await makeEvent(db(), {
      name: 'Corrida das Trocas Avisadas',
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [
        [
          { name: '5 km', priceCents: 5000, placesLeft: 10 },
          { name: '3 km', priceCents: 5000, placesLeft: 10 },
        ],
      ],
      kitSizes: [
        { size: 'M', left: 10 },
        { size: 'G', left: 10 },
      ],
    });
    const [five, three] = cats(event) as [number, number];
    const paid = await pay(event, five, 50, { tamanho_camisa: event.kitSizes![0]!.id });
    expect(paid.res.statusCode).toBe(200);
    const size = await request('POST', w.buyer, `/api/inscricoes/${paid.id}/trocar-tamanho/`, {
      tamanho_camisa: event.kitSizes![1]!.id,
    });
    expect(size.statusCode, size.body).toBe(200);
    await waitForMail(t.dataDir, paid.email, 'foi trocado de M para G');
    const distance = await request('POST', w.buyer, `/api/inscricoes/${paid.id}/trocar-distancia/`, {
      de: five,
      para: three,
      a_devolver: 0,
    });
    expect(distance.statusCode, distance.body).toBe(200);
    await waitForMail(t.dataDir, paid.email, 'foi trocada para 3 km');
    // One e-mail per change, to the participant and to the buying account.
    const toParticipant = readOutbox(t.dataDir).filter(
      (m) => m.includes(paid.email) && m.includes(`inscrição nº ${paid.id} alterada`),
    );
    expect(toParticipant).toHaveLength(2);
  });

  describe('an open Pix of a dearer distance ends with the registration', () => {
    /** "5 km" R$ 40 paid; a Pix opened for "10 km" R$ 50, its only place held by it. */
    async function dearerPix(name: string) {
      const event = await makeEvent(db(), {
        name,
        today: TODAY,
        startDate: '2026-11-28',
        registrationDeadline: '2026-11-27',
        days: [
          [
            { name: '5 km', priceCents: 4000, placesLeft: 10 },
            { name: '10 km', priceCents: 5000, placesLeft: 1 },
          ],
        ],
      });
      const [five, ten] = cats(event) as [number, number];
      const paid = await pay(event, five, 40);
      expect(paid.res.statusCode, paid.res.body).toBe(200);
      const quote = (
        await request('GET', w.buyer, `/api/inscricoes/${paid.id}/troca-distancia/?de=${five}&para=${ten}`)
      ).json();
      expect(quote).toMatchObject({ permitido: true });
      const pix = await request('POST', w.buyer, '/api/pagar-pix/', {
        total: quote.a_pagar,
        descricao: 'Troca de distância',
        finalidade: 'inscricao',
        inscricao: { troca_distancia: { inscricao: paid.id, de: five, para: ten } },
      });
      expect(pix.statusCode, pix.body).toBe(201);
      expect(await placesLeft(db(), ten)).toBe(0);
      const txid = pix.json().txid as string;
      const chargeOf = async () => (await db().select().from(charges).where(eq(charges.txid, txid)))[0]!;
      return { paid, ten, txid, chargeOf, dueCents: Math.round(quote.a_pagar * 100) };
    }

    it('the runner cancels: the Pix is removed at the bank, its place given back, and it cannot be paid', async () => {
      const { paid, ten, txid, chargeOf } = await dearerPix('Corrida do Pix Encerrado');
      const quote = (await request('GET', w.buyer, `/api/inscricoes/${paid.id}/cancelamento/`)).json();
      const done = await request('POST', w.buyer, `/api/inscricoes/${paid.id}/cancelar/`, {
        valor_devolvido: quote.valor_devolvido,
      });
      expect(done.statusCode, done.body).toBe(200);
      expect(await placesLeft(db(), ten)).toBe(1);
      const charge = await chargeOf();
      expect(charge).toMatchObject({
        status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
        reason: expect.stringMatching(/cancelada antes de o pagamento da troca de distância/),
      });
      await vi.waitFor(
        async () => {
          const kinds = (
            await db().select().from(paymentEvents).where(eq(paymentEvents.chargeId, charge.id))
          ).map((e) => e.kind);
          expect(kinds).toContain('cancel:REMOVIDA_PELO_USUARIO_RECEBEDOR');
        },
        { timeout: 45_000, interval: 100 },
      );
      const late = await request('POST', null, `/api/simulador/pix/${txid}/pagar`);
      expect(late.statusCode).toBe(409);
      expect((await chargeOf()).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    });

    it('staff cancel after the bank took the payment: it is refunded whole, saying the registration was cancelled', async () => {
      const { paid, ten, txid, chargeOf, dueCents } = await dearerPix('Corrida do Pix Pago Tarde');
      // Paid at the bank, the news not yet here.
      t.app.providers.payments.simulator!.payPix(txid, t.clock);
      const cancelled = await request('POST', w.admin, `/api/painel/registrations/${paid.id}/cancel/`, {
        motivo: 'desistiu',
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      await vi.waitFor(async () => expect((await chargeOf()).status).toBe('DEVOLVIDA'), {
        timeout: 45_000,
        interval: 100,
      });
      const refunds = await db()
        .select()
        .from(chargeRefunds)
        .where(eq(chargeRefunds.chargeId, (await chargeOf()).id));
      expect(refunds).toEqual([
        expect.objectContaining({
          amountCents: dueCents,
          reason: 'A inscrição foi cancelada antes de o pagamento da troca de distância chegar.',
        }),
      ]);
      expect(await placesLeft(db(), ten)).toBe(1);
      const [row] = await db().select().from(registrations).where(eq(registrations.id, paid.id));
      expect(row!.cancelledAt).not.toBeNull();
    });
  });

  it('the runner’s cancel answers what really comes back, not R$ 0,00', async () => {
    const event = await makeEvent(db(), {
      name: 'Corrida do Cancelamento Dito',
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 10 }]],
    });
    const paid = await pay(event, cats(event)[0]!, 50);
    expect(paid.res.statusCode).toBe(200);
    const quote = (await request('GET', w.buyer, `/api/inscricoes/${paid.id}/cancelamento/`)).json();
    expect(quote).toMatchObject({ permitido: true, valor_devolvido: 50 });
    const done = await request('POST', w.buyer, `/api/inscricoes/${paid.id}/cancelar/`, {
      valor_devolvido: 50,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      permitido: false,
      valor_pago: 50,
      valor_devolvido: 50,
      valor_retido: 0,
    });
  });

  it('a transfer paid after the holder withdrew it is returned with that reason, not "a vaga já estava ocupada"', async () => {
    const event = await makeEvent(db(), {
      name: 'Corrida do Pix da Transferência Tardia',
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 10 }]],
    });
    await saveRules(event, { transferencia_taxa: 5 });
    const paid = await pay(event, cats(event)[0]!, 50);
    const cpf = nextCpf();
    const to = { nome_completo: 'Gil Atrasado', cpf, email: `gil.atrasado.${cpf}@example.com` };
    const token = await inviteTransfer(paid.id, to);
    const friend = await makeUser(t.app);
    const pix = await transferPix(friend, event, to, token, 5);
    expect(pix.statusCode, pix.body).toBe(201);
    // The friend's bank pays before the shop's removal of the Pix reaches it.
    await removalDelayed(t.app, async () => {
      expect(
        (await request('POST', w.buyer, `/api/inscricoes/${paid.id}/transferencia/cancelar/`)).statusCode,
      ).toBe(200);
      expect(
        (await request('POST', null, `/api/simulador/pix/${pix.json().txid}/pagar`)).statusCode,
      ).toBeLessThan(300);
    });
    expect((await request('GET', friend, `/api/status-pix/${pix.json().txid}/`)).json().status).toBe(
      'DEVOLVIDA',
    );
    const [charge] = await db().select().from(charges).where(eq(charges.txid, pix.json().txid));
    const refunds = await db().select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge!.id));
    expect(refunds).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/cancelada por quem a pediu/) }),
    ]);
  });

  /**
   * A registration of R$ 60,00 paid by the file's buyer, transferred for a R$ 70,00 fee to a new runner
   * who paid it by Pix: two payers of one registration.
   */
  async function transferredAndPaid(eventName: string, holderName: string) {
    const event = await makeEvent(db(), {
      name: eventName,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [[{ name: '5 km', priceCents: 6000, placesLeft: 10 }]],
    });
    await saveRules(event, { transferencia_taxa: 70 });
    const paid = await pay(event, cats(event)[0]!, 60);
    expect(paid.res.statusCode, paid.res.body).toBe(200);
    const cpf = nextCpf();
    const to = {
      nome_completo: holderName,
      cpf,
      email: `${holderName.split(' ')[0]!.toLowerCase()}.titular.${cpf}@example.com`,
    };
    const token = await inviteTransfer(paid.id, to);
    const holder = await makeUser(t.app);
    const pix = await transferPix(holder, event, to, token, 70);
    expect(pix.statusCode, pix.body).toBe(201);
    const settled = await request('POST', null, `/api/simulador/pix/${pix.json().txid}/pagar`);
    expect(settled.statusCode, settled.body).toBeLessThan(300);
    expect((await request('GET', holder, `/api/status-pix/${pix.json().txid}/`)).json().status).toBe(
      'CONCLUIDA',
    );
    return { event, paid, to, holder };
  }

  it('a transferred registration cancelled: the holder is told their part, the original payer theirs', async () => {
    const {
      paid,
      to,
      holder: rui,
    } = await transferredAndPaid('Corrida da Devolução Dividida', 'Rui Novo Titular');

    const quote = (await request('GET', rui, `/api/inscricoes/${paid.id}/cancelamento/`)).json();
    expect(quote).toMatchObject({ permitido: true, valor_pago: 130 });
    const done = await request('POST', rui, `/api/inscricoes/${paid.id}/cancelar/`, {
      valor_devolvido: quote.valor_devolvido,
    });
    expect(done.statusCode, done.body).toBe(200);
    // What went back to each charge, read from the refunds themselves.
    const [own] = await db()
      .select()
      .from(charges)
      .where(
        eq(
          charges.id,
          (await db().select().from(registrations).where(eq(registrations.id, paid.id)))[0]!.chargeId,
        ),
      );
    const toBuyer = (
      await db().select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, own!.id))
    ).reduce((sum, r) => sum + r.amountCents, 0);
    expect(toBuyer).toBeGreaterThan(0);
    const back = done.json();
    expect(back.valor_devolvido).toBe(quote.valor_devolvido);
    expect(back.devolvido_a_quem_pagou).toBe(toBuyer / 100);
    expect(back.devolvido_a_voce).toBeCloseTo(quote.valor_devolvido - toBuyer / 100, 2);
    // The quote shown before confirming said the same split.
    expect(quote.devolvido_a_quem_pagou).toBe(back.devolvido_a_quem_pagou);
    expect(quote.devolvido_a_voce).toBe(back.devolvido_a_voce);
    // The holder: their part, and the rest to whoever paid it; never the whole as theirs.
    const holderMail = await waitForMail(t.dataDir, to.email, `inscrição nº ${paid.id} cancelada`);
    expect(holderMail).toContain(`O restante, ${formatBRL(toBuyer)}, volta a quem o pagou`);
    expect(holderMail).not.toContain(formatBRL(Math.round(quote.valor_devolvido * 100)));
    // The original payer: an e-mail of their own part.
    const payerMail = await waitForMail(t.dataDir, w.buyer.email, 'a sua parte do que foi pago');
    expect(payerMail).toContain(formatBRL(toBuyer));
  });

  it('a transferred registration: the quote, the participant link and the back office split the refund per payer', async () => {
    const { paid, holder: lia } = await transferredAndPaid(
      'Corrida da Divisão Antecipada',
      'Lia Nova Titular',
    );

    // Within the 7 days of withdrawal everything comes back: the transfer's R$ 70,00 to Lia, who holds it
    // now, and the R$ 60,00 of the registration to the buyer who paid it.
    const quote = (await request('GET', lia, `/api/inscricoes/${paid.id}/cancelamento/`)).json();
    expect(quote).toMatchObject({
      permitido: true,
      valor_devolvido: 130,
      devolvido_a_voce: 70,
      devolvido_a_quem_pagou: 60,
    });
    // The participant's link quotes the same.
    const [row] = await db().select().from(registrations).where(eq(registrations.id, paid.id));
    const link = participantLinkToken(t.env.CHECKIN_TOKEN_SECRET, {
      registrationId: paid.id,
      expiresAt: new Date(START.getTime() + 7 * 24 * 60 * MINUTE),
      nonce: row!.participantLinkNonce,
    });
    const view = await request('GET', null, `/api/inscricoes/link/${link}/`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().cancelamento).toEqual(quote);

    // The back office: what its cancellation would return, then what it returned, per payer.
    const page = await request('GET', w.admin, `/api/painel/registrations/${paid.id}/`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().devolucao_cancelamento).toEqual({
      valor_devolvido: 130,
      devolvido_a_voce: 70,
      devolvido_a_quem_pagou: 60,
    });
    const cancelled = await request('POST', w.admin, `/api/painel/registrations/${paid.id}/cancel/`, {
      motivo: 'Pedido da corredora',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().devolucao_cancelamento).toEqual({
      valor_devolvido: 130,
      devolvido_a_voce: 70,
      devolvido_a_quem_pagou: 60,
    });
    // Read from the refunds themselves: R$ 60,00 from the buyer's charge.
    const toBuyer = (
      await db().select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, row!.chargeId))
    ).reduce((sum, r) => sum + r.amountCents, 0);
    expect(toBuyer).toBe(6000);
  });

  it('transfer invitations to unproven addresses are limited per registration and per account, and carry no typed name', async () => {
    const event = await makeEvent(db(), {
      name: 'Corrida dos Convites Contados',
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 20 }]],
    });
    const owner = await makeBuyer(t.app);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await pay(event, cats(event)[0]!, 50, {}, owner)).id);
    const outbox = () => readOutbox(t.dataDir).filter((m) => m.includes('relay.'));
    const before = outbox().length;
    /** Ask for a transfer to a fresh address and withdraw it at once; answers the status code. */
    const askAndWithdraw = async (id: number, n: number) => {
      const asked = await request('POST', owner, `/api/inscricoes/${id}/transferir/`, {
        nome_completo: 'Visite nossa promoção em golpe.example',
        cpf: nextCpf(),
        email: `relay.${id}.${n}@example.com`,
      });
      if (asked.statusCode === 201)
        expect(
          (await request('POST', owner, `/api/inscricoes/${id}/transferencia/cancelar/`)).statusCode,
        ).toBe(200);
      return asked.statusCode;
    };
    // Ten rounds on one registration: three invitations, then 429.
    const first: number[] = [];
    for (let n = 0; n < 10; n++) first.push(await askAndWithdraw(ids[0]!, n));
    expect(first).toEqual([201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
    // The account's other registrations: two more, then the account's five are spent.
    const others = [
      await askAndWithdraw(ids[1]!, 0),
      await askAndWithdraw(ids[1]!, 1),
      await askAndWithdraw(ids[2]!, 0),
    ];
    expect(others).toEqual([201, 201, 429]);
    expect(outbox().length - before).toBe(5);
    // The name the caller typed never reads as the shop's words.
    expect(outbox().some((m) => m.includes('golpe.example'))).toBe(false);
    // An hour later the registration may invite again.
    t.clock = new Date(START.getTime() + 61 * MINUTE);
    expect(await askAndWithdraw(ids[2]!, 1)).toBe(201);
    t.clock = START;
  }, 180_000);

  it('the new runner accepting a transfer chooses her shirt size, checked against the stock', async () => {
    const event = await makeEvent(db(), {
      name: 'Corrida da Camisa Escolhida',
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 10 }]],
      kitSizes: [
        { size: 'M', left: 10 },
        { size: 'G', left: 1 },
        { size: 'P', left: 0 },
      ],
    });
    await saveRules(event, { transferencia_taxa: 5 });
    const [m, g, p] = event.kitSizes!.map((k) => k.id) as [number, number, number];
    const paid = await pay(event, cats(event)[0]!, 50, { tamanho_camisa: m });
    const cpf = nextCpf();
    const to = { nome_completo: 'Lia Camisa', cpf, email: `lia.camisa.${cpf}@example.com` };
    const token = await inviteTransfer(paid.id, to);
    const friend = await makeBuyer(t.app);
    const draft = (size: number) => ({
      ...participant(event, cats(event), { ...to, tamanho_camisa: size }),
      transferencia: token,
    });
    const soldOut = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: draft(p),
      total: 5,
      user: friend,
      key: randomUUID(),
    });
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.json().code).toBe('tamanho_esgotado');
    const done = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: draft(g),
      total: 5,
      user: friend,
      key: randomUUID(),
    });
    expect(done.statusCode, done.body).toBe(200);
    const [row] = await db().select().from(registrations).where(eq(registrations.id, paid.id));
    expect(row).toMatchObject({ cpf: to.cpf, kitSize: 'G' });
    expect(await kitLeft(db(), g)).toBe(0);
    expect(await kitLeft(db(), m)).toBe(10);
  }, 120_000);
});
