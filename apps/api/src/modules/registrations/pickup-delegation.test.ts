import { randomUUID } from 'node:crypto';
import { DeskSnapshotSchema } from '@passada/core/contracts/painel-checkin-desk';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, registrationCheckins, registrations } from '../../db/schema/index.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { participantLinkToken } from './participant-link.ts';

// 10:00 in Fortaleza on 24 November 2026; the race starts on the 28th.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const APPROVED_CARD = '4111111111111111';

/** Pickup by someone else, without paper (docs/decisions/0063, later), and the item to bring. */
describe('painel: the kit desk, pickup by someone else and the item to bring', () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let operator: TestStaff;
  let cpfSeq = 650_000_000;

  const request = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    who: { headers: Record<string, string> } | null,
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  const newEvent = (name: string) =>
    makeEvent(t.app.db, {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      kitSizes: [{ size: 'M', left: 50 }],
    });
  const cat = (e: MadeEvent) => e.days[0]!.categories[1]!.id;

  async function paidRegistration(event: MadeEvent, name: string, birth = '1990-05-10') {
    const draft = participant(event, [cat(event)], {
      nome_completo: name,
      cpf: cpfFrom(cpfSeq++),
      data_nascimento: birth,
      email: `corredor.${cpfSeq}@example.com`,
      tamanho_camisa: event.kitSizes![0]!.id,
    });
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      // The 60+ half price (a birth date before 1966) pays half.
      total: birth < '1966' ? 54.95 : 109.9,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    return { draft, id: paid.json().inscricao_id as number };
  }

  async function saveRules(event: MadeEvent, change: Record<string, unknown>) {
    const url = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...rules } = (await request('GET', admin, url)).json();
    const saved = await request('PUT', admin, url, { ...rules, ...change });
    expect(saved.statusCode).toBe(200);
  }

  const linkOf = async (id: number) => {
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.id, id));
    return participantLinkToken(t.env.CHECKIN_TOKEN_SECRET, {
      registrationId: id,
      expiresAt: new Date(START.getTime() + 7 * 24 * 3_600_000),
      nonce: row!.participantLinkNonce,
    });
  };

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'gerente');
  });

  it('the runner authorises a person, the desk shows them masked and records that they collected', async () => {
    const event = await newEvent('Corrida da Delegação');
    const { id } = await paidRegistration(event, 'Ana Titular');
    const delegateCpf = cpfFrom(cpfSeq++);
    const url = `/api/inscricoes/${id}/retirada-autorizada/`;
    // A CPF that is not valid is refused, as on every form.
    const bad = await request('PUT', buyer, url, { nome_completo: 'Beto', cpf: '111.111.111-11' });
    expect(bad.statusCode).toBe(400);
    // Someone else's account does not see the registration.
    const stranger = await makeBuyer(t.app);
    expect((await request('GET', stranger, url)).statusCode).toBe(404);

    const put = await request('PUT', buyer, url, { nome_completo: 'Beto Amigo', cpf: delegateCpf });
    expect(put.statusCode).toBe(200);
    const tail = delegateCpf.replace(/\D/g, '').slice(9);
    expect(put.json()).toEqual({
      permitido: true,
      motivo: null,
      autorizado: { nome: 'Beto Amigo', cpf: `***.***.***-${tail}` },
      equipe: null,
    });

    // The desk's card, online and in the offline snapshot: the name and the CPF's check digits only.
    const preview = await request('POST', operator, '/api/painel/checkin/preview/', {
      evento: event.id,
      inscricao: id,
    });
    expect(preview.json().participante.retirada_autorizada).toEqual({
      nome: 'Beto Amigo',
      cpf: `***.***.***-${tail}`,
    });
    const snapshot = DeskSnapshotSchema.parse(
      (await request('GET', operator, `/api/painel/checkin/offline/?evento=${event.id}`)).json(),
    );
    const ticket = snapshot.inscricoes.find((i) => i.id === id)!;
    expect(ticket.retirada_autorizada).toEqual({ nome: 'Beto Amigo', cpf: `***.***.***-${tail}` });
    expect(JSON.stringify(snapshot)).not.toContain(delegateCpf.replace(/\D/g, '').slice(3, 9));

    const done = await request('POST', operator, '/api/painel/checkin/', {
      evento: event.id,
      inscricao: id,
      retirou: 'autorizado',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().retirada).toMatchObject({
      retirado_por: 'autorizado',
      retirado_por_nome: 'Beto Amigo',
    });
    const [ledger] = await t.app.db
      .select()
      .from(registrationCheckins)
      .where(eq(registrationCheckins.registrationId, id));
    expect(ledger).toMatchObject({ collectedBy: 'autorizado', collectorName: 'Beto Amigo' });
    const [line] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'kit_retirado'), eq(auditLog.entityId, String(id))));
    expect(line!.after).toMatchObject({ retirado_por: 'autorizado', retirado_por_nome: 'Beto Amigo' });
    // The authorised person's CPF is never in the log.
    expect(JSON.stringify(line)).not.toContain(delegateCpf.replace(/\D/g, ''));
    // Once the kit is out there is nothing left to authorise.
    const late = await request('PUT', buyer, url, { nome_completo: 'Caio', cpf: cpfFrom(cpfSeq++) });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('kit_retirado');
  });

  it('through the participant link: authorise, revoke; the desk then hands the kit only to the runner', async () => {
    const event = await newEvent('Corrida do Link');
    const { id, draft } = await paidRegistration(event, 'Duda Link');
    const url = `/api/inscricoes/link/${await linkOf(id)}/retirada-autorizada/`;
    // The runner's own CPF is not someone else.
    const self = await request('PUT', null, url, { nome_completo: 'Duda Link', cpf: draft.cpf });
    expect(self.statusCode).toBe(400);
    const put = await request('PUT', null, url, { nome_completo: 'Edu Primo', cpf: cpfFrom(cpfSeq++) });
    expect(put.json().autorizado.nome).toBe('Edu Primo');
    const revoked = await request('DELETE', null, url);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().autorizado).toBeNull();

    const refused = await request('POST', operator, '/api/painel/checkin/', {
      evento: event.id,
      inscricao: id,
      retirou: 'autorizado',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('retirada_nao_autorizada');
    const own = await request('POST', operator, '/api/painel/checkin/', { evento: event.id, inscricao: id });
    expect(own.statusCode).toBe(200);
    expect(own.json().retirada).toMatchObject({ retirado_por: 'titular', retirado_por_nome: null });
  });

  it("follows the organiser's rules: no delegation at all, or none for the 60+ half price", async () => {
    const event = await newEvent('Corrida das Regras');
    const young = await paidRegistration(event, 'Gil Jovem');
    const senior = await paidRegistration(event, 'Seu Horácio', '1950-03-01');
    const person = () => ({ nome_completo: 'Iara Vizinha', cpf: cpfFrom(cpfSeq++) });
    // Authorised while allowed.
    expect(
      (await request('PUT', buyer, `/api/inscricoes/${senior.id}/retirada-autorizada/`, person())).statusCode,
    ).toBe(200);

    await saveRules(event, { retirada_terceiro_recusa_meia_60: true });
    const seniorNow = await request(
      'PUT',
      buyer,
      `/api/inscricoes/${senior.id}/retirada-autorizada/`,
      person(),
    );
    expect(seniorNow.statusCode).toBe(409);
    expect(seniorNow.json().detail).toMatch(/meia-entrada 60\+/);
    // The earlier authorisation no longer shows at the desk, nor lets the kit go to someone else.
    const card = await request('POST', operator, '/api/painel/checkin/preview/', {
      evento: event.id,
      inscricao: senior.id,
    });
    expect(card.json().participante.retirada_autorizada).toBeNull();
    const desk = await request('POST', operator, '/api/painel/checkin/', {
      evento: event.id,
      inscricao: senior.id,
      retirou: 'autorizado',
    });
    expect(desk.json().code).toBe('retirada_nao_autorizada');
    expect(
      (await request('PUT', buyer, `/api/inscricoes/${young.id}/retirada-autorizada/`, person())).statusCode,
    ).toBe(200);

    await saveRules(event, { retirada_terceiro_permitida: false });
    const none = await request('GET', buyer, `/api/inscricoes/${young.id}/retirada-autorizada/`);
    expect(none.json()).toMatchObject({
      permitido: false,
      motivo: 'Este evento não permite a retirada do kit por outra pessoa.',
    });
  });

  it('an offline desk records who collected the kit with the scan', async () => {
    const event = await newEvent('Corrida Offline Delegada');
    const { id } = await paidRegistration(event, 'Lia Offline');
    await request('PUT', buyer, `/api/inscricoes/${id}/retirada-autorizada/`, {
      nome_completo: 'Mário Irmão',
      cpf: cpfFrom(cpfSeq++),
    });
    const sent = await request('POST', operator, '/api/painel/checkin/offline/', {
      evento: event.id,
      mesa: 'Mesa 1',
      retiradas: [{ id: randomUUID(), inscricao: id, lida_em: START.toISOString(), retirou: 'autorizado' }],
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().resultados[0]).toMatchObject({
      situacao: 'registrada',
      retirada: { retirado_por: 'autorizado', retirado_por_nome: 'Mário Irmão' },
    });
  });

  it('an offline desk that handed the kit to a person the runner revoked meanwhile: recorded with that name, sent back as a conflict', async () => {
    const event = await newEvent('Corrida Offline Revogada');
    const { id } = await paidRegistration(event, 'Rui Revoga');
    const other = await paidRegistration(event, 'Sara Troca');
    const url = (n: number) => `/api/inscricoes/${n}/retirada-autorizada/`;
    await request('PUT', buyer, url(id), { nome_completo: 'Tião Vizinho', cpf: cpfFrom(cpfSeq++) });
    await request('PUT', buyer, url(other.id), { nome_completo: 'Ulisses Primo', cpf: cpfFrom(cpfSeq++) });
    // The desk took its list with both authorisations, then lost the network; meanwhile one runner revoked
    // hers and the other named someone else.
    const snapshot = DeskSnapshotSchema.parse(
      (await request('GET', operator, `/api/painel/checkin/offline/?evento=${event.id}`)).json(),
    );
    expect(JSON.stringify(snapshot)).toContain('Tião Vizinho');
    expect((await request('DELETE', buyer, url(id))).statusCode).toBe(200);
    await request('PUT', buyer, url(other.id), { nome_completo: 'Vera Amiga', cpf: cpfFrom(cpfSeq++) });

    const scan = (inscricao: number, nome: string) => ({
      id: randomUUID(),
      inscricao,
      lida_em: START.toISOString(),
      retirou: 'autorizado',
      autorizado_nome: nome,
    });
    const sent = await request('POST', operator, '/api/painel/checkin/offline/', {
      evento: event.id,
      mesa: 'Mesa 3',
      retiradas: [scan(id, 'Tião Vizinho'), scan(other.id, 'Ulisses Primo')],
    });
    expect(sent.statusCode).toBe(200);
    for (const [result, name] of sent
      .json()
      .resultados.map((r: object, i: number) => [r, ['Tião Vizinho', 'Ulisses Primo'][i]])) {
      expect(result).toMatchObject({ situacao: 'conflito', retirada: null });
      expect(result.mensagem).toContain(
        `revogada ou trocada depois que esta mesa baixou a lista: o kit saiu com ${name}`,
      );
    }
    // The kits are out all the same, each with who really took it.
    const rows = await t.app.db
      .select()
      .from(registrationCheckins)
      .where(inArray(registrationCheckins.registrationId, [id, other.id]));
    expect(rows.map((r) => [r.registrationId, r.collectedBy, r.collectorName]).sort()).toEqual(
      [
        [id, 'autorizado', 'Tião Vizinho'],
        [other.id, 'autorizado', 'Ulisses Primo'],
      ].sort(),
    );
  });

  it('asks the item to bring, counts it in the pickup and the report, refuses only when required', async () => {
    const event = await newEvent('Corrida Solidária');
    await saveRules(event, { item_retirada: '1 kg de alimento não perecível', item_unidade: 'kg' });
    const [a, b, c, d] = [
      await paidRegistration(event, 'Nina Alimento'),
      await paidRegistration(event, 'Otto Sem Item'),
      await paidRegistration(event, 'Paula Exigida'),
      await paidRegistration(event, 'Quim Offline'),
    ];
    const preview = await request('POST', operator, '/api/painel/checkin/preview/', {
      evento: event.id,
      inscricao: a.id,
    });
    expect(preview.json().item).toEqual({
      texto: '1 kg de alimento não perecível',
      unidade: 'kg',
      exigido: false,
    });
    const snapshot = DeskSnapshotSchema.parse(
      (await request('GET', operator, `/api/painel/checkin/offline/?evento=${event.id}`)).json(),
    );
    expect(snapshot.item).toEqual({ texto: '1 kg de alimento não perecível', unidade: 'kg', exigido: false });

    const checkIn = (id: number, extra: object = {}) =>
      request('POST', operator, '/api/painel/checkin/', { evento: event.id, inscricao: id, ...extra });
    const brought = await checkIn(a.id, { item_quantidade: 2.5 });
    expect(brought.statusCode).toBe(200);
    expect(brought.json().retirada.item_quantidade).toBe(2.5);
    // Not required: a paid kit goes out without it.
    expect((await checkIn(b.id)).statusCode).toBe(200);

    await saveRules(event, { item_exigido: true });
    const refused = await checkIn(c.id, { item_quantidade: 0 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'item_obrigatorio',
      detail: 'O organizador exige o item na retirada: 1 kg de alimento não perecível.',
    });
    expect((await checkIn(c.id, { item_quantidade: 1 })).statusCode).toBe(200);
    // Offline, queued with the pickup.
    const sent = await request('POST', operator, '/api/painel/checkin/offline/', {
      evento: event.id,
      mesa: 'Mesa 2',
      retiradas: [{ id: randomUUID(), inscricao: d.id, lida_em: START.toISOString(), item_quantidade: 3 }],
    });
    expect(sent.json().resultados[0].situacao).toBe('registrada');

    const report = await request('GET', admin, `/api/painel/relatorios/eventos/${event.id}/`);
    expect(report.statusCode).toBe(200);
    expect(report.json().retiradas).toEqual({
      total: 4,
      titular: 4,
      autorizado: 0,
      equipe: 0,
      trouxeram_item: 3,
      item_total: 6.5,
    });
  });
});
