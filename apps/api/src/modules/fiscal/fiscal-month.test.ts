import { randomUUID } from 'node:crypto';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fiscalDocuments } from '../../db/schema/index.ts';
import { createFocusProvider } from '../../providers/invoicing/focus.provider.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { saveFiscalSettings } from '../../test/factories/fiscal.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * One NFS-e per event per month (NFSE_GROUPING=event_month, docs/decisions/0049): nothing is issued at
 * payment; at the month's turn the job (or staff's "Emitir agora") issues one nota per event for the
 * month's paid registrations, once per (event, month); a registration cancelled before is left out, one
 * cancelled after is written on the nota; each runner's registration links the month's nota.
 */

/** The month a moment falls in, on the store's calendar, and a moment in the month after. */
const monthOf = (d: Date) => dateInTimeZone(d, STORE_TIME_ZONE).slice(0, 7);
function nextMonthMoment(d: Date): Date {
  const [y, m] = monthOf(d).split('-').map(Number) as [number, number];
  return new Date(Date.UTC(m === 12 ? y + 1 : y, m === 12 ? 0 : m, 2, 15));
}

async function setup(invoicing?: ReturnType<typeof createFocusProvider>) {
  const clock = { now: new Date() };
  const t = await createTestApp({
    env: { NFSE_GROUPING: 'event_month' },
    now: () => clock.now,
    ...(invoicing ? { providers: { invoicing } } : {}),
  });
  const admin = await createStaffAndLogin(t.app, 'admin');
  await saveFiscalSettings(t.app, admin.headers);
  return { t, admin, clock };
}

async function register(t: TestApp, event: MadeEvent, cpfBase: number, total = 89.9) {
  const runner = await makeBuyer(t.app);
  const res = await registrationCard(t.app, {
    number: '4111111111111111',
    draft: participant(event, [event.days[0]!.categories[0]!.id], { cpf: cpfFrom(cpfBase) }),
    total,
    user: runner,
    key: randomUUID(),
  });
  expect(res.statusCode).toBe(200);
  return { runner, id: (res.json().inscricao_id ?? res.json().id) as number };
}

const monthNotas = async (t: TestApp, staff: TestStaff, mes: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/painel/fiscal/nfse-mensal/?mes=${mes}`,
    headers: staff.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as Array<Record<string, unknown>>;
};
const issueNow = (t: TestApp, staff: TestStaff, mes: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/painel/fiscal/nfse-mensal/',
    headers: staff.headers,
    payload: { mes },
  });

describe('one NFS-e per event per month, offline issuer, through the monthly job', () => {
  let t: TestApp;
  let admin: TestStaff;
  let clock: { now: Date };
  beforeAll(async () => {
    ({ t, admin, clock } = await setup());
  }, 60_000);
  afterAll(() => t.close());

  it('issues nothing at payment; at the month’s turn one nota per event, once; the runner’s registration links it', async () => {
    const a = await makeEvent(t.database.db, { name: 'Corrida Mensal A' });
    const b = await makeEvent(t.database.db, { name: 'Corrida Mensal B' });
    const ra1 = await register(t, a, 881_000_001);
    const ra2 = await register(t, a, 881_000_002);
    const rb = await register(t, b, 881_000_003);
    const gone = await register(t, a, 881_000_004);
    const paidMonth = monthOf(clock.now);

    // A registration cancelled before the month's nota is left out of it.
    const financeiro = await createStaffAndLogin(t.app, 'financeiro');
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/painel/registrations/${gone.id}/cancel/`,
      headers: financeiro.headers,
      payload: { motivo: 'Desistência' },
    });
    expect(cancel.statusCode).toBe(200);

    // The month is not over yet: staff are told so, nothing is written.
    const early = await issueNow(t, admin, paidMonth);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      code: 'mes_em_aberto',
      detail: expect.stringMatching(/ainda não terminou/),
    });
    const bad = await issueNow(t, admin, '2026-13');
    expect(bad.statusCode).toBe(400);

    clock.now = nextMonthMoment(clock.now);
    // A month later the sessions have lapsed: sign in again.
    admin = await createStaffAndLogin(t.app, 'admin');
    const financeiroNow = await createStaffAndLogin(t.app, 'financeiro');
    await t.app.jobs.send('fiscal.issue-event-month', {});
    const notas = await vi.waitFor(
      async () => {
        const list = await monthNotas(t, admin, paidMonth);
        expect(list).toHaveLength(2);
        for (const n of list) expect(n.status).toBe('autorizada');
        return list;
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(notas.find((n) => n.evento === a.id)).toMatchObject({
      evento_nome: 'Corrida Mensal A',
      valor: 179.8,
      inscricoes: 2,
      pdf_url: expect.stringMatching(/^\/api\/notas\/\d+\/[\w-]+\/nfse\.pdf$/),
    });
    expect(notas.find((n) => n.evento === b.id)).toMatchObject({ valor: 89.9, inscricoes: 1 });
    // No NFS-e of its own for any registration.
    const own = await t.database.db
      .select()
      .from(fiscalDocuments)
      .where(eq(fiscalDocuments.registrationId, ra1.id));
    expect(own).toHaveLength(0);

    // The runner's registration links the month's nota; the PDF opens with its link.
    const notaA = notas.find((n) => n.evento === a.id)!;
    const mine = await t.app.inject({ method: 'GET', url: '/api/notas/', headers: ra2.runner.headers });
    expect(mine.json().inscricoes[String(ra2.id)][0]).toMatchObject({
      tipo: 'nfse',
      status: 'autorizada',
      pdf_url: notaA.pdf_url,
    });
    expect((await t.app.fiscal.notaOfRegistration(rb.id))?.status).toBe('autorizada');
    expect(await t.app.fiscal.notaOfRegistration(gone.id)).toBeNull();
    const pdf = await t.app.inject({ method: 'GET', url: notaA.pdf_url as string });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // Idempotent by (event, month): staff's "Emitir agora" and the job again make nothing new.
    const again = await issueNow(t, admin, paidMonth);
    expect(again.statusCode).toBe(202);
    expect(
      again
        .json()
        .map((n: { id: number }) => n.id)
        .sort(),
    ).toEqual(notas.map((n) => n.id).sort());
    await t.app.fiscal.issueLastMonth();
    expect(await monthNotas(t, admin, paidMonth)).toHaveLength(2);

    // Cancelled after the nota: it stays authorised and the cancellation is written on it.
    const late = await t.app.inject({
      method: 'POST',
      url: `/api/painel/registrations/${ra1.id}/cancel/`,
      headers: financeiroNow.headers,
      payload: { motivo: 'Lesão' },
    });
    expect(late.statusCode).toBe(200);
    await vi.waitFor(
      async () => {
        const n = (await monthNotas(t, admin, paidMonth)).find((x) => x.evento === a.id)!;
        expect(n.status).toBe('autorizada');
        expect(n.motivo).toMatch(new RegExp(`Inscrição nº ${ra1.id} \\(R\\$ 89,90\\) cancelada`));
      },
      { timeout: 20_000, interval: 250 },
    );
  });

  it('staff without the orders permission cannot issue', async () => {
    const checkin = await createStaffAndLogin(t.app, 'checkin');
    const res = await issueNow(t, checkin, '2020-01');
    expect(res.statusCode).toBe(403);
  });
});

describe('one NFS-e per event per month through Focus NFe (strict fake)', () => {
  let fake: FakeFocus;
  let t: TestApp;
  let admin: TestStaff;
  let clock: { now: Date };
  beforeAll(async () => {
    fake = await startFakeFocus();
    ({ t, admin, clock } = await setup(
      createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 1500 }),
    ));
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends one NFS-e without an identified taker per event and month, by staff’s "Emitir agora"', async () => {
    const event = await makeEvent(t.database.db, { name: 'Meia Mensal Focus' });
    const r1 = await register(t, event, 882_000_001);
    const r2 = await register(t, event, 882_000_002);
    const paidMonth = monthOf(clock.now);
    clock.now = nextMonthMoment(clock.now);
    admin = await createStaffAndLogin(t.app, 'admin');
    const res = await issueNow(t, admin, paidMonth);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toHaveLength(1);
    const nota = await vi.waitFor(
      async () => {
        const [n] = await monthNotas(t, admin, paidMonth);
        expect(n?.status).toBe('autorizada');
        return n!;
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(fake.invalid).toEqual([]);
    const ref = `passada-evento-${event.id}-${paidMonth}-nfse`;
    const sent = fake.docs.get(ref)!;
    expect(sent.body).toMatchObject({
      prestador: { cnpj: '12ABC34501DE35', codigo_municipio: '2304400' },
      servico: { item_lista_servico: '12.11', valor_servicos: '179.80' },
    });
    expect(sent.body).not.toHaveProperty('tomador');
    expect(String((sent.body.servico as Record<string, unknown>).discriminacao)).toContain(
      `nº ${r1.id}, ${r2.id}`,
    );
    expect((await t.app.fiscal.notaOfRegistration(r1.id))?.pdf_url).toBe(nota.pdf_url);

    // Asked again (a double click, a retry): the same reference, nothing sent twice.
    const twice = await issueNow(t, admin, paidMonth);
    expect(twice.json().map((n: { id: number }) => n.id)).toEqual([nota.id]);
    expect([...fake.docs.keys()].filter((k) => k.startsWith(`passada-evento-${event.id}-`))).toEqual([ref]);
  });
});
