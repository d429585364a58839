import { randomUUID } from 'node:crypto';
import { decideOfflineScan, indexSnapshot, ticketHash } from '@passada/core/checkin-offline';
import { DeskSnapshotSchema } from '@passada/core/contracts/painel-checkin-desk';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  eventDeskChanges,
  registrationCheckins,
  registrationOfflinePickups,
  staff,
} from '../../db/schema/index.ts';
import { readOutbox } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard, ticketOf } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

// 10:00 in Fortaleza on 24 November 2026; the race starts on the 28th.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const APPROVED_CARD = '4111111111111111';

/** The kit desk: search by bib, a transferred registration's old code, the offline snapshot and sync. */
describe('painel: the kit desk', () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let friend: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let operator: TestStaff;
  let praia: MadeEvent;
  let serra: MadeEvent;
  let cpfSeq = 640_000_000;

  const request = (
    method: 'GET' | 'POST' | 'PUT',
    who: { headers: Record<string, string> } | null,
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...(who?.headers ?? {}), ...headers },
      ...(payload ? { payload } : {}),
    });
  const newEvent = (name: string) =>
    makeEvent(t.app.db, {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      kitSizes: [{ size: 'M', left: 50 }],
    });
  const cat = (e: MadeEvent) => e.days[0]!.categories[1]!.id;

  /** One runner registered by the buyer and paid by card. */
  async function paidRegistration(event: MadeEvent, name: string, extra: Record<string, unknown> = {}) {
    const draft = participant(event, [cat(event)], {
      nome_completo: name,
      cpf: cpfFrom(cpfSeq++),
      data_nascimento: '1990-05-10',
      email: `corredor.${cpfSeq}@example.com`,
      tamanho_camisa: event.kitSizes![0]!.id,
      ...extra,
    });
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: 109.9,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    return { draft, id: paid.json().inscricao_id as number };
  }

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    friend = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'gerente');
    praia = await newEvent('Corrida da Praia');
    serra = await newEvent('Subida da Serra');
  });

  it('finds a runner by bib number, next to name, CPF and registration number', async () => {
    const ana = await paidRegistration(praia, 'Ana Peito');
    const bia = await paidRegistration(praia, 'Bia Peito');
    const bibs = await request('POST', admin, `/api/painel/events/${praia.id}/numeros-de-peito/`, {
      modo: 'sequencia',
      inicio: 7001,
    });
    expect(bibs.statusCode).toBe(200);
    const search = (busca: string) =>
      request('GET', operator, `/api/painel/checkin/search/?evento=${praia.id}&busca=${busca}`);
    const byBib = await search('7002');
    expect(byBib.statusCode).toBe(200);
    expect(byBib.json()).toMatchObject([
      { id: bia.id, nome_completo: 'Bia Peito', categorias: [{ numero_peito: 7002 }] },
    ]);
    expect((await search('7001')).json().map((p: { id: number }) => p.id)).toEqual([ana.id]);
    // A bib of no one finds no one.
    expect((await search('7999')).json()).toEqual([]);
    // Another event's desk does not see this event's bibs.
    expect(
      (await request('GET', operator, `/api/painel/checkin/search/?evento=${serra.id}&busca=7002`)).json(),
    ).toEqual([]);
  });

  it("a transferred registration's old code says it was replaced, not forged; the new one is taken", async () => {
    const url = `/api/painel/events/${praia.id}/pos-venda/`;
    const { texto: _, ...rules } = (await request('GET', admin, url)).json();
    expect((await request('PUT', admin, url, { ...rules, transferencia_taxa: 15 })).statusCode).toBe(200);
    const { draft, id } = await paidRegistration(praia, 'Rita Antiga');
    const oldTicket = await ticketOf(t.app, buyer.headers, draft.cpf, praia.id);

    const to = { nome_completo: 'Bruno Novo', cpf: cpfFrom(cpfSeq++), email: `bruno.${cpfSeq}@example.com` };
    expect((await request('POST', buyer, `/api/inscricoes/${id}/transferir/`, to)).statusCode).toBe(201);
    const token = readOutbox(t.dataDir)
      .filter((m) => m.includes(to.email))
      .at(-1)
      ?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    const done = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: {
        ...participant(praia, [cat(praia)], { ...to, data_nascimento: '1992-03-04' }),
        transferencia: token,
      },
      total: 15,
      user: friend,
      key: randomUUID(),
    });
    expect(done.statusCode).toBe(200);

    for (const path of ['/api/painel/checkin/preview/', '/api/painel/checkin/']) {
      const old = await request('POST', operator, path, { evento: praia.id, codigo: oldTicket });
      expect(old.statusCode).toBe(400);
      expect(old.json()).toMatchObject({ code: 'qr_invalido' });
      expect(old.json().detail).toMatch(/^Inscrição transferida: o código foi substituído\./);
    }
    // A code tampered with still reads as forged.
    const tampered = oldTicket.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const forged = await request('POST', operator, '/api/painel/checkin/preview/', {
      evento: praia.id,
      codigo: tampered,
    });
    expect(forged.json().detail).toMatch(/^QR code inválido: a assinatura não confere/);
    const newTicket = await ticketOf(t.app, friend.headers, to.cpf, praia.id);
    const ok = await request('POST', operator, '/api/painel/checkin/preview/', {
      evento: praia.id,
      codigo: newTicket,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      participante: { nome_completo: 'Bruno Novo' },
      situacao: 'pode_retirar',
    });
  });

  it('gives a volunteer the snapshot of her event only, without codes or whole CPFs, and a cheap refresh', async () => {
    const volunteer = await createStaffAndLogin(t.app, 'checkin', { eventos: [serra.id] });
    const rui = await paidRegistration(serra, 'Rui Instantâneo');
    const ticket = await ticketOf(t.app, buyer.headers, rui.draft.cpf, serra.id);
    const url = (e: MadeEvent) => `/api/painel/checkin/offline/?evento=${e.id}`;
    expect((await request('GET', volunteer, url(praia))).statusCode).toBe(403);
    expect((await request('GET', null, url(serra))).statusCode).toBe(401);

    const res = await request('GET', volunteer, url(serra));
    expect(res.statusCode).toBe(200);
    const snapshot = DeskSnapshotSchema.parse(res.json());
    const entry = snapshot.inscricoes.find((i) => i.id === rui.id)!;
    const digits = rui.draft.cpf.replace(/\D/g, '');
    expect(entry).toMatchObject({
      nome: 'Rui Instantâneo',
      cpf: `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`,
      categorias: [{ nome: expect.any(String), numero_peito: null }],
      tamanho_camisa: 'M',
      cancelada: false,
      transferida: false,
      retirada: null,
    });
    // Neither the code, nor its nonce, nor a whole CPF travels; the code's hash does.
    const nonce = ticket.split('.')[2]!;
    expect(res.body).not.toContain(nonce);
    expect(res.body).not.toContain(ticket.split('.').at(-1)!);
    expect(res.body).not.toContain(digits);
    expect(entry.codigo_hash).toBe(await ticketHash(ticket));

    // The desk decides offline from it: the real code passes, a forged or another event's one does not.
    const index = indexSnapshot(snapshot);
    expect(await decideOfflineScan(serra.id, index, ticket)).toMatchObject({ kind: 'pode_retirar' });
    const forged = ticket.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect(await decideOfflineScan(serra.id, index, forged)).toMatchObject({ kind: 'recusado' });
    expect(await decideOfflineScan(praia.id, index, ticket)).toMatchObject({
      kind: 'recusado',
      message: expect.stringMatching(/de outro evento/),
    });

    // Unchanged: 304 with no body. After a pickup: a new version.
    const etag = res.headers.etag as string;
    expect(etag).toBe(`"${snapshot.versao}"`);
    const same = await request('GET', volunteer, url(serra), undefined, { 'if-none-match': etag });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(
      (await request('POST', volunteer, '/api/painel/checkin/', { evento: serra.id, inscricao: rui.id }))
        .statusCode,
    ).toBe(200);
    const after = await request('GET', volunteer, url(serra), undefined, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.json().versao).not.toBe(snapshot.versao);
    expect(after.json().inscricoes.find((i: { id: number }) => i.id === rui.id).retirada).toMatchObject({
      por: expect.any(String),
      mesa: null,
    });
  });

  it('takes a batch of offline pickups once: a retry is not counted twice, a second desk gets a conflict with who and when', async () => {
    const mesaA = await createStaffAndLogin(t.app, 'checkin', { eventos: [praia.id] });
    const mesaB = await createStaffAndLogin(t.app, 'checkin', { eventos: [praia.id] });
    const caio = await paidRegistration(praia, 'Caio Conflito');
    const dora = await paidRegistration(praia, 'Dora Online');
    const elsewhere = await paidRegistration(serra, 'Eva Outro Evento');
    const send = (who: TestStaff, mesa: string, retiradas: object[]) =>
      request('POST', who, '/api/painel/checkin/offline/', { evento: praia.id, mesa, retiradas });

    const scanA = { id: randomUUID(), inscricao: caio.id, lida_em: '2026-11-24T12:50:00.000Z' };
    const first = await send(mesaA, 'Mesa A', [scanA]);
    expect(first.statusCode).toBe(200);
    const [{ name: mesaAName }] = (await t.app.db
      .select({ name: staff.name })
      .from(staff)
      .where(eq(staff.id, mesaA.id))) as [{ name: string }];
    expect(first.json().resultados).toEqual([
      {
        id: scanA.id,
        inscricao: caio.id,
        situacao: 'registrada',
        repetida: false,
        retirada: {
          em: scanA.lida_em,
          por: mesaAName,
          mesa: 'Mesa A',
          retirado_por: 'titular',
          retirado_por_nome: null,
        },
        mensagem: null,
      },
    ]);

    // Desk B handed the same kit out offline, later; Dora's kit went out online meanwhile.
    expect(
      (await request('POST', operator, '/api/painel/checkin/', { evento: praia.id, inscricao: dora.id }))
        .statusCode,
    ).toBe(200);
    const scanB = { id: randomUUID(), inscricao: caio.id, lida_em: '2026-11-24T12:55:00.000Z' };
    const scanDora = { id: randomUUID(), inscricao: dora.id, lida_em: '2026-11-24T12:56:00.000Z' };
    const scanOther = { id: randomUUID(), inscricao: elsewhere.id, lida_em: '2026-11-24T12:57:00.000Z' };
    const second = await send(mesaB, 'Mesa B', [scanB, scanDora, scanOther]);
    expect(second.statusCode).toBe(200);
    const [b, d, o] = second.json().resultados;
    expect(b).toMatchObject({
      situacao: 'conflito',
      repetida: false,
      retirada: { em: scanA.lida_em, por: mesaAName, mesa: 'Mesa A' },
      mensagem: expect.stringMatching(/^Kit já retirado em 24\/11\/2026,? 09:50 por .+ \(Mesa A\)\.$/),
    });
    expect(d).toMatchObject({ situacao: 'conflito', retirada: { mesa: null } });
    expect(o).toMatchObject({
      situacao: 'recusada',
      mensagem: expect.stringMatching(/não é deste check-in/),
    });

    // Desk A's batch sent again (the answer was lost): the same answer, nothing counted twice.
    const retry = await send(mesaA, 'Mesa A', [scanA]);
    expect(retry.json().resultados).toEqual([{ ...first.json().resultados[0], repetida: true }]);
    const ledger = await t.app.db
      .select()
      .from(registrationCheckins)
      .where(eq(registrationCheckins.registrationId, caio.id));
    expect(ledger).toMatchObject([{ staffName: mesaAName, desk: 'Mesa A', at: new Date(scanA.lida_em) }]);
    // Both scans are kept: the ledger's pickup and the one that met it.
    const scans = await t.app.db
      .select()
      .from(registrationOfflinePickups)
      .where(eq(registrationOfflinePickups.registrationId, caio.id));
    expect(scans.map((s) => [s.desk, s.outcome]).sort()).toEqual([
      ['Mesa A', 'registrada'],
      ['Mesa B', 'conflito'],
    ]);
    // Desk B sees it too in its next snapshot.
    const snapshot = (await request('GET', mesaB, `/api/painel/checkin/offline/?evento=${praia.id}`)).json();
    expect(snapshot.inscricoes.find((i: { id: number }) => i.id === caio.id).retirada).toMatchObject({
      mesa: 'Mesa A',
    });
  });

  it('refuses a bad batch in Portuguese and writes nothing; a desk clock ahead does not date a pickup in the future', async () => {
    const desk = await createStaffAndLogin(t.app, 'checkin', { eventos: [praia.id] });
    const fabio = await paidRegistration(praia, 'Fábio Relógio');
    const send = (body: object) => request('POST', desk, '/api/painel/checkin/offline/', body);
    const scan = { id: randomUUID(), inscricao: fabio.id, lida_em: '2026-11-24T12:00:00.000Z' };
    const noDesk = await send({ evento: praia.id, mesa: ' ', retiradas: [scan] });
    expect(noDesk.statusCode).toBe(400);
    expect(JSON.stringify(noDesk.json())).toContain('Dê um nome a esta mesa.');
    const badDate = await send({
      evento: praia.id,
      mesa: 'Mesa C',
      retiradas: [{ ...scan, lida_em: 'ontem' }],
    });
    expect(badDate.statusCode).toBe(400);
    expect(JSON.stringify(badDate.json())).toContain('Informe quando o kit foi entregue.');
    expect((await send({ evento: serra.id, mesa: 'Mesa C', retiradas: [scan] })).statusCode).toBe(403);
    // More than CHECKIN_OFFLINE_BATCH_MAX (500) in one batch: refused whole.
    const many = Array.from({ length: 501 }, () => ({ ...scan, id: randomUUID() }));
    const tooMany = await send({ evento: praia.id, mesa: 'Mesa C', retiradas: many });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({
      code: 'lote_grande',
      detail: 'Envie no máximo 500 retiradas por vez.',
    });
    expect(
      await t.app.db
        .select()
        .from(registrationCheckins)
        .where(eq(registrationCheckins.registrationId, fabio.id)),
    ).toEqual([]);

    const ahead = await send({
      evento: praia.id,
      mesa: 'Mesa C',
      retiradas: [{ ...scan, lida_em: '2026-11-25T13:00:00.000Z' }],
    });
    expect(ahead.json().resultados[0]).toMatchObject({
      situacao: 'registrada',
      retirada: { em: START.toISOString() },
    });
  });

  it("answers 304 from the event's counter without building the snapshot; each write it shows moves it", async () => {
    const event = await newEvent('Corrida do Contador');
    const { id } = await paidRegistration(event, 'Vera Versão');
    const get = (etag?: string) =>
      request(
        'GET',
        operator,
        `/api/painel/checkin/offline/?evento=${event.id}`,
        undefined,
        etag ? { 'if-none-match': etag } : {},
      );
    const rulesUrl = `/api/painel/events/${event.id}/pos-venda/`;
    const writes = [
      () =>
        request('POST', admin, `/api/painel/events/${event.id}/numeros-de-peito/`, {
          modo: 'sequencia',
          inicio: 9001,
        }),
      async () => {
        const { texto: _, ...rules } = (await request('GET', admin, rulesUrl)).json();
        return request('PUT', admin, rulesUrl, { ...rules, item_retirada: '1 kg de alimento' });
      },
      () => request('POST', operator, '/api/painel/checkin/', { evento: event.id, inscricao: id }),
      // The snapshot shows each race's name and start wave: renaming one or setting waves moves it too.
      async () => {
        const { id: _, ...form } = (await request('GET', admin, `/api/painel/events/${event.id}/`)).json();
        form.dias_evento[0].categorias[0].nome_categoria = '5 km Rústica';
        return request('PUT', admin, `/api/painel/events/${event.id}/`, form);
      },
      () =>
        request(
          'PUT',
          admin,
          `/api/painel/events/${event.id}/categorias/${event.days[0]!.categories[0]!.id}/ondas/`,
          {
            ondas: [
              { nome: 'Onda A', ate: '0:30', capacidade: null },
              { nome: 'Onda B', ate: null, capacidade: null },
            ],
          },
        ),
    ];
    const built = vi.spyOn(t.app.registrationsAdmin, 'deskSnapshot');
    try {
      let etag = (await get()).headers.etag as string;
      expect(built).toHaveBeenCalledTimes(1);
      const same = await get(etag);
      expect(same.statusCode).toBe(304);
      // The rows were not read to say so.
      expect(built).toHaveBeenCalledTimes(1);
      for (const write of writes) {
        expect((await write()).statusCode).toBe(200);
        const next = await get(etag);
        expect(next.statusCode).toBe(200);
        expect(next.headers.etag).not.toBe(etag);
        etag = next.headers.etag as string;
      }
      expect(built).toHaveBeenCalledTimes(1 + writes.length);
      // The nightly pruning leaves the version where it was: the desk's copy stays current.
      const logged = () =>
        t.app.db.select().from(eventDeskChanges).where(eq(eventDeskChanges.eventId, event.id));
      expect((await logged()).length).toBeGreaterThan(1);
      await t.app.jobs.send('checkin.prune-desk-changes', {});
      await untilJobsDone(t.app.db, 'checkin.prune-desk-changes');
      expect(await logged()).toHaveLength(1);
      expect((await get(etag)).statusCode).toBe(304);
    } finally {
      built.mockRestore();
    }
  });
});
