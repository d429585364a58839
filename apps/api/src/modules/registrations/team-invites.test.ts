import { MyTeamSchema, TeamInviteViewSchema } from '@passada/core/contracts/teams';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { teamInvites } from '../../db/schema/index.ts';
import { createUserAndToken, readOutbox, type TestUser } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { requestAs } from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START, teamsRace } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * A captain's list of members (docs/decisions/0075): a CSV as Excel pt-BR writes it, each person invited
 * by e-mail to confirm or refuse; a refusal and an unanswered invitation erase what the captain gave.
 */
describe('team invitations from a captain’s list', () => {
  const t = useClockedTestApp(TEAMS_START, { env: { TEAM_INVITES_PER_CAPTAIN_PER_DAY: '5' } });
  const request = requestAs(() => t.app);
  let captain: TestUser;
  let race: MadeEvent;

  beforeAll(async () => {
    captain = await createUserAndToken(t.app, { full_name: 'Carla Capitã' });
    race = await teamsRace(t.app, 'Corrida dos Convites');
  });

  const send = (team: number, arquivo: string, who: TestUser | null = captain) =>
    request('POST', who, `/api/equipes/${team}/convites/`, { arquivo });

  const tokenIn = (mail: string) => /\/equipes\/convite\/([A-Za-z0-9_-]{22})/.exec(mail)?.[1] ?? '';

  it('refuses a list with a bad line and sends nothing; a good list invites each address once', async () => {
    const team = await makeTeam(t.app, captain, 'Assessoria Convite', race.id);
    expect((await send(team.id, 'Nome;E-mail\nAna;ana@example.com', null)).statusCode).toBe(401);
    const stranger = await createUserAndToken(t.app);
    expect((await send(team.id, 'Nome;E-mail\nAna;ana@example.com', stranger)).statusCode).toBe(404);
    expect((await send(team.id, 'Nome;Telefone\nAna;8599')).json().code).toBe('colunas_ausentes');

    const bad = await send(
      team.id,
      '\uFEFFNome;E-mail\nAna Sol;ana.sol@example.com\nBeto;nao-e-email\n;x@example.com',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'linhas_invalidas' });
    expect(bad.json().detail).toContain('Linha 3: e-mail inválido.');
    expect(bad.json().detail).toContain('Linha 4: informe o nome');
    expect(await t.app.db.select().from(teamInvites).where(eq(teamInvites.teamId, team.id))).toEqual([]);

    // Excel pt-BR: BOM, ';', quotes, accents in the titles; the same address twice counts once.
    const list =
      '\uFEFF"Nome completo";"E-MAIL"\r\nAna Sol;Ana.Sol@Example.com\r\n"Beto Lima";beto@example.com\r\nAna de novo;ana.sol@example.com\r\n';
    const ok = await send(team.id, list);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toEqual({ convidados: 2, ja_convidados: 0 });
    const again = await send(team.id, 'Nome,E-mail\nAna Sol,ana.sol@example.com');
    expect(again.json()).toEqual({ convidados: 0, ja_convidados: 1 });

    await untilJobsDone(t.app.db, 'mail.team-invite');
    const mails = readOutbox(t.dataDir).filter((m) => m.includes('convite para a equipe Assessoria Convite'));
    expect(mails).toHaveLength(2);
    const ana = mails.find((m) => m.includes('To: ana.sol@example.com'))!;
    expect(ana).toContain(
      'Carla Capitã convidou você para a equipe Assessoria Convite na Corrida dos Convites',
    );
    const beto = mails.find((m) => m.includes('To: beto@example.com'))!;

    // The captain sees names and masked addresses, pending.
    const mine = MyTeamSchema.array()
      .parse((await request('GET', captain, '/api/equipes/')).json())
      .find((x) => x.id === team.id)!;
    expect(mine.convites.map((c) => [c.nome, c.email, c.situacao])).toEqual([
      ['Ana Sol', 'an***@example.com', 'pendente'],
      ['Beto Lima', 'be***@example.com', 'pendente'],
    ]);
    expect(JSON.stringify(mine)).not.toContain('ana.sol@example.com');

    // Ana confirms by her link and is sent to the team's registration; Beto refuses and is erased.
    const view = await request('GET', null, `/api/equipes/convite/${tokenIn(ana)}/`);
    expect(TeamInviteViewSchema.parse(view.json())).toMatchObject({
      equipe: 'Assessoria Convite',
      nome: 'Ana Sol',
      situacao: 'pendente',
      convite: null,
    });
    const yes = await request('POST', null, `/api/equipes/convite/${tokenIn(ana)}/resposta/`, {
      aceito: true,
    });
    expect(yes.json()).toMatchObject({
      situacao: 'confirmado',
      convite: `/eventos/register/${race.id}?equipe=${team.codigo}`,
    });
    const no = await request('POST', null, `/api/equipes/convite/${tokenIn(beto)}/resposta/`, {
      aceito: false,
    });
    expect(no.statusCode).toBe(200);
    expect((await request('GET', null, `/api/equipes/convite/${tokenIn(beto)}/`)).statusCode).toBe(404);
    const rows = await t.app.db.select().from(teamInvites).where(eq(teamInvites.teamId, team.id));
    expect(rows.map((r) => [r.email, r.status])).toEqual([['ana.sol@example.com', 'confirmado']]);
  });

  it('caps a captain’s invitations a day, and erases the unanswered after the days set', async () => {
    const team = await makeTeam(t.app, captain, 'Equipe do Limite', race.id);
    // One left from the test above (the refused one was erased), 5 a day: a list of 5 is over.
    const over = await send(
      team.id,
      'Nome;E-mail\nA Um;a1@example.com\nA Dois;a2@example.com\nA Tres;a3@example.com\nA Quatro;a4@example.com\nA Cinco;a5@example.com',
    );
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('limite_convites');
    expect((await send(team.id, 'Nome;E-mail\nA Um;a1@example.com')).statusCode).toBe(201);

    t.clock = new Date(TEAMS_START.getTime() + 31 * 86_400_000);
    await t.app.jobs.send('privacy.team-invites', {});
    await untilJobsDone(t.app.db, 'privacy.team-invites');
    const left = await t.app.db.select().from(teamInvites);
    // Only the confirmed one stays.
    expect(left.every((r) => r.status === 'confirmado')).toBe(true);
    expect(left.map((r) => r.email)).toContain('ana.sol@example.com');
  });
});
