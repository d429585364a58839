import { randomUUID } from 'node:crypto';
import { MyTeamSchema, PainelTeamSchema } from '@passada/core/contracts/teams';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { charges, registrations } from '../../db/schema/index.ts';
import { createUserAndToken, readOutbox, type TestUser } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import {
  APPROVED_CARD,
  cpfFrom,
  participant,
  participantsFrom,
  registrationCard,
  requestAs,
} from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START, teamRegistrar, teamsRace } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

/** Teams (docs/decisions/0067-teams.md): a captain's code, runners joining at registration, who sees what. */
describe('teams: a captain makes a team and runners join it with its code', () => {
  const t = useClockedTestApp(TEAMS_START, {
    env: { TEAMS_PER_ACCOUNT_MAX: '3', TEAM_CODE_LOOKUP_RATE_LIMIT_PER_IP: '8' },
  });
  let captain: TestUser;
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let race: MadeEvent;
  let other: MadeEvent;
  let cpfSeq = 710_900_000;

  const request = requestAs(() => t.app);
  const cat = (e: MadeEvent) => e.days[0]!.categories[1]!.id;
  /** A card registration of a new runner in `event`, with these fields over the defaults. */
  const register = teamRegistrar(
    () => t.app,
    () => buyer,
    710_000_000,
  );

  beforeAll(async () => {
    captain = await createUserAndToken(t.app);
    buyer = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
    race = await teamsRace(t.app, 'Corrida das Equipes');
    other = await teamsRace(t.app, 'Outra Corrida');
  });

  it('makes a team for an event, with a code of 8 letters and digits and its invite link', async () => {
    expect(
      (await request('POST', null, '/api/equipes/', { nome: 'Assessoria Sol', evento: race.id })).statusCode,
    ).toBe(401);
    const bad = await request('POST', captain, '/api/equipes/', { nome: ' ', evento: race.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.nome).toBe('Informe o nome da equipe.');
    const noEvent = await request('POST', captain, '/api/equipes/', { nome: 'Sem evento', evento: 999_999 });
    expect(noEvent.statusCode).toBe(400);

    const res = await request('POST', captain, '/api/equipes/', { nome: 'Assessoria Sol', evento: race.id });
    expect(res.statusCode).toBe(201);
    const team = MyTeamSchema.parse(res.json());
    expect(team.codigo).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
    expect(team.convite).toBe(`/eventos/register/${race.id}?equipe=${team.codigo}`);
    expect(team.evento).toEqual({ id: race.id, nome: 'Corrida das Equipes' });
    expect(team.membros).toEqual([]);

    // Anyone with the code reads which team it is; typed in lower case with a dash, it is the same code.
    const typed = `${team.codigo.slice(0, 4).toLowerCase()}-${team.codigo.slice(4)}`;
    const seen = await request('GET', null, `/api/equipes/codigo/${typed}/`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({
      nome: 'Assessoria Sol',
      codigo: team.codigo,
      evento: team.evento,
      aberta: true,
    });
    expect((await request('GET', null, '/api/equipes/codigo/22222222/')).statusCode).toBe(404);
    expect((await request('GET', null, '/api/equipes/codigo/abc/')).statusCode).toBe(400);
  });

  it('puts a runner who gives the code in the team: its name on the registration, whatever was typed', async () => {
    const made = await makeTeam(t.app, captain, 'Pé Vermelho', race.id);
    const { res, cpf } = await register(race, {
      equipe_codigo: made.codigo.toLowerCase(),
      equipe: 'Outro nome',
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf));
    expect(row).toMatchObject({ team: 'Pé Vermelho', teamId: made.id });
    // The ticket's lookup shows the team.
    const lookup = await request('GET', buyer, `/api/participantes/cpf/${cpf}/`);
    expect(lookup.statusCode).toBe(200);
    expect(JSON.stringify(lookup.json())).toContain('Pé Vermelho');

    // A free-text team with no code is kept as typed, with no team.
    const free = await register(race, { equipe: 'Amigos do Parque' });
    expect(free.res.statusCode).toBe(200);
    const [freeRow] = await t.app.db.select().from(registrations).where(eq(registrations.cpf, free.cpf));
    expect(freeRow).toMatchObject({ team: 'Amigos do Parque', teamId: null });

    // The captain sees the member's name and distance, never their CPF, e-mail or birth date.
    const mine = await request('GET', captain, '/api/equipes/');
    expect(mine.statusCode).toBe(200);
    const listed = MyTeamSchema.array()
      .parse(mine.json())
      .find((x) => x.id === made.id)!;
    expect(listed.membros).toEqual([
      {
        nome: 'Maria da Silva',
        evento: 'Corrida das Equipes',
        categorias: ['10 km'],
        inscrito_em: expect.any(String),
      },
    ]);
    expect(mine.body).not.toContain(cpf);
    expect(mine.body).not.toContain('example.com');
    // Another account does not see it.
    const stranger = await createUserAndToken(t.app);
    expect((await request('GET', stranger, '/api/equipes/')).json()).toEqual([]);
    // The captain's export of their personal data lists the teams they captain (LGPD art. 18).
    const mine2 = (await request('GET', captain, '/api/users/profile/dados/')).json();
    expect(mine2.equipes_como_capitao).toContainEqual(
      expect.objectContaining({ nome: 'Pé Vermelho', codigo: made.codigo, evento: 'Corrida das Equipes' }),
    );
    // The buyer's lists the team on the registration.
    const theirs = (await request('GET', buyer, '/api/users/profile/dados/')).json();
    expect(theirs.inscricoes).toContainEqual(expect.objectContaining({ cpf, equipe: 'Pé Vermelho' }));
  });

  it('refuses a code of no team, of another event, or of a closed team, and takes no payment', async () => {
    const made = await makeTeam(t.app, captain, 'Só da Outra', other.id);
    const chargesBefore = (await t.app.db.select({ id: charges.id }).from(charges)).length;
    const unknown = await register(race, { equipe_codigo: '22222222' });
    expect(unknown.res.statusCode).toBe(400);
    expect(unknown.res.json()).toMatchObject({
      code: 'equipe_invalida',
      errors: { equipe_codigo: 'Código de equipe não encontrado.' },
    });
    const elsewhere = await register(race, { equipe_codigo: made.codigo });
    expect(elsewhere.res.statusCode).toBe(400);
    expect(elsewhere.res.json().errors.equipe_codigo).toBe('Este código é de uma equipe de outro evento.');

    // Only its captain closes it.
    const stranger = await createUserAndToken(t.app);
    expect(
      (await request('PUT', stranger, `/api/equipes/${made.id}/aberta/`, { aberta: false })).statusCode,
    ).toBe(404);
    const closed = await request('PUT', captain, `/api/equipes/${made.id}/aberta/`, { aberta: false });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().aberta).toBe(false);
    const late = await register(other, { equipe_codigo: made.codigo });
    expect(late.res.statusCode).toBe(409);
    expect(late.res.json().code).toBe('equipe_fechada');
    expect((await t.app.db.select({ id: charges.id }).from(charges)).length).toBe(chargesBefore);
    for (const cpf of [unknown.cpf, elsewhere.cpf, late.cpf])
      expect(await t.app.db.select().from(registrations).where(eq(registrations.cpf, cpf))).toEqual([]);

    // Opened again, it takes members.
    expect(
      (await request('PUT', captain, `/api/equipes/${made.id}/aberta/`, { aberta: true })).json().aberta,
    ).toBe(true);
    expect((await register(other, { equipe_codigo: made.codigo })).res.statusCode).toBe(200);
  });

  it('a season team takes runners of every event; one account captains at most TEAMS_PER_ACCOUNT_MAX teams', async () => {
    const captain2 = await createUserAndToken(t.app);
    const season = await request('POST', captain2, '/api/equipes/', {
      nome: 'Assessoria da Temporada',
      evento: null,
    });
    expect(season.statusCode).toBe(201);
    const team = MyTeamSchema.parse(season.json());
    expect(team.evento).toBeNull();
    expect(team.convite).toBe(`/eventos?equipe=${team.codigo}`);
    expect((await register(race, { equipe_codigo: team.codigo })).res.statusCode).toBe(200);
    expect((await register(other, { equipe_codigo: team.codigo })).res.statusCode).toBe(200);
    const mine = MyTeamSchema.array().parse((await request('GET', captain2, '/api/equipes/')).json());
    expect(mine[0]!.membros.map((m) => m.evento).sort()).toEqual(['Corrida das Equipes', 'Outra Corrida']);

    for (const n of [2, 3])
      expect(
        (await request('POST', captain2, '/api/equipes/', { nome: `Equipe ${n}`, evento: race.id }))
          .statusCode,
      ).toBe(201);
    const over = await request('POST', captain2, '/api/equipes/', { nome: 'Equipe 4', evento: race.id });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('limite_equipes');
  });

  it('a transfer’s new runner joins a team only with its code, checked as at registration', async () => {
    const url = `/api/painel/events/${other.id}/pos-venda/`;
    const { texto: _, ...rules } = (await request('GET', admin, url)).json();
    expect((await request('PUT', admin, url, { ...rules, transferencia_taxa: 15 })).statusCode).toBe(200);
    // (The first captain is at the cap of this file's TEAMS_PER_ACCOUNT_MAX.)
    const leader = await createUserAndToken(t.app);
    const first = await makeTeam(t.app, leader, 'Equipe de Saída', other.id);
    const { res } = await register(other, { equipe_codigo: first.codigo });
    const id = res.json().inscricao_id as number;

    const friend = await createUserAndToken(t.app);
    const to = { nome_completo: 'Bruno Amigo', cpf: cpfFrom(cpfSeq++), email: `bruno.${cpfSeq}@example.com` };
    expect((await request('POST', buyer, `/api/inscricoes/${id}/transferir/`, to)).statusCode).toBe(201);
    const token = readOutbox(t.dataDir)
      .filter((m) => m.includes(to.email))
      .at(-1)
      ?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    const pay = (fields: Record<string, unknown>) =>
      registrationCard(t.app, {
        number: APPROVED_CARD,
        draft: {
          ...participant(other, [cat(other)], { ...to, data_nascimento: '1992-03-04', ...fields }),
          transferencia: token,
        },
        total: 15,
        user: friend,
        key: randomUUID(),
      });
    expect((await pay({ equipe_codigo: '22222222' })).json().code).toBe('equipe_invalida');
    const own = await makeTeam(t.app, friend, 'Equipe de Chegada', other.id);
    const paid = await pay({ equipe_codigo: own.codigo });
    expect(paid.statusCode).toBe(200);
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.id, id));
    expect(row).toMatchObject({ fullName: 'Bruno Amigo', team: 'Equipe de Chegada', teamId: own.id });
    // The captain of the old team no longer lists the place; the new captain does.
    const left = MyTeamSchema.array().parse((await request('GET', leader, '/api/equipes/')).json());
    expect(left.find((x) => x.id === first.id)!.membros).toEqual([]);
    const joined = MyTeamSchema.array().parse((await request('GET', friend, '/api/equipes/')).json());
    expect(joined[0]!.membros.map((m) => m.nome)).toEqual(['Bruno Amigo']);
  });

  it('lists the event’s teams in the back office, with captain and members, and as a CSV', async () => {
    const res = await request('GET', admin, `/api/painel/events/${race.id}/equipes/`);
    expect(res.statusCode).toBe(200);
    const teams = PainelTeamSchema.array().parse(res.json());
    const sol = teams.find((x) => x.nome === 'Pé Vermelho')!;
    expect(sol.capitao).toEqual({ nome: captain.full_name, email: captain.email });
    expect(sol.membros).toHaveLength(1);
    expect(sol.membros[0]).toMatchObject({
      nome: 'Maria da Silva',
      pago_centavos: 10_990,
      kit_retirado: false,
    });
    // The season's team is listed under the event its member runs; the other event's team is not.
    expect(teams.map((x) => x.nome)).toContain('Assessoria da Temporada');
    expect(teams.map((x) => x.nome)).not.toContain('Só da Outra');

    const csv = await request('GET', admin, `/api/painel/events/${race.id}/equipes.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Equipe;Código;Capitão;E-mail do capitão;Inscrição;Membro;Categorias;Valor pago (R$);Kit retirado;Vaga paga pela equipe',
    );
    expect(lines).toContainEqual(
      `Pé Vermelho;${sol.codigo};${captain.full_name};${captain.email};${sol.membros[0]!.inscricao};Maria da Silva;${sol.membros[0]!.categorias.join(', ')};109,90;Não;Não`,
    );
    expect((await request('GET', null, `/api/painel/events/${race.id}/equipes/`)).statusCode).toBe(401);
  });

  it('a cart’s runners join with their own codes; one refused code refuses the whole cart before any charge', async () => {
    const leader = await createUserAndToken(t.app);
    const open = await makeTeam(t.app, leader, 'Equipe do Carrinho', race.id);
    const shut = await makeTeam(t.app, leader, 'Equipe Trancada', race.id);
    expect(
      (await request('PUT', leader, `/api/equipes/${shut.id}/aberta/`, { aberta: false })).statusCode,
    ).toBe(200);
    const person = participantsFrom(711_000_000);
    const cart = (codes: [string, string]) => ({
      metodo_pagamento: 'pix',
      inscricoes: [
        person(race, 'Lia Carrinho', cat(race), { equipe_codigo: codes[0] }),
        person(race, 'Rui Carrinho', cat(race), { equipe_codigo: codes[1] }),
      ],
    });
    const pix = (draft: object) =>
      request('POST', buyer, '/api/pagar-pix/', { total: 219.8, finalidade: 'pedido', pedido: draft });
    const chargesBefore = (await t.app.db.select({ id: charges.id }).from(charges)).length;

    const refused = await pix(cart([open.codigo, shut.codigo]));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('equipe_fechada');
    expect((await t.app.db.select({ id: charges.id }).from(charges)).length).toBe(chargesBefore);

    const made = await pix(cart([open.codigo, open.codigo.toLowerCase()]));
    expect(made.statusCode).toBe(201);
    const paid = await simulatePixPaid(t.app, made.json().txid);
    const orderId = paid.json().pedido_id as number;
    expect(orderId).toEqual(expect.any(Number));
    const rows = await t.app.db.select().from(registrations).where(eq(registrations.orderId, orderId));
    expect(rows.map((r) => [r.fullName, r.teamId, r.team]).sort()).toEqual([
      ['Lia Carrinho', open.id, 'Equipe do Carrinho'],
      ['Rui Carrinho', open.id, 'Equipe do Carrinho'],
    ]);
    const mine = MyTeamSchema.array().parse((await request('GET', leader, '/api/equipes/')).json());
    expect(mine.find((x) => x.id === open.id)!.membros.map((m) => m.nome)).toEqual([
      'Lia Carrinho',
      'Rui Carrinho',
    ]);
  });

  it('answers 429 once one address looked up too many codes (TEAM_CODE_LOOKUP_RATE_LIMIT_PER_IP)', async () => {
    // This file allows 8 look-ups per address in 10 minutes; the first test made 3.
    const answers: number[] = [];
    for (let i = 0; i < 6; i++)
      answers.push((await request('GET', null, '/api/equipes/codigo/22222222/')).statusCode);
    expect(answers).toEqual([404, 404, 404, 404, 404, 429]);
    const limited = await request('GET', null, '/api/equipes/codigo/22222222/');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toBe('Muitas tentativas. Aguarde alguns minutos e tente novamente.');
  });
});
