import { DeskTeamListSchema, DeskTeamSchema, type MyTeam } from '@passada/core/contracts/teams';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, registrationCheckins, registrations } from '../../db/schema/index.ts';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { requestAs } from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START, teamRegistrar, teamsRace } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { createTeamPickup } from './team-pickup.ts';

/** The team's kits in one go at the desk (docs/decisions/0067, later). */
describe('the kit desk: a team’s kits handed to its collector in one go', () => {
  const t = useClockedTestApp(TEAMS_START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let race: MadeEvent;
  let elsewhere: MadeEvent;
  let team: MyTeam;
  const ids: Record<string, number> = {};

  const request = requestAs(() => t.app);
  const registrar = teamRegistrar(
    () => t.app,
    () => buyer,
    720_000_000,
  );
  async function register(name: string, fields: Record<string, unknown>, birth = '1990-05-10') {
    const { res } = await registrar(race, { nome_completo: name, data_nascimento: birth, ...fields });
    expect(res.statusCode).toBe(200);
    ids[name] = res.json().inscricao_id as number;
  }

  async function saveRules(changes: Record<string, unknown>) {
    const url = `/api/painel/events/${race.id}/pos-venda/`;
    const { texto: _, ...body } = (await request('GET', admin, url)).json();
    expect((await request('PUT', admin, url, { ...body, ...changes })).statusCode).toBe(200);
  }

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
    race = await teamsRace(t.app, 'Corrida dos Kits da Equipe');
    elsewhere = await teamsRace(t.app, 'Corrida de Outro Lugar');
    team = await makeTeam(t.app, await createUserAndToken(t.app), 'Kits Juntos', race.id);
    const code = { equipe_codigo: team.codigo };
    await register('Ana Autoriza', { ...code, retirada_pela_equipe: true });
    await register('Bia Sozinha', code);
    await register('Caio Sessenta', { ...code, retirada_pela_equipe: true }, '1950-01-01');
    await register('Davi Autoriza', { ...code, retirada_pela_equipe: true });
    // Outside the team, even if the box was ticked: no code, no team.
    await register('Eva Sem Equipe', { retirada_pela_equipe: true });
  });

  it('lists which kits may go with the team: only those the runner let go, within the event’s rules', async () => {
    await saveRules({
      retirada_terceiro_recusa_meia_60: true,
      item_retirada: 'Alimento não perecível',
      item_unidade: 'kg',
      item_exigido: true,
    });
    const list = await request('GET', admin, `/api/painel/checkin/equipes/?evento=${race.id}`);
    expect(list.statusCode).toBe(200);
    expect(DeskTeamListSchema.parse(list.json())).toEqual([
      { id: team.id, nome: 'Kits Juntos', codigo: team.codigo, membros: 4, prontos: 2 },
    ]);
    const view = DeskTeamSchema.parse(
      (await request('GET', admin, `/api/painel/checkin/equipes/${team.id}/?evento=${race.id}`)).json(),
    );
    expect(view.item).toEqual({ texto: 'Alimento não perecível', unidade: 'kg', exigido: true });
    expect(view.membros.map((m) => [m.nome, m.situacao, m.motivo])).toEqual([
      ['Ana Autoriza', 'pronto', null],
      ['Bia Sozinha', 'sem_autorizacao', null],
      [
        'Caio Sessenta',
        'recusado',
        'Inscrições com meia-entrada 60+ só podem ter o kit retirado pelo próprio titular, com documento.',
      ],
      ['Davi Autoriza', 'pronto', null],
    ]);
    // The team of another event is not this desk's.
    expect(
      (await request('GET', admin, `/api/painel/checkin/equipes/${team.id}/?evento=${elsewhere.id}`))
        .statusCode,
    ).toBe(404);
  });

  it('hands the ready kits to the named collector with the item, once; a volunteer of another event cannot', async () => {
    // Davi collects his own kit first, at the desk.
    const own = await request('POST', admin, '/api/painel/checkin/', {
      evento: race.id,
      inscricao: ids['Davi Autoriza'],
      item_quantidade: 1,
    });
    expect(own.statusCode).toBe(200);

    const url = `/api/painel/checkin/equipes/${team.id}/retirada/`;
    const volunteer = await createStaffAndLogin(t.app, 'checkin', { eventos: [elsewhere.id] });
    const body = { evento: race.id, retirado_por_nome: 'Paula Capitã' };
    expect((await request('POST', volunteer, url, { ...body, item_quantidade_por_kit: 1 })).statusCode).toBe(
      403,
    );
    const noItem = await request('POST', admin, url, body);
    expect(noItem.statusCode).toBe(409);
    expect(noItem.json().code).toBe('item_obrigatorio');
    expect((await request('POST', admin, url, { ...body, retirado_por_nome: ' ' })).statusCode).toBe(400);

    const done = await request('POST', admin, url, { ...body, item_quantidade_por_kit: 2 });
    expect(done.statusCode).toBe(200);
    expect(done.json().entregues).toBe(1);
    const rows = await t.app.db.select().from(registrationCheckins);
    const ana = rows.find((r) => r.registrationId === ids['Ana Autoriza'])!;
    expect(ana).toMatchObject({ collectedBy: 'equipe', collectorName: 'Paula Capitã', itemQuantity: 2 });
    expect(rows.find((r) => r.registrationId === ids['Davi Autoriza'])).toMatchObject({
      collectedBy: 'titular',
    });
    for (const name of ['Bia Sozinha', 'Caio Sessenta', 'Eva Sem Equipe'])
      expect(rows.find((r) => r.registrationId === ids[name])).toBeUndefined();

    // The runner's own card at the desk says who took it.
    const card = await request('POST', admin, '/api/painel/checkin/preview/', {
      evento: race.id,
      inscricao: ids['Ana Autoriza'],
    });
    expect(card.json().participante.retirada).toMatchObject({
      retirado_por: 'equipe',
      retirado_por_nome: 'Paula Capitã',
    });
    // Nothing left to hand: said, not repeated.
    const again = await request('POST', admin, url, { ...body, item_quantidade_por_kit: 2 });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('nada_a_entregar');
    const [audit] = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'kits_equipe_retirados'));
    expect(audit).toMatchObject({ entity: 'equipe_de_corrida', entityId: String(team.id) });
    expect(audit!.after).toMatchObject({ entregues: 1, inscricoes: [ids['Ana Autoriza']] });
    // The event's report counts the kit that went with the team.
    const report = await request('GET', admin, `/api/painel/relatorios/eventos/${race.id}/`);
    expect(report.statusCode).toBe(200);
    expect(report.json().retiradas).toMatchObject({ total: 2, equipe: 1, titular: 1, autorizado: 0 });
  });

  it('the runner lets the team collect, or takes it back, from their account while the kit is at the desk', async () => {
    const url = (name: string) => `/api/inscricoes/${ids[name]}/retirada-equipe/`;
    const bia = await request('PUT', buyer, url('Bia Sozinha'), { autorizada: true });
    expect(bia.statusCode).toBe(200);
    expect(bia.json().equipe).toEqual({ nome: 'Kits Juntos', autorizada: true });
    const list = await request('GET', admin, `/api/painel/checkin/equipes/?evento=${race.id}`);
    expect(DeskTeamListSchema.parse(list.json())[0]).toMatchObject({ membros: 4, prontos: 1 });
    // Taken back before the team came: the kit goes only to her again.
    const back = await request('PUT', buyer, url('Bia Sozinha'), { autorizada: false });
    expect(back.json().equipe).toEqual({ nome: 'Kits Juntos', autorizada: false });
    const after = await request('GET', admin, `/api/painel/checkin/equipes/?evento=${race.id}`);
    expect(DeskTeamListSchema.parse(after.json())[0]).toMatchObject({ prontos: 0 });

    // The 60+ half price stays with its runner under this event's rules; no team, nothing to let; a kit
    // already out, nothing to take back; someone else's registration is not found.
    const caio = await request('PUT', buyer, url('Caio Sessenta'), { autorizada: true });
    expect(caio.statusCode).toBe(409);
    expect(caio.json().code).toBe('retirada_terceiro_recusada');
    const eva = await request('PUT', buyer, url('Eva Sem Equipe'), { autorizada: true });
    expect(eva.json().code).toBe('sem_equipe');
    const ana = await request('PUT', buyer, url('Ana Autoriza'), { autorizada: false });
    expect(ana.json().code).toBe('kit_retirado');
    const stranger = await createUserAndToken(t.app);
    expect((await request('PUT', stranger, url('Bia Sozinha'), { autorizada: true })).statusCode).toBe(404);
  });

  it('a consent taken back, or a place transferred out, after the desk read the team leaves that kit out', async () => {
    await register('Fábio Autoriza', { equipe_codigo: team.codigo, retirada_pela_equipe: true });
    await register('Gil Desiste', { equipe_codigo: team.codigo, retirada_pela_equipe: true });
    await register('Hugo Sai', { equipe_codigo: team.codigo, retirada_pela_equipe: true });
    // The desk's hand-out with the check-in's row lock, where, just before each lock is taken, Gil takes
    // his consent back and Hugo's place leaves the team (both committed before the lock in real life).
    const pickup = createTeamPickup({
      db: t.app.db,
      now: () => TEAMS_START,
      async lockForCheckin(tx, id) {
        if (id === ids['Gil Desiste'])
          await tx.update(registrations).set({ teamPickupConsentAt: null }).where(eq(registrations.id, id));
        if (id === ids['Hugo Sai'])
          await tx.update(registrations).set({ teamId: null }).where(eq(registrations.id, id));
        const [row] = await tx
          .select({ cancelledAt: registrations.cancelledAt })
          .from(registrations)
          .where(eq(registrations.id, id))
          .for('update');
        return row ?? null;
      },
    });
    const done = await t.app.db.transaction((tx) =>
      pickup.handOut(
        tx,
        team.id,
        race.id,
        { id: admin.id, name: 'Equipe do Balcão' },
        {
          collectorName: 'Paula Capitã',
          itemQuantity: 1,
        },
      ),
    );
    expect(done.entregues).toBe(1);
    const out = await t.app.db.select().from(registrationCheckins);
    const taken = (name: string) => out.some((r) => r.registrationId === ids[name]);
    expect([taken('Fábio Autoriza'), taken('Gil Desiste'), taken('Hugo Sai')]).toEqual([true, false, false]);
    expect(done.equipe.membros.find((m) => m.nome === 'Gil Desiste')?.situacao).toBe('sem_autorizacao');
    expect(done.equipe.membros.map((m) => m.nome)).not.toContain('Hugo Sai');
  });
});
