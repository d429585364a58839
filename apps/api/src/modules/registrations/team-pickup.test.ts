import { randomUUID } from 'node:crypto';
import { DeskTeamListSchema, DeskTeamSchema, MyTeamSchema } from '@passada/core/contracts/teams';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, registrationCheckins } from '../../db/schema/index.ts';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import {
  APPROVED_CARD,
  cpfFrom,
  participant,
  registrationCard,
  requestAs,
} from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 10:00 in Fortaleza on 24 November 2026; the race starts on the 28th.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';

/** The team's kits in one go at the desk (docs/decisions/0067, later). */
describe('the kit desk: a team’s kits handed to its collector in one go', () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let race: MadeEvent;
  let elsewhere: MadeEvent;
  let team: ReturnType<typeof MyTeamSchema.parse>;
  let cpfSeq = 720_000_000;
  const ids: Record<string, number> = {};

  const request = requestAs(() => t.app);
  const newEvent = (name: string) =>
    makeEvent(t.app.db, { name, today: TODAY, startDate: '2026-11-28', registrationDeadline: '2026-11-27' });

  async function register(name: string, fields: Record<string, unknown>, birth = '1990-05-10') {
    const cpf = cpfFrom(cpfSeq++);
    const draft = participant(race, [race.days[0]!.categories[1]!.id], {
      nome_completo: name,
      cpf,
      data_nascimento: birth,
      email: `kit.${cpf}@example.com`,
      ...fields,
    });
    const res = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: birth < '1966-11-28' ? 54.95 : 109.9,
      user: buyer,
      key: randomUUID(),
    });
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
    race = await newEvent('Corrida dos Kits da Equipe');
    elsewhere = await newEvent('Corrida de Outro Lugar');
    const captain = await createUserAndToken(t.app);
    team = MyTeamSchema.parse(
      (await request('POST', captain, '/api/equipes/', { nome: 'Kits Juntos', evento: race.id })).json(),
    );
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
});
