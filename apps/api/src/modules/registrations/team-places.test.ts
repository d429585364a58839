import { MyTeamSchema, PainelTeamSchema, TeamClaimViewSchema } from '@passada/core/contracts/teams';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chargeRefunds,
  charges,
  eventAfterSaleRules,
  registrations,
  teamPlaceBatches,
} from '../../db/schema/index.ts';
import { createUserAndToken, readOutbox, type TestUser } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationPix, requestAs } from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * A team's places bought by its captain in one payment and claimed by its members
 * (docs/decisions/0073): every rule of a registration on each claim, the places held by the captain's
 * charge until claimed, a cancelled claim's place back to the team, and what nobody claimed refunded
 * or given back to sale at the deadline.
 */
describe('team places: the captain buys N places, each member claims one with their own data', () => {
  const t = useClockedTestApp(TEAMS_START, { env: { TEAM_PLACES_PER_PURCHASE_MAX: '30' } });
  const request = requestAs(() => t.app);
  const member = participantsFrom(731_100_000);
  let captain: TestUser;
  let admin: TestStaff;
  let race: MadeEvent;
  /** The 21 km: R$ 120, adults only, 30 places. */
  let half: number;

  beforeAll(async () => {
    captain = await createUserAndToken(t.app, { full_name: 'Carla Capitã' });
    admin = await createStaffAndLogin(t.app, 'admin');
    race = await makeEvent(t.app.db, {
      name: 'Meia das Equipes',
      today: '2026-11-24',
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [
        [
          { name: '5 km', priceCents: 8000 },
          { name: '21 km', priceCents: 12_000, placesLeft: 30, minAge: 18 },
        ],
      ],
      kitSizes: [{ size: 'M', left: 100 }],
    });
    half = race.days[0]!.categories[1]!.id;
  });

  /** The captain's Pix for `quantidade` places of the team, paid at the simulated bank. */
  async function buy(team: number, quantidade: number, total: number, category = half) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: captain.headers,
      payload: {
        total,
        finalidade: 'vagas_equipe',
        vagas_equipe: { equipe: team, categoria: category, quantidade },
      },
    });
    return res;
  }

  async function teamOf(id: number) {
    const res = await request('GET', captain, '/api/equipes/');
    expect(res.statusCode).toBe(200);
    return MyTeamSchema.array()
      .parse(res.json())
      .find((x) => x.id === id)!;
  }

  const tokenOf = (link: string) => link.split('/').pop()!;

  /** A member with an account of their own claims a place with their data (over the defaults). */
  async function claim(token: string, name: string, fields: Record<string, unknown> = {}) {
    const who = await createUserAndToken(t.app);
    const body = member(race, name, half, fields);
    const res = await request('POST', who, `/api/equipes/vagas/${token}/resgatar/`, body);
    return { res, who, cpf: body.cpf };
  }

  it('refuses a purchase with a wrong total, one place, someone else’s team or more than are left', async () => {
    const team = await makeTeam(t.app, captain, 'Corre Junto', race.id);
    const wrong = await buy(team.id, 3, 100);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().total_correto).toBe(360);
    expect((await buy(team.id, 1, 120)).statusCode).toBe(400);
    expect((await buy(team.id, 31, 31 * 120)).json()).toMatchObject({ code: 'validation_error' });
    const stranger = await createUserAndToken(t.app);
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: stranger.headers,
      payload: {
        total: 240,
        finalidade: 'vagas_equipe',
        vagas_equipe: { equipe: team.id, categoria: half, quantidade: 2 },
      },
    });
    expect(theirs.statusCode).toBe(404);
    expect(await placesLeft(t.app.db, half)).toBe(30);
  });

  it('holds 20 places for the captain’s payment; 20 members claim them, one too young and one registered refused', async () => {
    const team = await makeTeam(t.app, captain, 'Assessoria Vento Norte', race.id);
    const pix = await buy(team.id, 20, 2400);
    expect(pix.statusCode).toBe(201);
    // Held from the moment the Pix exists, as any sale's places.
    expect(await placesLeft(t.app.db, half)).toBe(10);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    const status = await t.app.inject({
      url: `/api/status-pix/${pix.json().txid}/`,
      headers: captain.headers,
    });
    expect(status.json()).toMatchObject({ status: 'CONCLUIDA', vagas_equipe_id: expect.any(Number) });

    const bought = (await teamOf(team.id)).vagas;
    expect(bought).toEqual([
      expect.objectContaining({
        quantidade: 20,
        resgatadas: 0,
        disponiveis: 20,
        preco: 120,
        percentual: 100,
        parte_membro: 0,
        prazo: '2026-11-27',
        nao_resgatadas: 'devolver',
        encerrado_em: null,
        link: expect.stringMatching(/^\/equipes\/vagas\/[A-Za-z0-9_-]{22}$/),
      }),
    ]);
    const token = tokenOf(bought[0]!.link);
    // What the link shows to anyone: no member, no price.
    const view = await request('GET', null, `/api/equipes/vagas/${token}/`);
    expect(TeamClaimViewSchema.parse(view.json())).toEqual({
      equipe: 'Assessoria Vento Norte',
      evento: { id: race.id, nome: 'Meia das Equipes' },
      categoria: { id: half, nome: '21 km' },
      disponiveis: 20,
      prazo: '2026-11-27',
      aberto: true,
      percentual: 100,
      a_pagar: 0,
    });
    expect((await request('GET', null, '/api/equipes/vagas/AAAAAAAAAAAAAAAAAAAAAA/')).statusCode).toBe(404);

    // Signed in only.
    expect(
      (await request('POST', null, `/api/equipes/vagas/${token}/resgatar/`, member(race, 'Sem Conta', half)))
        .statusCode,
    ).toBe(401);
    // The category's age limit holds on a claim as on any registration.
    const young = await claim(token, 'Pedro Novinho', { data_nascimento: '2012-03-01' });
    expect(young.res.statusCode).toBe(400);
    expect(young.res.json().code).toBe('idade_fora_da_categoria');
    // A CPF already in the 21 km is refused: a person runs once.
    const already = member(race, 'Rita Inscrita', half);
    const own = await createUserAndToken(t.app);
    const direct = await registrationPix(t.app, already, 120, own.headers);
    expect(direct.statusCode).toBe(201);
    expect((await simulatePixPaid(t.app, direct.json().txid)).statusCode).toBe(200);
    const twice = await request('POST', own, `/api/equipes/vagas/${token}/resgatar/`, already);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('cpf_ja_inscrito');
    // Another race's distance is not what the captain bought.
    const wrongRace = await request(
      'POST',
      own,
      `/api/equipes/vagas/${token}/resgatar/`,
      member(race, 'Outra Distância', race.days[0]!.categories[0]!.id),
    );
    expect(wrongRace.statusCode).toBe(400);
    // The direct registration took one of the 10 public places, never the team's.
    expect(await placesLeft(t.app.db, half)).toBe(9);

    const claimed: Array<{ id: number; who: TestUser; cpf: string }> = [];
    for (let i = 0; i < 20; i++) {
      const { res, who, cpf } = await claim(token, `Membro ${i + 1} Vento`);
      expect(res.statusCode, res.body).toBe(201);
      claimed.push({ id: res.json().inscricao_id, who, cpf });
    }
    const late = await claim(token, 'Vinte Um');
    expect(late.res.statusCode).toBe(409);
    expect(late.res.json().code).toBe('vagas_esgotadas');
    // The claims moved the team's places: nothing more was taken from the public.
    expect(await placesLeft(t.app.db, half)).toBe(9);

    const rows = await t.app.db.select().from(registrations).where(eq(registrations.teamId, team.id));
    expect(rows).toHaveLength(20);
    for (const row of rows) {
      expect(row).toMatchObject({
        team: 'Assessoria Vento Norte',
        totalCents: 0,
        teamBatchId: bought[0]!.id,
      });
      const [charge] = await t.app.db.select().from(charges).where(eq(charges.id, row.chargeId));
      expect(charge).toMatchObject({ method: 'gratuito', amountCents: 0, status: 'CONCLUIDA' });
    }
    // Each member gets their own confirmation with the ticket.
    await untilJobsDone(t.app.db, 'mail.registration-confirmation');
    const mail = readOutbox(t.dataDir).find((m) => m.includes(`To: ${claimed[0]!.who.email}`));
    expect(mail).toContain('Meia das Equipes');
    expect(mail).toContain('Valor: pago pela equipe Assessoria Vento Norte');

    const now = await teamOf(team.id);
    expect(now.vagas[0]).toMatchObject({ resgatadas: 20, disponiveis: 0 });
    expect(now.membros).toHaveLength(20);

    // A claimed place is the team's: no transfer to a stranger, no change of distance.
    const first = claimed[0]!;
    const transfer = await request('POST', first.who, `/api/inscricoes/${first.id}/transferir/`, {
      nome_completo: 'Estranho Qualquer',
      cpf: '52998224725',
      email: 'estranho@example.com',
    });
    expect(transfer.statusCode).toBe(409);
    expect(transfer.json().detail).toContain('fale com o capitão');
    const transferStatus = await request('GET', first.who, `/api/inscricoes/${first.id}/transferencia/`);
    expect(transferStatus.json()).toMatchObject({
      permitido: false,
      motivo: expect.stringContaining('paga pela equipe'),
    });
    const fiveK = race.days[0]!.categories[0]!.id;
    const quote = await request(
      'GET',
      first.who,
      `/api/inscricoes/${first.id}/troca-distancia/?de=${half}&para=${fiveK}`,
    );
    expect(quote.json()).toMatchObject({
      permitido: false,
      motivo: expect.stringContaining('paga pela equipe'),
    });
    const change = await request('POST', first.who, `/api/inscricoes/${first.id}/trocar-distancia/`, {
      de: half,
      para: fiveK,
      a_devolver: 0,
    });
    expect(change.statusCode).toBe(409);
    expect(change.json().code).toBe('vaga_de_equipe');

    // A member who cancels gives the place back to the team, and another member takes it.
    const cancel = await request('POST', first.who, `/api/inscricoes/${first.id}/cancelar/`, {
      valor_devolvido: 0,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await teamOf(team.id)).vagas[0]).toMatchObject({ resgatadas: 19, disponiveis: 1 });
    expect(await placesLeft(t.app.db, half)).toBe(9);
    const again = await claim(token, 'Substituta Vento');
    expect(again.res.statusCode).toBe(201);
    // Staff's page of the registration says the team paid it (not "free").
    const staffView = await t.app.inject({
      url: `/api/painel/registrations/${again.res.json().inscricao_id}/`,
      headers: admin.headers,
    });
    expect(staffView.json().inscricao).toMatchObject({
      vaga_de_equipe: true,
      equipe: 'Assessoria Vento Norte',
    });

    // Staff see the team's places and which members came from them.
    const painel = await t.app.inject({
      url: `/api/painel/events/${race.id}/equipes/`,
      headers: admin.headers,
    });
    expect(painel.statusCode).toBe(200);
    const listed = PainelTeamSchema.array()
      .parse(painel.json())
      .find((x) => x.id === team.id)!;
    expect(listed.vagas).toEqual([
      expect.objectContaining({ quantidade: 20, resgatadas: 20, disponiveis: 0 }),
    ]);
    expect(listed.membros.every((m) => m.vaga_da_equipe)).toBe(true);
    expect(painel.body).not.toContain(token);
  });

  it('at the deadline refunds what nobody claimed to the captain, or gives it back to sale as the event says', async () => {
    const team = await makeTeam(t.app, captain, 'Amigos da Orla', race.id);
    const before = await placesLeft(t.app.db, half);
    const pix = await buy(team.id, 5, 600);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    const batch = (await teamOf(team.id)).vagas[0]!;
    for (const name of ['Ana Orla', 'Bia Orla'])
      expect((await claim(tokenOf(batch.link), name)).res.statusCode).toBe(201);
    expect(await placesLeft(t.app.db, half)).toBe(before - 5);

    // The day after the deadline, the sweep closes it: 3 × R$ 120 back to the captain's Pix.
    t.clock = new Date('2026-11-28T03:30:00Z');
    await t.app.jobs.send('registrations.team-places-close', {});
    await untilJobsDone(t.app.db, 'registrations.team-places-close');
    const closed = (await teamOf(team.id)).vagas[0]!;
    expect(closed).toMatchObject({ resgatadas: 2, disponiveis: 0, devolvido: 360 });
    expect(closed.encerrado_em).not.toBeNull();
    expect(await placesLeft(t.app.db, half)).toBe(before - 2);
    const [charge] = await t.app.db.select().from(charges).where(eq(charges.txid, pix.json().txid));
    const refunds = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge!.id));
    expect(refunds.map((r) => r.amountCents)).toEqual([36_000]);
    // Closed: no claim, and the sweep again changes nothing.
    expect((await claim(tokenOf(batch.link), 'Tarde Demais')).res.json().code).toBe('vagas_encerradas');
    await t.app.jobs.send('registrations.team-places-close', {});
    await untilJobsDone(t.app.db, 'registrations.team-places-close');
    expect(
      await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge!.id)),
    ).toHaveLength(1);

    // The event's report counts what the captains paid for places (and what went back at the close),
    // and its lines still add up to its gross.
    // Signed in again: the clock moved past the earlier session's idle time.
    const finance = await createStaffAndLogin(t.app, 'admin');
    const answer = await t.app.inject({
      url: `/api/painel/relatorios/eventos/${race.id}/`,
      headers: finance.headers,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const report = answer.json();
    const batches = await t.app.db
      .select()
      .from(teamPlaceBatches)
      .where(eq(teamPlaceBatches.eventId, race.id));
    const teamCharges = await t.app.db
      .select({ amount: charges.amountCents })
      .from(charges)
      .where(
        and(
          inArray(
            charges.id,
            batches.map((b) => b.chargeId),
          ),
          isNotNull(charges.paidAt),
        ),
      );
    const cents = (reais: number) => Math.round(reais * 100);
    expect(cents(report.vagas_equipe)).toBe(teamCharges.reduce((s, c) => s + c.amount, 0));
    const lines = (report.por_lote as Array<{ valor: number }>).reduce((s, l) => s + cents(l.valor), 0);
    expect(lines - cents(report.descontos) + cents(report.pos_venda) + cents(report.vagas_equipe)).toBe(
      cents(report.bruto),
    );
    expect(cents(report.devolvido)).toBeGreaterThanOrEqual(36_000);
  });

  it('the captain closes early; an event that keeps unclaimed places gives them back to sale without refund', async () => {
    const other = await makeEvent(t.app.db, {
      name: 'Corrida Sem Reembolso',
      today: '2026-11-24',
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
    });
    const tenK = other.days[0]!.categories[1]!.id;
    await t.app.db.insert(eventAfterSaleRules).values({
      eventId: other.id,
      cancelMinHours: 48,
      cancelAfterWindow: 'nao',
      cancelFeeCents: 0,
      cancelKeptPercent: 0,
      transferAllowed: true,
      transferFeeCents: 0,
      categoryChangeAllowed: true,
      categoryChangeFeeCents: 0,
      categoryChangeRefundsDifference: false,
      sizeChangeAllowed: true,
      waitlistOfferHours: 24,
      teamUnclaimed: 'liberar',
    });
    const team = await makeTeam(t.app, captain, 'Firma Corre', other.id);
    const pix = await buy(team.id, 4, 4 * 109.9, tenK);
    expect(pix.statusCode).toBe(201);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    const batch = (await teamOf(team.id)).vagas[0]!;
    expect(batch.nao_resgatadas).toBe('liberar');
    const stranger = await createUserAndToken(t.app);
    expect(
      (await request('POST', stranger, `/api/equipes/${team.id}/vagas/${batch.id}/encerrar/`)).statusCode,
    ).toBe(404);
    const done = await request('POST', captain, `/api/equipes/${team.id}/vagas/${batch.id}/encerrar/`);
    expect(done.statusCode).toBe(200);
    expect(MyTeamSchema.parse(done.json()).vagas[0]).toMatchObject({ disponiveis: 0, devolvido: 0 });
    expect(await placesLeft(t.app.db, tenK)).toBe(100);
    const [charge] = await t.app.db.select().from(charges).where(eq(charges.txid, pix.json().txid));
    expect(
      await t.app.db
        .select()
        .from(chargeRefunds)
        .where(and(eq(chargeRefunds.chargeId, charge!.id))),
    ).toEqual([]);
    expect(
      (await request('POST', captain, `/api/equipes/${team.id}/vagas/${batch.id}/encerrar/`)).json().code,
    ).toBe('vagas_encerradas');
  });
});
