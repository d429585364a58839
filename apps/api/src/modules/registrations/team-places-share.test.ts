import { MyTeamSchema, TeamClaimViewSchema } from '@passada/core/contracts/teams';
import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, charges, registrations } from '../../db/schema/index.ts';
import { createUserAndToken, readOutbox, type TestUser } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { chargeByTxid, removalRacingAPayment, simulatePixPaid } from '../../test/factories/payments.ts';
import {
  APPROVED_CARD,
  participantsFrom,
  registrationCard,
  registrationPix,
  requestAs,
} from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

const MINUTE = 60_000;

/**
 * A team that pays a share of each place (docs/decisions/0079): the captain pays the share of N places,
 * each member claims one paying the rest by Pix or card; the place moves from the captain's charge to the
 * member's while it is paid, back to the team when the member's Pix expires, and a payment too late for
 * a closed purchase is returned. Nobody pays more than the place, nor a refund above what they paid.
 */
describe('team places paid in part by the team: each member pays the rest', () => {
  const t = useClockedTestApp(TEAMS_START);
  const request = requestAs(() => t.app);
  const member = participantsFrom(731_400_000);
  let captain: TestUser;
  let race: MadeEvent;
  /** The 21 km: R$ 120, 30 places. */
  let half: number;

  beforeAll(async () => {
    captain = await createUserAndToken(t.app, { full_name: 'Carla Parcial' });
    race = await makeEvent(t.app.db, {
      name: 'Meia da Empresa',
      today: '2026-11-24',
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [[{ name: '21 km', priceCents: 12_000, placesLeft: 30 }]],
      kitSizes: [{ size: 'M', left: 100 }],
    });
    half = race.days[0]!.categories[0]!.id;
  });

  const buy = (team: number, quantidade: number, percentual: number, total: number) =>
    request('POST', captain, '/api/pagar-pix/', {
      total,
      finalidade: 'vagas_equipe',
      vagas_equipe: { equipe: team, categoria: half, quantidade, percentual },
    });

  async function batchOf(team: number) {
    const res = await request('GET', captain, '/api/equipes/');
    return MyTeamSchema.array()
      .parse(res.json())
      .find((x) => x.id === team)!.vagas[0]!;
  }

  /** A member's Pix for their part of a place, with their own data. */
  async function claimPix(token: string, name: string, total = 48) {
    const who = await createUserAndToken(t.app);
    const body = member(race, name, half);
    const res = await registrationPix(t.app, { vaga_equipe: token, participante: body }, total, who.headers);
    return { res, who, cpf: body.cpf };
  }

  /**
   * The Pix's deadline passes (the clock `minutes` after the start) while the payer's bank takes it
   * anyway: our removal is answered as done and the charge ends; the payment lands later (`payLate`).
   */
  const expireRacingPayment = (minutes: number) =>
    removalRacingAPayment(t.app, () => {
      t.clock = new Date(TEAMS_START.getTime() + minutes * MINUTE);
      return t.app.payments.reconcileAll();
    });
  async function payLate(txid: string) {
    expect(t.app.providers.payments.simulator!.payPix(txid, t.clock, { afterExpiry: true })).not.toBeNull();
    await t.app.payments.reconcileAll();
  }

  const registrationOf = async (cpf: string) =>
    (
      await t.app.db
        .select()
        .from(registrations)
        .where(and(eq(registrations.cpf, cpf), isNull(registrations.cancelledAt)))
    )[0];

  it('the captain pays 60 % of four places; members pay the other 40 % by Pix or card', async () => {
    const team = await makeTeam(t.app, captain, 'Empresa Parceira', race.id);
    const wrong = await buy(team.id, 4, 60, 480);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().total_correto).toBe(288);
    expect((await buy(team.id, 4, 0, 0)).statusCode).toBe(400);
    const pix = await buy(team.id, 4, 60, 288);
    expect(pix.statusCode, pix.body).toBe(201);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    expect(await placesLeft(t.app.db, half)).toBe(26);

    const batch = await batchOf(team.id);
    expect(batch).toMatchObject({
      quantidade: 4,
      preco: 72,
      percentual: 60,
      parte_membro: 48,
      disponiveis: 4,
    });
    const token = batch.link.split('/').pop()!;
    const view = TeamClaimViewSchema.parse(
      (await request('GET', null, `/api/equipes/vagas/${token}/`)).json(),
    );
    expect(view).toMatchObject({ percentual: 60, a_pagar: 48, disponiveis: 4 });

    // The claim without payment is for places the team paid in full.
    const who = await createUserAndToken(t.app);
    const free = await request(
      'POST',
      who,
      `/api/equipes/vagas/${token}/resgatar/`,
      member(race, 'Sem Pagar', half),
    );
    expect(free.statusCode).toBe(409);
    expect(free.json()).toMatchObject({
      code: 'pagamento_necessario',
      detail: expect.stringMatching(/R\$\s48,00/),
    });

    // The browser's total is checked against the member's part, never the place's price.
    const tooMuch = await claimPix(token, 'Ana Parcial', 120);
    expect(tooMuch.res.statusCode).toBe(409);
    expect(tooMuch.res.json().total_correto).toBe(48);

    // Ana pays her part: the place moves from the captain's charge to hers while the Pix is open.
    const ana = await claimPix(token, 'Ana Parcial');
    expect(ana.res.statusCode, ana.res.body).toBe(201);
    expect((await batchOf(team.id)).disponiveis).toBe(3);
    expect(await placesLeft(t.app.db, half)).toBe(26);
    expect((await simulatePixPaid(t.app, ana.res.json().txid)).statusCode).toBe(200);
    const anaRow = (await registrationOf(ana.cpf))!;
    expect(anaRow).toMatchObject({ totalCents: 4800, teamId: team.id });
    expect(anaRow.teamBatchId).not.toBeNull();
    expect(await chargeByTxid(t.app, ana.res.json().txid)).toMatchObject({
      amountCents: 4800,
      status: 'CONCLUIDA',
    });
    await untilJobsDone(t.app.db, 'mail.registration-confirmation');
    const mail = readOutbox(t.dataDir).find((m) => m.includes(`To: ${ana.who.email}`));
    expect(mail).toMatch(/Valor: R\$\s48,00 \(a sua parte; a equipe Empresa Parceira pagou o restante\)/);

    // Bruno pays by card.
    const bruno = await createUserAndToken(t.app);
    const brunoBody = member(race, 'Bruno Parcial', half);
    const card = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: { vaga_equipe: token, participante: brunoBody },
      total: 48,
      user: bruno,
      key: `parcial-${brunoBody.cpf}`,
    });
    expect(card.statusCode, card.body).toBe(200);
    expect(await registrationOf(brunoBody.cpf)).toMatchObject({ totalCents: 4800, teamId: team.id });
    expect(await batchOf(team.id)).toMatchObject({ resgatadas: 2, disponiveis: 2 });

    // Caio's Pix expires: his place goes back to the team, not to the public; paid late, he gets it again.
    const caio = await claimPix(token, 'Caio Parcial');
    expect(caio.res.statusCode).toBe(201);
    expect((await batchOf(team.id)).disponiveis).toBe(1);
    await expireRacingPayment(45);
    expect((await batchOf(team.id)).disponiveis).toBe(2);
    expect(await placesLeft(t.app.db, half)).toBe(26);
    await payLate(caio.res.json().txid);
    expect(await registrationOf(caio.cpf)).toMatchObject({ totalCents: 4800 });
    expect(await batchOf(team.id)).toMatchObject({ resgatadas: 3, disponiveis: 1 });

    // Dora's Pix is open when the captain closes the purchase: the captain gets back what no one holds
    // (nothing: Dora holds the last place), and Dora's Pix, expired and paid late, is returned whole.
    const dora = await claimPix(token, 'Dora Parcial');
    expect(dora.res.statusCode).toBe(201);
    const close = await request('POST', captain, `/api/equipes/${team.id}/vagas/${batch.id}/encerrar/`);
    expect(close.statusCode, close.body).toBe(200);
    expect(await batchOf(team.id)).toMatchObject({ disponiveis: 0, devolvido: 0 });
    await expireRacingPayment(90);
    // Closed: the expired claim's place goes back to sale.
    expect(await placesLeft(t.app.db, half)).toBe(27);
    await payLate(dora.res.json().txid);
    expect(await registrationOf(dora.cpf)).toBeUndefined();
    const doraCharge = (await chargeByTxid(t.app, dora.res.json().txid))!;
    const doraRefunds = await t.app.db
      .select()
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, doraCharge.id));
    expect(doraRefunds.map((r) => r.amountCents)).toEqual([4800]);
    expect(await placesLeft(t.app.db, half)).toBe(27);
  });

  it('a member who cancels gets back at most their part, and the place returns to the team; the close refunds the team’s share', async () => {
    const team = await makeTeam(t.app, captain, 'Empresa Metade', race.id);
    const pix = await buy(team.id, 3, 50, 180);
    expect(pix.statusCode, pix.body).toBe(201);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    const batch = await batchOf(team.id);
    expect(batch).toMatchObject({ preco: 60, parte_membro: 60 });
    const token = batch.link.split('/').pop()!;
    const eva = await claimPix(token, 'Eva Metade', 60);
    expect((await simulatePixPaid(t.app, eva.res.json().txid)).statusCode).toBe(200);
    const row = (await registrationOf(eva.cpf))!;

    const quote = await request('GET', eva.who, `/api/inscricoes/${row.id}/cancelamento/`);
    expect(quote.statusCode, quote.body).toBe(200);
    const back = quote.json().valor_devolvido as number;
    expect(back).toBeGreaterThan(0);
    expect(back).toBeLessThanOrEqual(60);
    const cancel = await request('POST', eva.who, `/api/inscricoes/${row.id}/cancelar/`, {
      valor_devolvido: back,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const [evaCharge] = await t.app.db.select().from(charges).where(eq(charges.id, row.chargeId));
    const evaRefunds = await t.app.db
      .select()
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, evaCharge!.id));
    expect(evaRefunds.reduce((s, r) => s + r.amountCents, 0)).toBe(Math.round(back * 100));
    expect(await batchOf(team.id)).toMatchObject({ resgatadas: 0, disponiveis: 3 });

    // Closed with three places unused: the team's share of each (R$ 60) goes back, never the members' part.
    const close = await request('POST', captain, `/api/equipes/${team.id}/vagas/${batch.id}/encerrar/`);
    expect(close.statusCode).toBe(200);
    expect(await batchOf(team.id)).toMatchObject({ devolvido: 180 });
    const captainCharge = (await chargeByTxid(t.app, pix.json().txid))!;
    const refunds = await t.app.db
      .select()
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, captainCharge.id));
    expect(refunds.map((r) => r.amountCents)).toEqual([18_000]);
  });
});
