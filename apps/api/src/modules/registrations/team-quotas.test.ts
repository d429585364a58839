import { EventSchema } from '@passada/core/contracts/events';
import { MyTeamSchema, PainelTeamQuotaSchema } from '@passada/core/contracts/teams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { waitingRoomEvent } from '../../test/factories/opening.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationPix } from '../../test/factories/registrations.ts';
import { makeTeam } from '../../test/factories/teams.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 30 * MINUTE);
let clock = new Date(T0.getTime() - 5 * MINUTE);
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

/**
 * Places reserved for named teams at an opening (docs/decisions/0076), through the HTTP layer: the
 * organiser's quota, its members passing the waiting room's turn and the lottery's draw (never the
 * limits), the public and the draw kept off its places, a place given back returning to it.
 */
describe('a team’s quota at an opening', () => {
  let t: TestApp;
  let admin: TestStaff;
  const runner = participantsFrom(737_600_000);

  beforeAll(async () => {
    t = await createTestApp({
      now: () => clock,
      env: { JOBS_ENABLED: 'false', PIX_EXPIRATION_SECONDS: '300' },
    });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(() => t.close());

  const quotaUrl = (event: MadeEvent) => `/api/painel/events/${event.id}/cotas-equipes/`;
  const setQuota = (event: MadeEvent, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: quotaUrl(event), headers: admin.headers, payload });
  const quotas = async (event: MadeEvent) =>
    PainelTeamQuotaSchema.array().parse(
      (await t.app.inject({ method: 'GET', url: quotaUrl(event), headers: admin.headers })).json(),
    );
  const publicLeft = async (event: MadeEvent, categoryId: number) => {
    const page = EventSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/` })).json(),
    );
    return page.dias_evento.flatMap((d) => d.categorias).find((c) => c.id === categoryId)!
      .quantidade_disponivel;
  };
  const pay = (who: TestUser, draft: Record<string, unknown>, total: number) =>
    registrationPix(t.app, draft, total, who.headers);

  it('in a waiting room: the members with the code register without a turn, up to the quota; the public never takes its places', async () => {
    const pub = await createUserAndToken(t.app);
    const event = await waitingRoomEvent(t.app, admin, {
      name: 'Corrida das Assessorias na Fila',
      opensAt: T0,
      setClock: (d) => {
        clock = d;
      },
      categories: [
        { name: '5 km', priceCents: 5000 },
        { name: '10 km', priceCents: 8000 },
      ],
      buyers: [pub],
      perBuyer: 1,
      perCpf: 1,
    });
    const tenK = event.days[0]!.categories[1]!.id;
    const captain = await createUserAndToken(t.app);
    const team = await makeTeam(t.app, captain, 'Assessoria Vento Norte', event.id);
    const other = await makeTeam(t.app, captain, 'Assessoria Maré Alta', event.id);

    // The organiser reserves 3 of the 20 places; more than the public could buy is refused.
    const saved = await setQuota(event, { codigo: team.codigo, categoria: tenK, vagas: 3 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(PainelTeamQuotaSchema.array().parse(saved.json())).toMatchObject([
      { equipe: { id: team.id, codigo: team.codigo }, vagas: 3, usadas: 0, ate: null, vigente: true },
    ]);
    expect(await publicLeft(event, tenK)).toBe(17);
    // The opening's live figures say the same as the event's page, and what is held apart.
    const live = (
      await t.app.inject({ url: `/api/painel/events/${event.id}/abertura/`, headers: admin.headers })
    ).json().ao_vivo;
    const fiveK = event.days[0]!.categories[0]!.id;
    expect(live).toMatchObject({
      vagas_restantes: (await publicLeft(event, fiveK)) + 17,
      vagas_reservadas: 3,
    });
    const tooMany = await setQuota(event, { codigo: other.codigo, categoria: tenK, vagas: 18 });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toMatchObject({
      code: 'vagas_insuficientes',
      detail: expect.stringContaining('17'),
    });
    const past = await setQuota(event, {
      codigo: other.codigo,
      categoria: tenK,
      vagas: 2,
      ate: at(-1).toISOString(),
    });
    expect(past.statusCode).toBe(400);

    // A captain cannot buy a block of places past the line: the quota is the organiser's way.
    const block = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: captain.headers,
      payload: {
        total: 160,
        finalidade: 'vagas_equipe',
        vagas_equipe: { equipe: team.id, categoria: tenK, quantidade: 2 },
      },
    });
    expect(block.statusCode).toBe(409);
    expect(block.json().code).toBe('vagas_equipe_indisponiveis');

    // Not admitted and without the code: the line, as before.
    const members = await Promise.all(Array.from({ length: 4 }, () => createUserAndToken(t.app)));
    const outsider = await pay(members[0]!, runner(event, 'Sem Código', tenK), 80);
    expect(outsider.statusCode).toBe(409);
    expect(outsider.json().code).toBe('fora_da_vez');
    // With the code: no turn asked, three places.
    const txids: string[] = [];
    for (const m of members.slice(0, 3)) {
      const res = await pay(m, runner(event, `Membro ${m.id}`, tenK, { equipe_codigo: team.codigo }), 80);
      expect(res.statusCode, res.body).toBe(201);
      txids.push(res.json().txid);
    }
    const fourth = await pay(
      members[3]!,
      runner(event, 'Membro Quarto', tenK, { equipe_codigo: team.codigo }),
      80,
    );
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().code).toBe('fora_da_vez');
    expect((await quotas(event))[0]).toMatchObject({ vagas: 3, usadas: 3 });
    // The captain sees the reserve and what the members used; the other team has none.
    const mine = MyTeamSchema.array().parse(
      (await t.app.inject({ method: 'GET', url: '/api/equipes/', headers: captain.headers })).json(),
    );
    expect(mine.find((x) => x.id === team.id)!.cotas).toEqual([
      { evento: 'Corrida das Assessorias na Fila', categoria: '10 km', vagas: 3, usadas: 3, ate: null },
    ]);
    expect(mine.find((x) => x.id === other.id)!.cotas).toEqual([]);
    // The quota's places were its own: the public still has 17.
    expect(await publicLeft(event, tenK)).toBe(17);
    // The organiser cannot take back what members used.
    const below = await setQuota(event, { codigo: team.codigo, categoria: tenK, vagas: 2 });
    expect(below.statusCode, below.body).toBe(409);
    expect(below.json().code).toBe('abaixo_do_usado');

    // Two pay, one Pix expires: its place returns to the quota, not to the public.
    for (const txid of txids.slice(0, 2)) expect((await simulatePixPaid(t.app, txid)).statusCode).toBe(200);
    clock = at(7);
    await t.app.payments.expireDue();
    expect((await quotas(event))[0]).toMatchObject({ usadas: 2 });
    expect(await publicLeft(event, tenK)).toBe(17);
    // The opening's limits still hold for a member: one registration per buyer, paid already.
    const twice = await pay(
      members[0]!,
      runner(event, 'Outro Membro', tenK, { equipe_codigo: team.codigo }),
      80,
    );
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('limite_por_comprador');
    const again = await pay(
      members[3]!,
      runner(event, 'Membro Quarto', tenK, { equipe_codigo: team.codigo }),
      80,
    );
    expect(again.statusCode, again.body).toBe(201);

    // A date ends it: what the members hold stays theirs, nothing more is held from the public.
    const zero = await setQuota(event, { codigo: team.codigo, categoria: tenK, vagas: 0 });
    expect(zero.statusCode).toBe(409);
    const dated = await setQuota(event, {
      codigo: team.codigo,
      categoria: tenK,
      vagas: 4,
      ate: at(61).toISOString(),
    });
    expect(PainelTeamQuotaSchema.array().parse(dated.json())[0]).toMatchObject({
      vagas: 4,
      usadas: 3,
      vigente: true,
    });
    expect(await publicLeft(event, tenK)).toBe(16);
    clock = at(62);
    expect(await t.app.registrationsAdmin.teamQuotas.sweepEnded()).toBe(1);
    expect((await quotas(event))[0]).toMatchObject({ usadas: 3, vigente: false });
    expect(await publicLeft(event, tenK)).toBe(17);

    // Another team's reserve, ended by the organiser before its date: its places are the public's at once.
    const reserved = await setQuota(event, { codigo: other.codigo, categoria: tenK, vagas: 5 });
    expect(reserved.statusCode, reserved.body).toBe(200);
    expect(await publicLeft(event, tenK)).toBe(12);
    const ended = await setQuota(event, { codigo: other.codigo, categoria: tenK, vagas: 5, encerrar: true });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(PainelTeamQuotaSchema.array().parse(ended.json())).toContainEqual(
      expect.objectContaining({
        equipe: expect.objectContaining({ id: other.id }),
        vigente: false,
        usadas: 0,
      }),
    );
    expect(await publicLeft(event, tenK)).toBe(17);
    const member = await createUserAndToken(t.app);
    const late = await pay(
      member,
      runner(event, 'Membro Atrasado', tenK, { equipe_codigo: other.codigo }),
      80,
    );
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('fora_da_vez');
  });

  it('in the shop’s cart: a member with the code takes the quota’s place without a turn, as on the direct registration', async () => {
    const event = await waitingRoomEvent(t.app, admin, {
      name: 'Corrida das Assessorias no Carrinho',
      opensAt: T0,
      setClock: (d) => {
        clock = d;
      },
      categories: [{ name: '10 km', priceCents: 8000 }],
      buyers: [],
      perBuyer: 1,
      perCpf: 1,
    });
    const tenK = event.days[0]!.categories[0]!.id;
    const team = await makeTeam(t.app, await createUserAndToken(t.app), 'Assessoria do Carrinho', event.id);
    expect((await setQuota(event, { codigo: team.codigo, categoria: tenK, vagas: 1 })).statusCode).toBe(200);
    const cart = async (fields: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/pagar-pix/',
        headers: (await makeBuyer(t.app)).headers,
        payload: {
          total: 80,
          finalidade: 'pedido',
          pedido: { metodo_pagamento: 'pix', inscricoes: [runner(event, 'No Carrinho', tenK, fields)] },
        },
      });
    const without = await cart({});
    expect(without.statusCode).toBe(409);
    expect(without.json().code).toBe('fora_da_vez');
    const member = await cart({ equipe_codigo: team.codigo });
    expect(member.statusCode, member.body).toBe(201);
    expect((await quotas(event))[0]).toMatchObject({ vagas: 1, usadas: 1 });
    expect((await simulatePixPaid(t.app, member.json().txid)).statusCode).toBe(200);
    // The quota is used: the next member with the code waits for a turn like anyone.
    const next = await cart({ equipe_codigo: team.codigo });
    expect(next.statusCode).toBe(409);
    expect(next.json().code).toBe('fora_da_vez');
    expect((await quotas(event))[0]).toMatchObject({ usadas: 1 });
  });

  it('in a lottery: the members register from the first draw without being drawn, and the draw leaves the quota’s places alone', async () => {
    clock = at(100);
    const event = await makeEvent(t.app.db, {
      name: 'Corrida das Assessorias no Sorteio',
      days: [[{ name: '10 km', priceCents: 5000, placesLeft: 5 }]],
    });
    const tenK = event.days[0]!.categories[0]!.id;
    const opening = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${event.id}/abertura/`,
      headers: admin.headers,
      payload: {
        modo: 'sorteio',
        abre_em: at(110).toISOString(),
        pre_fila_minutos: 0,
        admitidos_por_minuto: null,
        minutos_da_vez: 15,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: 2,
        sorteio: {
          inscricoes_de: at(110).toISOString(),
          inscricoes_ate: at(160).toISOString(),
          vagas: 5,
          horas_para_pagar: 2,
        },
      },
    });
    expect(opening.statusCode, opening.body).toBe(200);
    await t.app.opening.refresh();
    const captain = await createUserAndToken(t.app);
    const team = await makeTeam(t.app, captain, 'Assessoria do Sorteio', event.id);
    expect((await setQuota(event, { codigo: team.codigo, categoria: tenK, vagas: 2 })).statusCode).toBe(200);

    // Five enter the draw; the quota's two places are not the draw's to give.
    clock = at(120);
    const entrants = await Promise.all(Array.from({ length: 5 }, () => createUserAndToken(t.app)));
    for (const [i, e] of entrants.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/events/${event.id}/sorteio/`,
        headers: e.headers,
        payload: {
          nome_completo: `Sorteio ${i}`,
          cpf: runner(event, 'x', tenK).cpf,
          email: e.email,
          data_nascimento: '1990-05-10',
          categoria: tenK,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const member = await createUserAndToken(t.app);
    const beforeDraw = await pay(
      member,
      runner(event, 'Membro Cedo', tenK, { equipe_codigo: team.codigo }),
      50,
    );
    expect(beforeDraw.statusCode).toBe(409);
    expect(beforeDraw.json().code).toBe('inscricao_por_sorteio');
    const staffPost = (path: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/painel/events/${event.id}/sorteio/${path}/`,
        headers: admin.headers,
      });
    expect((await staffPost('compromisso')).statusCode).toBe(200);
    clock = at(170);
    const drawn = await staffPost('sortear');
    expect(drawn.statusCode, drawn.body).toBe(200);
    expect(drawn.json().sorteio.aguardando_pagamento).toBe(3);

    // A member not drawn registers; a stranger not drawn cannot.
    const res = await pay(
      member,
      runner(event, 'Membro Da Equipe', tenK, { equipe_codigo: team.codigo }),
      50,
    );
    expect(res.statusCode, res.body).toBe(201);
    const stranger = await createUserAndToken(t.app);
    const refused = await pay(stranger, runner(event, 'Sem Equipe', tenK), 50);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('nao_sorteado');
    expect((await quotas(event))[0]).toMatchObject({ vagas: 2, usadas: 1 });
  });
});
