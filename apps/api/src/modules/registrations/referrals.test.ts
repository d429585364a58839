import { randomUUID } from 'node:crypto';
import { DEFAULT_AFTER_SALE_RULES } from '@passada/core/after-sale';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, eventAfterSaleRules, registrations } from '../../db/schema/index.ts';
import { readOutbox, type TestUser, waitForMail } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createOrderPix, makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import {
  APPROVED_CARD,
  cpfFrom,
  participant,
  registrationCard,
  requestAs,
} from '../../test/factories/registrations.ts';
import { TEAMS_START, teamsRace } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * Referral links (docs/decisions/0086): a paid runner's link; after the event's minimum of registrations
 * paid through it by other people (other CPF, account and charge), standing past their 7 days of
 * withdrawal, the runner gets the event's percentage of what they paid back, once, never above it.
 */
describe('referral links: a rebate after the Nth paid registration', () => {
  const t = useClockedTestApp(TEAMS_START);
  const request = requestAs(() => t.app);
  let admin: TestStaff;
  let race: MadeEvent;
  let tenK = 0;
  let cpfSeq = 741_300_000;

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
    race = await teamsRace(t.app, 'Corrida da Indicação');
    tenK = race.days[0]!.categories[1]!.id;
  });

  /** A runner in the 10 km (R$ 109,90) paid by `buyer`'s card, with these fields. */
  async function register(buyer: TestUser, fields: Record<string, unknown> = {}) {
    const cpf = (fields.cpf as string | undefined) ?? cpfFrom(cpfSeq++);
    const res = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: participant(race, [tenK], { cpf, email: `indica.${cpf}@example.com`, ...fields }),
      total: 109.9,
      user: buyer,
      key: randomUUID(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf));
    return row!;
  }

  /** The account's card of registration `id`, signed in now (the clock moves past a session's life). */
  async function mine(buyer: TestUser, id: number) {
    const token = await t.app.accounts.users.issueToken(buyer.id);
    const res = await request('GET', { headers: { authorization: `Token ${token}` } }, '/api/inscricoes/');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Array<{ id: number; indicacao?: unknown }>).find((r) => r.id === id);
  }

  const refundsOf = (chargeId: number) =>
    t.app.db
      .select({ amount: chargeRefunds.amountCents, refundId: chargeRefunds.refundId })
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, chargeId))
      .orderBy(asc(chargeRefunds.id));

  async function rebates() {
    await t.app.jobs.send('registrations.referral-rebates', {});
    await untilJobsDone(t.app.db, 'registrations.referral-rebates');
  }

  /** Staff save the race's after-sale rules as the back office's form does, with these referral fields. */
  async function saveReferral(referral: { indicacao_minimo: number | null; indicacao_percentual: number }) {
    const url = `/api/painel/events/${race.id}/pos-venda/`;
    const { texto: _, ...form } = (await t.app.inject({ url, headers: admin.headers })).json();
    return t.app.inject({ method: 'PUT', url, headers: admin.headers, payload: { ...form, ...referral } });
  }

  it('the organiser sets it with the after-sale rules; the regulation says it; a bad minimum is refused', async () => {
    const read = await t.app.inject({
      url: `/api/painel/events/${race.id}/pos-venda/`,
      headers: admin.headers,
    });
    expect(read.json()).toMatchObject({ indicacao_minimo: null, indicacao_percentual: 0 });
    expect((await saveReferral({ indicacao_minimo: 0, indicacao_percentual: 20 })).statusCode).toBe(400);
    const saved = await saveReferral({ indicacao_minimo: 2, indicacao_percentual: 20 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ indicacao_minimo: 2, indicacao_percentual: 20 });
    const text = (await request('GET', null, `/api/events/${race.id}/pos-venda/`)).json().texto.join(' ');
    expect(text).toContain('depois de 2 inscrições pagas');
    expect(text).toContain('20% do valor pago');
  });

  it('counts other people past their withdrawal days only, refunds 20% once, and never above what was paid', async () => {
    const ana = await makeBuyer(t.app);
    const referrer = await register(ana);
    const shown = (await mine(ana, referrer.id))?.indicacao as { link: string } | undefined;
    expect(shown).toMatchObject({
      minimo: 2,
      percentual: 20,
      confirmadas: 0,
      aguardando: 0,
      devolvido: null,
    });
    const link = new URL(shown!.link);
    expect(link.pathname).toBe(`/eventos/register/${race.id}`);
    const code = link.searchParams.get('indicacao')!;
    expect(code).toMatch(new RegExp(`^${referrer.id}-`));

    // Two friends, each from their own account, through the link.
    const bruno = await register(await makeBuyer(t.app), { indicacao: code });
    const carla = await register(await makeBuyer(t.app), { indicacao: code });
    expect([bruno.referredById, carla.referredById]).toEqual([referrer.id, referrer.id]);
    // Not referrals: Ana's own account buying for someone else, a forged code (the id with another
    // signature), and a friend who then withdraws. (Ana's own CPF cannot take a second place in a
    // one-day race; on a race of several days the same CPF is refused as a referral too.)
    const ownAccount = await register(ana, { indicacao: code });
    expect(ownAccount.referredById).toBeNull();
    const forged = `${referrer.id}-${code.split('-')[1]!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`;
    expect((await register(await makeBuyer(t.app), { indicacao: forged })).referredById).toBeNull();
    const dani = await makeBuyer(t.app);
    const quitter = await register(dani, { indicacao: code });
    expect(quitter.referredById).toBe(referrer.id);
    const quote = (await request('GET', dani, `/api/inscricoes/${quitter.id}/cancelamento/`)).json();
    const cancel = await request('POST', dani, `/api/inscricoes/${quitter.id}/cancelar/`, {
      valor_devolvido: quote.valor_devolvido,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);

    // Within the 7 days nothing counts yet: the two are waiting, and the hourly job refunds nothing.
    expect((await mine(ana, referrer.id))?.indicacao).toMatchObject({ confirmadas: 0, aguardando: 2 });
    t.clock = new Date(TEAMS_START.getTime() + 6 * 86_400_000);
    await rebates();
    expect(await refundsOf(referrer.chargeId)).toEqual([]);

    // Past them: 20% of R$ 109,90 back on Ana's card, once; her registration now cost R$ 87,92.
    t.clock = new Date(TEAMS_START.getTime() + 8 * 86_400_000);
    await rebates();
    await rebates();
    expect(await refundsOf(referrer.chargeId)).toEqual([
      { amount: 2198, refundId: `indicacao${referrer.id}` },
    ]);
    // The runner is told once what came back and why.
    const mail = await waitForMail(t.dataDir, referrer.email, 'sua indicação rendeu');
    expect(mail).toMatch(/R\$\s21,98 da sua inscrição nº \d+ estão voltando na forma de pagamento/);
    expect(mail).toContain('Corrida da Indicação');
    expect(readOutbox(t.dataDir).filter((m) => m.includes('sua indicação rendeu'))).toHaveLength(1);
    const after = await mine(ana, referrer.id);
    expect(after).toMatchObject({
      total: 87.92,
      indicacao: { confirmadas: 2, aguardando: 0, devolvido: 21.98 },
    });
  });

  it('a rule of 100% gives back what is left on the charge and no more', async () => {
    const saved = await saveReferral({ indicacao_minimo: 1, indicacao_percentual: 100 });
    expect(saved.statusCode, saved.body).toBe(200);
    const eva = await makeBuyer(t.app);
    const referrer = await register(eva);
    // R$ 30,00 of her charge went back already (a staff refund).
    await t.app.db.transaction(async (tx) => {
      const refund = await t.app.payments.refundPart(tx, referrer.chargeId, {
        refundId: `parcial${referrer.id}`,
        amountCents: 3000,
        reason: 'Devolução parcial pela loja.',
      });
      return refund;
    });
    const shown = (await mine(eva, referrer.id))?.indicacao as { link: string } | undefined;
    const code = new URL(shown!.link).searchParams.get('indicacao');
    await register(await makeBuyer(t.app), { indicacao: code });
    t.clock = new Date(TEAMS_START.getTime() + 8 * 86_400_000);
    await rebates();
    const refunds = await refundsOf(referrer.chargeId);
    expect(refunds.map((r) => r.amount)).toEqual([3000, 7990]);
    expect(refunds.reduce((sum, r) => sum + r.amount, 0)).toBe(10_990);
  });

  it('a runner bought in a shop cart through the link is a referral as on the event page', async () => {
    const hugo = await makeBuyer(t.app);
    const referrer = await register(hugo);
    const shown = (await mine(hugo, referrer.id))?.indicacao as { link: string } | undefined;
    const code = new URL(shown!.link).searchParams.get('indicacao');
    const cpf = cpfFrom(cpfSeq++);
    const inCart = participant(race, [tenK], { cpf, email: `carrinho.${cpf}@example.com`, indicacao: code });
    const friend = await makeBuyer(t.app);
    const pix = await createOrderPix(
      t.app,
      friend.headers,
      { metodo_pagamento: 'pix', inscricoes: [inCart] } as never,
      10_990,
    );
    expect(pix.statusCode, pix.body).toBe(201);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf));
    expect(row?.orderId).not.toBeNull();
    expect(row?.referredById).toBe(referrer.id);
  });

  it('on a race of two days, the runner’s own CPF on the other day through their link is no referral', async () => {
    const twoDays = await makeEvent(t.app.db, {
      name: 'Desafio de Dois Dias da Indicação',
      today: '2026-11-24',
      startDate: '2026-12-12',
      registrationDeadline: '2026-12-10',
      days: [[{ name: 'Sábado 10 km', priceCents: 10_000 }], [{ name: 'Domingo 21 km', priceCents: 10_000 }]],
      kitSizes: [{ size: 'M', left: 50 }],
    });
    await t.app.db.insert(eventAfterSaleRules).values({
      ...DEFAULT_AFTER_SALE_RULES,
      eventId: twoDays.id,
      referralMin: 1,
      referralPercent: 10,
    });
    const [saturday, sunday] = twoDays.days.map((d) => d.categories[0]!.id);
    const cpf = cpfFrom(cpfSeq++);
    const pay = async (buyer: TestUser, category: number, extra: Record<string, unknown>) => {
      const res = await registrationCard(t.app, {
        number: APPROVED_CARD,
        draft: participant(twoDays, [category], {
          email: `dois.${cpf}@example.com`,
          tamanho_camisa: twoDays.kitSizes![0]!.id,
          ...extra,
        }),
        total: 100,
        user: buyer,
        key: randomUUID(),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const gil = await makeBuyer(t.app);
    await pay(gil, saturday!, { cpf });
    const [referrer] = await t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf));
    const shown = (await mine(gil, referrer!.id))?.indicacao as { link: string } | undefined;
    const code = new URL(shown!.link).searchParams.get('indicacao');
    // The same person on Sunday, paid from another account through their own link: not a referral.
    await pay(await makeBuyer(t.app), sunday!, { cpf, indicacao: code });
    const rows = await t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf));
    expect(rows.map((r) => r.referredById)).toEqual([null, null]);
    // Someone else on Sunday through the same link is one.
    const other = cpfFrom(cpfSeq++);
    await pay(await makeBuyer(t.app), sunday!, {
      cpf: other,
      email: `dois.${other}@example.com`,
      indicacao: code,
    });
    const [friend] = await t.app.db.select().from(registrations).where(eq(registrations.cpf, other));
    expect(friend!.referredById).toBe(referrer!.id);
  });
});
