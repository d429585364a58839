import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, charges, eventAfterSaleRules, registrations } from '../../db/schema/index.ts';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import {
  APPROVED_CARD,
  cpfFrom,
  participant,
  registrationCard,
  requestAs,
} from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START, teamsRace } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * Team prices (docs/decisions/0074): members who join with the team's code pay the tier the team reached
 * counting them, and when a member takes the team to a better tier the earlier members get the
 * difference back on their own payment.
 */
describe('team prices: a team crossing a discount tier', () => {
  const t = useClockedTestApp(TEAMS_START);
  const request = requestAs(() => t.app);
  let captain: TestUser;
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let race: MadeEvent;
  let tenK = 0;
  let cpfSeq = 731_900_000;

  beforeAll(async () => {
    captain = await createUserAndToken(t.app);
    buyer = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
    race = await teamsRace(t.app, 'Corrida das Faixas');
    tenK = race.days[0]!.categories[1]!.id;
  });

  /** A runner in the 10 km (R$ 109,90) paid by the buyer's card at `total`, with these fields. */
  async function register(total: number, fields: Record<string, unknown>) {
    const cpf = cpfFrom(cpfSeq++);
    const res = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: participant(race, [tenK], { cpf, email: `faixa.${cpf}@example.com`, ...fields }),
      total,
      user: buyer,
      key: randomUUID(),
    });
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf));
    return { res, row };
  }

  const price = async (code: string, birth = '1990-05-10') =>
    (
      await request(
        'GET',
        null,
        `/api/events/${race.id}/preco/?categorias=${tenK}&data_nascimento=${birth}&equipe=${code}`,
      )
    ).json();

  const refundsOf = async (chargeIds: number[]) =>
    t.app.db
      .select({ chargeId: chargeRefunds.chargeId, amount: chargeRefunds.amountCents })
      .from(chargeRefunds)
      .where(inArray(chargeRefunds.chargeId, chargeIds));

  it('the organiser sets the tiers with the after-sale rules, and the regulation page says them', async () => {
    const read = await t.app.inject({
      url: `/api/painel/events/${race.id}/pos-venda/`,
      headers: admin.headers,
    });
    expect(read.statusCode).toBe(200);
    const rules = read.json();
    expect(rules.equipe_faixas).toEqual([]);
    const { texto: _, ...form } = rules;
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${race.id}/pos-venda/`,
      headers: admin.headers,
      payload: { ...form, equipe_faixas: [{ min_membros: 1, percentual: 95 }] },
    });
    expect(bad.statusCode).toBe(400);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${race.id}/pos-venda/`,
      headers: admin.headers,
      payload: {
        ...form,
        equipe_faixas: [
          { min_membros: 5, percentual: 20 },
          { min_membros: 3, percentual: 10 },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().equipe_faixas).toEqual([
      { min_membros: 3, percentual: 10 },
      { min_membros: 5, percentual: 20 },
    ]);
    const text = (await request('GET', null, `/api/events/${race.id}/pos-venda/`)).json().texto.join(' ');
    expect(text).toContain('a partir de 3 inscritos na equipe, 10% de desconto');
  });

  it('members 1 and 2 pay the lot; the 3rd pays 10% less and they get R$ 10,99 back; the 5th takes all to 20%', async () => {
    const [rules] = await t.app.db
      .select({ tiers: eventAfterSaleRules.teamTiers })
      .from(eventAfterSaleRules)
      .where(eq(eventAfterSaleRules.eventId, race.id));
    expect(rules?.tiers).toEqual([
      { minMembers: 3, percent: 10 },
      { minMembers: 5, percent: 20 },
    ]);
    const team = await makeTeam(t.app, captain, 'Equipe das Faixas', race.id);
    const code = { equipe_codigo: team.codigo };
    expect((await price(team.codigo)).total).toBe(109.9);
    const first = await register(109.9, code);
    const second = await register(109.9, code);
    expect(first.res.statusCode).toBe(200);
    expect(second.res.statusCode).toBe(200);
    expect(first.row).toMatchObject({ teamTierPercent: 0, teamPriceBaseCents: 10_990, totalCents: 10_990 });

    // The third counts itself: the form's price and the charge say R$ 98,91; the lot's price is refused.
    expect(await price(team.codigo)).toMatchObject({ total: 98.91, desconto_equipe: 10 });
    const wrong = await register(109.9, code);
    expect(wrong.res.statusCode).toBe(409);
    expect(wrong.res.json().total_correto).toBe(98.91);
    const third = await register(98.91, code);
    expect(third.res.statusCode).toBe(200);
    expect(third.row).toMatchObject({ teamTierPercent: 10, totalCents: 9891 });
    await untilJobsDone(t.app.db, 'registrations.team-tier');
    const early = [first.row!.chargeId, second.row!.chargeId];
    expect((await refundsOf(early)).map((r) => r.amount)).toEqual([1099, 1099]);
    const [after] = await t.app.db.select().from(registrations).where(eq(registrations.id, first.row!.id));
    expect(after).toMatchObject({ teamTierPercent: 10, totalCents: 9891 });

    // A 60+ member keeps the half price (better): no team price, no difference later.
    const senior = await register(54.95, { ...code, data_nascimento: '1950-01-01' });
    expect(senior.res.statusCode).toBe(200);
    expect(senior.row).toMatchObject({ teamTierPercent: null, totalCents: 5495 });
    // The 4th standing member (the senior counts): 10% still; then the 5th reaches 20%.
    expect(await price(team.codigo)).toMatchObject({ total: 87.92, desconto_equipe: 20 });
    const fifth = await register(87.92, code);
    expect(fifth.res.statusCode).toBe(200);
    await untilJobsDone(t.app.db, 'registrations.team-tier');
    const all = [first, second, third].map((m) => m.row!.chargeId);
    const back = await refundsOf(all);
    // Each earlier member back down to R$ 87,92: 10,99 + 10,99 for the first two, 10,99 for the third.
    expect(back.filter((r) => r.chargeId === first.row!.chargeId).map((r) => r.amount)).toEqual([1099, 1099]);
    expect(back.filter((r) => r.chargeId === third.row!.chargeId).map((r) => r.amount)).toEqual([1099]);
    expect(
      await refundsOf([senior.row!.chargeId, fifth.row!.chargeId]),
      'the senior and the one who reached it get nothing back',
    ).toEqual([]);
    // Run again: nothing twice.
    await t.app.jobs.send('registrations.team-tier', { teamId: team.id, eventId: race.id });
    await untilJobsDone(t.app.db, 'registrations.team-tier');
    expect(await refundsOf(all)).toHaveLength(5);
    const standing = await t.app.db
      .select({ total: registrations.totalCents })
      .from(registrations)
      .where(and(eq(registrations.teamId, team.id), eq(registrations.teamTierPercent, 20)));
    expect(standing.map((r) => r.total)).toEqual([8792, 8792, 8792, 8792]);

    // The event's report counts a rebate once: its net is what the members' charges took less every
    // refund (from the payments' own tables), and its lines add up to its gross.
    const report = (
      await t.app.inject({ url: `/api/painel/relatorios/eventos/${race.id}/`, headers: admin.headers })
    ).json();
    const chargeIds = (
      await t.app.db
        .select({ id: registrations.chargeId })
        .from(registrations)
        .where(eq(registrations.eventId, race.id))
    ).map((r) => r.id);
    const paid = (await t.app.db.select().from(charges).where(inArray(charges.id, chargeIds))).reduce(
      (s, c) => s + c.amountCents,
      0,
    );
    const returned = (await refundsOf(chargeIds)).reduce((s, r) => s + r.amount, 0);
    const cents = (reais: number) => Math.round(reais * 100);
    expect(cents(report.liquido)).toBe(paid - returned);
    const lines = (report.por_lote as Array<{ valor: number }>).reduce((s, l) => s + cents(l.valor), 0);
    expect(lines - cents(report.descontos) + cents(report.pos_venda)).toBe(cents(report.bruto));
  });

  it('a cart’s runners pay the team’s price too, and get the difference back on the order’s payment', async () => {
    const team = await makeTeam(t.app, captain, 'Equipe do Carrinho Faixa', race.id);
    const code = { equipe_codigo: team.codigo };
    for (let i = 0; i < 2; i++) expect((await register(109.9, code)).res.statusCode).toBe(200);
    /** A cart of runners of the team, paid by Pix at `total`; answers the order's charge and rows. */
    async function cart(n: number, total: number) {
      const cpfs = Array.from({ length: n }, () => cpfFrom(cpfSeq++));
      const pix = await request('POST', buyer, '/api/pagar-pix/', {
        total,
        finalidade: 'pedido',
        pedido: {
          metodo_pagamento: 'pix',
          inscricoes: cpfs.map((cpf) =>
            participant(race, [tenK], { cpf, email: `carrinho.${cpf}@example.com`, ...code }),
          ),
        },
      });
      return { pix, cpfs };
    }
    // The third, in a cart, counts itself as on the direct registration: R$ 98,91, the cart line's price.
    expect(await price(team.codigo)).toMatchObject({ total: 98.91, desconto_equipe: 10 });
    const wrong = await cart(1, 109.9);
    expect(wrong.pix.statusCode).toBe(409);
    expect(wrong.pix.json().total_correto).toBe(98.91);
    const third = await cart(1, 98.91);
    expect(third.pix.statusCode, third.pix.body).toBe(201);
    expect((await simulatePixPaid(t.app, third.pix.json().txid)).statusCode).toBe(200);
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.cpf, third.cpfs[0]!));
    expect(row).toMatchObject({ teamTierPercent: 10, totalCents: 9891 });
    expect(row!.orderId).not.toBeNull();
    await untilJobsDone(t.app.db, 'registrations.team-tier');

    // Two more in one cart, each priced as the page prices it (4 members: 10%); once both are in, the
    // team has 5 and everyone goes to 20%, the cart's two included, on the order's own payment.
    const pair = await cart(2, 2 * 98.91);
    expect(pair.pix.statusCode, pair.pix.body).toBe(201);
    expect((await simulatePixPaid(t.app, pair.pix.json().txid)).statusCode).toBe(200);
    await untilJobsDone(t.app.db, 'registrations.team-tier');
    const paired = await t.app.db.select().from(registrations).where(inArray(registrations.cpf, pair.cpfs));
    expect(paired.map((r) => r.totalCents)).toEqual([8792, 8792]);
    const orderCharge = paired[0]!.chargeId;
    expect(paired[1]!.chargeId).toBe(orderCharge);
    expect((await refundsOf([orderCharge])).map((r) => r.amount)).toEqual([1099, 1099]);
    expect((await refundsOf([row!.chargeId])).map((r) => r.amount)).toEqual([1099]);
  });
});
