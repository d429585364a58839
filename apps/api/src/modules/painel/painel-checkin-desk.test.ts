import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard, ticketOf } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

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
});
