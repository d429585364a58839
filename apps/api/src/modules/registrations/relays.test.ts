import { EventSchema } from '@passada/core/contracts/events';
import { MyTeamSchema } from '@passada/core/contracts/teams';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { registrations } from '../../db/schema/index.ts';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { eventFormBody, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import {
  participantsFrom,
  registrationPix,
  requestAs,
  ticketOf,
} from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

/**
 * Relays (docs/decisions/0078) through the HTTP layer: the organiser marks a distance as a relay of four
 * on the event's form; the public page says so; nobody registers in it alone; a team buys the four legs
 * in one payment at the team's price; four runners take a leg each with their own data and ticket, a
 * fifth finds none left.
 */
describe('a relay of four', () => {
  const t = useClockedTestApp(TEAMS_START);
  const request = requestAs(() => t.app);
  const runner = participantsFrom(774_200_000);
  let admin: TestStaff;
  let captain: TestUser;
  let race: MadeEvent;
  let relay: number;

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
    captain = await createUserAndToken(t.app, { full_name: 'Rita Revezamento' });
    race = await makeEvent(t.app.db, {
      name: 'Revezamento da Orla',
      today: '2026-11-24',
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [
        [
          { name: '5 km', priceCents: 8000 },
          { name: 'Revezamento 4 × 5 km', priceCents: 30_001, placesLeft: 40 },
        ],
      ],
    });
    relay = race.days[0]!.categories[1]!.id;
  });

  const editRelay = async (revezamento: unknown) => {
    const current = await t.app.inject({
      method: 'GET',
      url: `/api/painel/events/${race.id}/`,
      headers: admin.headers,
    });
    const body = eventFormBody(current.json());
    body.dias_evento[0]!.categorias[1] = { ...body.dias_evento[0]!.categorias[1]!, revezamento } as never;
    return t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${race.id}/`,
      headers: admin.headers,
      payload: body,
    });
  };

  const buy = (quantidade: number, total: number, more: Record<string, unknown> = {}) =>
    request('POST', captain, '/api/pagar-pix/', {
      total,
      finalidade: 'vagas_equipe',
      vagas_equipe: { equipe: teamId, categoria: relay, quantidade, ...more },
    });
  let teamId = 0;

  it('the organiser marks the distance as a relay of four; the page says so', async () => {
    const wrong = await editRelay(3);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Um revezamento tem 2, 4 ou 8 corredores.');
    const saved = await editRelay(4);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().dias_evento[0].categorias[1]).toMatchObject({ revezamento: 4, capacidade: 40 });
    const page = EventSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/events/${race.id}/` })).json(),
    );
    const [five, four] = page.dias_evento[0]!.categorias;
    expect(four).toMatchObject({ revezamento: 4, preco_inscricao: 300.01 });
    expect(five).not.toHaveProperty('revezamento');
  });

  it('nobody registers in it alone; the team buys the four legs in one payment at the team’s price', async () => {
    const alone = await createUserAndToken(t.app);
    const refused = await registrationPix(
      t.app,
      runner(race, 'Corredor Sozinho', relay),
      300.01,
      alone.headers,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'revezamento',
      detail: expect.stringContaining('4 corredores'),
    });

    teamId = (await makeTeam(t.app, captain, 'Quarteto da Orla', race.id)).id;
    const three = await buy(3, 300.01);
    expect(three.statusCode).toBe(400);
    expect(three.json().code).toBe('revezamento_incompleto');
    // A relay is the team's entry: it pays all of it, not a share (docs/decisions/0079).
    const share = await buy(4, 180.01, { percentual: 60 });
    expect(share.statusCode).toBe(400);
    expect(share.json()).toMatchObject({ code: 'revezamento_parte' });
    const wrongTotal = await buy(4, 4 * 300.01);
    expect(wrongTotal.statusCode).toBe(409);
    expect(wrongTotal.json().total_correto).toBe(300.01);
    const before = await placesLeft(t.app.db, relay);
    const pix = await buy(4, 300.01);
    expect(pix.statusCode, pix.body).toBe(201);
    expect(await placesLeft(t.app.db, relay)).toBe(before - 4);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
  });

  it('four runners take a leg each with their own data and ticket; a fifth finds none left', async () => {
    const mine = MyTeamSchema.array().parse((await request('GET', captain, '/api/equipes/')).json());
    const batch = mine.find((x) => x.id === teamId)!.vagas[0]!;
    expect(batch).toMatchObject({ quantidade: 4, disponiveis: 4, preco: 75 });
    const token = batch.link.split('/').pop()!;
    const legs: number[] = [];
    const runners: Array<{ who: TestUser; cpf: string }> = [];
    for (const name of ['Ana Primeira', 'Bia Segunda', 'Caio Terceiro', 'Davi Quarto']) {
      const who = await createUserAndToken(t.app);
      const body = runner(race, name, relay);
      const res = await request('POST', who, `/api/equipes/vagas/${token}/resgatar/`, body);
      expect(res.statusCode, res.body).toBe(201);
      legs.push(res.json().inscricao_id);
      runners.push({ who, cpf: body.cpf });
    }
    const fifth = await createUserAndToken(t.app);
    const late = await request(
      'POST',
      fifth,
      `/api/equipes/vagas/${token}/resgatar/`,
      runner(race, 'Eva Quinta', relay),
    );
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('vagas_esgotadas');

    const rows = await t.app.db.select().from(registrations).where(eq(registrations.teamId, teamId));
    expect(rows.map((r) => r.id).sort()).toEqual([...legs].sort());
    expect(new Set(rows.map((r) => r.cpf)).size).toBe(4);
    expect(new Set(rows.map((r) => r.fullName))).toEqual(
      new Set(['Ana Primeira', 'Bia Segunda', 'Caio Terceiro', 'Davi Quarto']),
    );
    expect(rows.every((r) => r.totalCents === 0 && r.teamBatchId === batch.id)).toBe(true);
    // Each runner's own ticket: the QR code of their kit, read back from its image, one per leg.
    const codes = new Set<string>();
    for (const { who, cpf } of runners) codes.add(await ticketOf(t.app, who.headers, cpf, race.id));
    expect(codes.size).toBe(4);
  });
});
