import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  fiscalDocumentRegistrations,
  fiscalDocuments,
  fiscalRegistrationWaits,
  registrations,
} from '../../db/schema/index.ts';
import { createFocusProvider } from '../../providers/invoicing/focus.provider.ts';
import { type MadeEvent, type MakeEventOverrides, makeEvent } from '../../test/factories/events.ts';
import { saveFiscalSettings } from '../../test/factories/fiscal.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { chargeByTxid, simulatePixPaid } from '../../test/factories/payments.ts';
import {
  cpfFrom,
  participant,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * One NFS-e per event per month (NFSE_GROUPING=event_month, docs/decisions/0049): nothing is issued at
 * payment; at the month's turn the job (or staff's "Emitir agora") issues one nota per event for the
 * month's paid registrations, once per (event, month); a registration cancelled before is left out, one
 * cancelled after is written on the nota; each runner's registration links the month's nota.
 */

/**
 * Where each app's clock starts: late in a month, so that the month's turn (`nextMonthMoment`, the 2nd
 * of the next month) comes within the 7 days a runner's sign-in lasts and before the registration
 * deadline of an event made on the clock's day. Never the wall clock: on the first days of a month the
 * runner's token had lapsed by the turn and the events made on the wall clock's day had closed.
 */
const START = new Date('2026-03-27T12:00:00-03:00');

/** The month a moment falls in, on the store's calendar, and a moment in the month after. */
const monthOf = (d: Date) => dateInTimeZone(d, STORE_TIME_ZONE).slice(0, 7);
function nextMonthMoment(d: Date): Date {
  const [y, m] = monthOf(d).split('-').map(Number) as [number, number];
  return new Date(Date.UTC(m === 12 ? y + 1 : y, m === 12 ? 0 : m, 2, 15));
}

async function setup(start: Date, invoicing?: ReturnType<typeof createFocusProvider>) {
  const clock = { now: start };
  const t = await createTestApp({
    env: { NFSE_GROUPING: 'event_month' },
    now: () => clock.now,
    ...(invoicing ? { providers: { invoicing } } : {}),
  });
  const admin = await createStaffAndLogin(t.app, 'admin');
  await saveFiscalSettings(t.app, admin.headers);
  return { t, admin, clock };
}

/** An event made on the app clock's day in Fortaleza, its registration open from then on. */
const eventOn = (t: TestApp, clock: { now: Date }, overrides: MakeEventOverrides) =>
  makeEvent(t.database.db, { today: dateInTimeZone(clock.now, STORE_TIME_ZONE), ...overrides });

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
    ({ t, admin, clock } = await setup(START));
  }, 60_000);
  afterAll(() => t.close());

  it('issues nothing at payment; at the month’s turn one nota per event, once; the runner’s registration links it', async () => {
    const a = await eventOn(t, clock, { name: 'Corrida Mensal A' });
    const b = await eventOn(t, clock, { name: 'Corrida Mensal B' });
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
      { timeout: 45_000, interval: 250 },
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
      START,
      createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 1500 }),
    ));
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends one NFS-e without an identified taker per event and month, by staff’s "Emitir agora"', async () => {
    const event = await eventOn(t, clock, { name: 'Meia Mensal Focus' });
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

/** Every nota that names a registration: its own NFS-e and the month's NFS-e that covers it. */
async function notasOf(t: TestApp, registrationId: number) {
  const own = await t.database.db
    .select({ id: fiscalDocuments.id, ref: fiscalDocuments.ref, status: fiscalDocuments.status })
    .from(fiscalDocuments)
    .where(eq(fiscalDocuments.registrationId, registrationId));
  const months = await t.database.db
    .select({ id: fiscalDocumentRegistrations.documentId })
    .from(fiscalDocumentRegistrations)
    .where(eq(fiscalDocumentRegistrations.registrationId, registrationId));
  return { own, months: months.map((m) => m.id) };
}

/** Waits until the registration's own NFS-e is authorised, and answers it. */
const ownNotaAuthorised = (t: TestApp, registrationId: number) =>
  vi.waitFor(
    async () => {
      const { own, months } = await notasOf(t, registrationId);
      expect(months).toEqual([]);
      expect(own).toHaveLength(1);
      expect(own[0]).toMatchObject({ ref: `passada-inscricao-${registrationId}-nfse`, status: 'autorizada' });
      return own[0]!;
    },
    { timeout: 30_000, interval: 250 },
  );

/** A Pix registration whose charge is created now and not paid yet: its txid. */
async function pixRegistration(t: TestApp, event: MadeEvent, cpfBase: number) {
  const runner = await makeBuyer(t.app);
  const created = await registrationPix(
    t.app,
    participant(event, [event.days[0]!.categories[0]!.id], { cpf: cpfFrom(cpfBase) }),
    89.9,
    runner.headers,
  );
  expect(created.statusCode).toBe(201);
  return { runner, txid: created.json().txid as string };
}

/** The registration a paid charge made. */
async function registrationOf(t: TestApp, txid: string): Promise<number> {
  const charge = await chargeByTxid(t.app, txid);
  const [row] = await t.database.db
    .select({ id: registrations.id })
    .from(registrations)
    .where(eq(registrations.chargeId, charge!.id));
  return row!.id;
}

describe('a registration paid in a month whose nota was already made gets an NFS-e of its own', () => {
  let t: TestApp;
  let admin: TestStaff;
  let clock: { now: Date };
  beforeAll(async () => {
    ({ t, admin, clock } = await setup(START));
  }, 60_000);
  afterAll(() => t.close());

  it('a payment of last month confirmed after its month’s nota: its own nota at once, never in the month’s, never twice', async () => {
    const event = await eventOn(t, clock, { name: 'Corrida do Mês Fechado' });
    const onTime = await register(t, event, 884_000_001);
    const late = await pixRegistration(t, event, 884_000_002);
    const paidAt = clock.now;
    const paidMonth = monthOf(paidAt);

    clock.now = nextMonthMoment(clock.now);
    admin = await createStaffAndLogin(t.app, 'admin');
    expect((await issueNow(t, admin, paidMonth)).statusCode).toBe(202);
    const monthNota = await vi.waitFor(
      async () => {
        const [n] = await monthNotas(t, admin, paidMonth);
        expect(n).toMatchObject({ status: 'autorizada', inscricoes: 1, valor: 89.9 });
        return n!;
      },
      { timeout: 30_000, interval: 250 },
    );

    // The bank took the Pix last month; its confirmation arrives only now.
    t.app.providers.payments.simulator!.payPix(late.txid, paidAt);
    expect((await simulatePixPaid(t.app, late.txid)).statusCode).toBe(200);
    const lateId = await registrationOf(t, late.txid);
    const own = await ownNotaAuthorised(t, lateId);

    // The month's nota is as it was; the runner and staff see the registration's own nota.
    expect(await monthNotas(t, admin, paidMonth)).toEqual([monthNota]);
    expect((await notasOf(t, onTime.id)).months).toEqual([monthNota.id]);
    const mine = await t.app.inject({ method: 'GET', url: '/api/notas/', headers: late.runner.headers });
    expect(mine.json().inscricoes[String(lateId)]).toEqual([
      expect.objectContaining({ id: own.id, tipo: 'nfse', status: 'autorizada' }),
    ]);
    const staffView = await t.app.fiscal.painelNotasOfRegistration(lateId);
    expect(staffView).toEqual([expect.objectContaining({ id: own.id, inscricao_id: lateId })]);

    // The sweeps, the monthly job and staff's "Emitir agora" again make nothing more.
    await t.app.fiscal.retryPending();
    await t.app.fiscal.issueLastMonth();
    expect((await issueNow(t, admin, paidMonth)).statusCode).toBe(202);
    expect(await notasOf(t, lateId)).toEqual({ own: [own], months: [] });
    expect(await monthNotas(t, admin, paidMonth)).toHaveLength(1);
  });

  it('one that slipped through (recorded waiting while its month’s nota was being made) gets its own from the sweep', async () => {
    const event = await eventOn(t, clock, { name: 'Corrida da Varredura' });
    const first = await register(t, event, 885_000_001);
    const paidMonth = monthOf(clock.now);
    // Registered a moment before the month's nota and left out of it: it stays waiting until the sweep.
    const slipped = await register(t, event, 885_000_002);
    await vi.waitFor(
      async () => {
        const [wait] = await t.database.db
          .select()
          .from(fiscalRegistrationWaits)
          .where(eq(fiscalRegistrationWaits.registrationId, slipped.id));
        expect(wait).toMatchObject({ eventId: event.id, period: paidMonth });
      },
      { timeout: 45_000, interval: 250 },
    );
    clock.now = nextMonthMoment(clock.now);
    // The month's nota made with the first registration only (as a nota whose candidates were read
    // before the second was paid would be).
    await t.database.db.transaction(async (tx) => {
      const made = await t.app.fiscal.issueEventMonth(paidMonth, tx);
      expect(made.filter((m) => m.eventId === event.id)).toHaveLength(1);
      await tx
        .delete(fiscalDocumentRegistrations)
        .where(eq(fiscalDocumentRegistrations.registrationId, slipped.id));
    });
    expect((await notasOf(t, first.id)).months).toHaveLength(1);
    expect(await notasOf(t, slipped.id)).toEqual({ own: [], months: [] });

    await t.app.jobs.send('fiscal.retry-pending', {});
    await ownNotaAuthorised(t, slipped.id);
    expect(await t.app.fiscal.issueWaiting()).toEqual([]);
  });
  it('a month whose turn passed without its nota (the server down on the 1st) is caught up by the next monthly job', async () => {
    const event = await eventOn(t, clock, { name: 'Corrida do Mês Esquecido' });
    const waiting = await register(t, event, 888_000_001);
    const paidMonth = monthOf(clock.now);
    await vi.waitFor(
      async () => {
        const [wait] = await t.database.db
          .select()
          .from(fiscalRegistrationWaits)
          .where(eq(fiscalRegistrationWaits.registrationId, waiting.id));
        expect(wait).toMatchObject({ period: paidMonth });
      },
      { timeout: 45_000, interval: 250 },
    );
    // Two months later: the run for the paid month never happened.
    clock.now = nextMonthMoment(nextMonthMoment(clock.now));
    await t.app.fiscal.issueLastMonth();
    admin = await createStaffAndLogin(t.app, 'admin');
    const nota = await vi.waitFor(
      async () => {
        const n = (await monthNotas(t, admin, paidMonth)).find((x) => x.evento === event.id);
        expect(n).toMatchObject({ status: 'autorizada', inscricoes: 1 });
        return n!;
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(await notasOf(t, waiting.id)).toEqual({ own: [], months: [nota.id as number] });
  });
});

describe('switching NFSE_GROUPING between event_month and registration', () => {
  const clock = { now: START };
  let t: TestApp;
  let admin: TestStaff;
  /** Boots the shop again on the same database with another setting, as a deploy would. */
  async function restartWith(grouping: 'event_month' | 'registration') {
    await t.app.close();
    rmSync(t.dataDir, { recursive: true, force: true });
    t = await createTestApp({
      env: { NFSE_GROUPING: grouping },
      now: () => clock.now,
      database: t.database,
    });
    admin = await createStaffAndLogin(t.app, 'admin');
  }
  beforeAll(async () => {
    t = await createTestApp({ env: { NFSE_GROUPING: 'event_month' }, now: () => clock.now });
    admin = await createStaffAndLogin(t.app, 'admin');
    await saveFiscalSettings(t.app, admin.headers);
  }, 60_000);
  afterAll(() => t.close());

  it('back to registration: each registration that was waiting gets its own nota once; cancelled, free and older history none', async () => {
    const event = await eventOn(t, clock, {
      name: 'Corrida da Troca',
      days: [
        [
          { name: '5 km', priceCents: 8990 },
          { name: 'Kids', priceCents: 0 },
        ],
      ],
    });
    const freeRunner = await makeBuyer(t.app);
    const free = await t.app.inject({
      method: 'POST',
      url: '/api/confirmar-gratuito/',
      headers: freeRunner.headers,
      payload: {
        total: 0,
        finalidade: 'inscricao',
        inscricao: participant(event, [event.days[0]!.categories[1]!.id], { cpf: cpfFrom(886_000_009) }),
      },
    });
    expect(free.statusCode).toBe(201);
    const freeId = (free.json().inscricao_id ?? free.json().id) as number;
    expect(freeId).toEqual(expect.any(Number));
    const waiting1 = await register(t, event, 886_000_001);
    const waiting2 = await register(t, event, 886_000_002);
    const cancelled = await register(t, event, 886_000_003);
    const history = await register(t, event, 886_000_004);
    for (const r of [waiting1, waiting2, cancelled, history])
      await vi.waitFor(
        async () => {
          const rows = await t.database.db
            .select()
            .from(fiscalRegistrationWaits)
            .where(eq(fiscalRegistrationWaits.registrationId, r.id));
          expect(rows).toHaveLength(1);
        },
        { timeout: 45_000, interval: 250 },
      );
    // A registration paid before the fiscal setup was never recorded as waiting.
    await t.database.db
      .delete(fiscalRegistrationWaits)
      .where(eq(fiscalRegistrationWaits.registrationId, history.id));
    const financeiro = await createStaffAndLogin(t.app, 'financeiro');
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/painel/registrations/${cancelled.id}/cancel/`,
      headers: financeiro.headers,
      payload: { motivo: 'Desistência' },
    });
    expect(cancel.statusCode).toBe(200);

    await restartWith('registration');
    // The periodic sweep (`fiscal.retry-pending`) issues them.
    await t.app.jobs.send('fiscal.retry-pending', {});
    const own1 = await ownNotaAuthorised(t, waiting1.id);
    const own2 = await ownNotaAuthorised(t, waiting2.id);
    expect(own1.id).not.toBe(own2.id);
    expect(await notasOf(t, cancelled.id)).toEqual({ own: [], months: [] });
    expect(await notasOf(t, history.id)).toEqual({ own: [], months: [] });
    expect(await notasOf(t, freeId)).toEqual({ own: [], months: [] });

    // Once: the sweep again, and the registration's own job run again, make nothing new.
    expect(await t.app.fiscal.issueWaiting()).toEqual([]);
    await t.app.fiscal.issueRegistration(waiting1.id);
    expect(await notasOf(t, waiting1.id)).toEqual({ own: [own1], months: [] });
  });

  it('to event_month: registrations already invoiced one by one stay out of the month’s nota', async () => {
    await restartWith('registration');
    const event = await eventOn(t, clock, { name: 'Corrida da Volta' });
    const invoiced = await register(t, event, 887_000_001);
    const own = await ownNotaAuthorised(t, invoiced.id);
    const paidMonth = monthOf(clock.now);

    await restartWith('event_month');
    const grouped = await register(t, event, 887_000_002);
    clock.now = nextMonthMoment(clock.now);
    admin = await createStaffAndLogin(t.app, 'admin');
    expect((await issueNow(t, admin, paidMonth)).statusCode).toBe(202);
    const nota = await vi.waitFor(
      async () => {
        const n = (await monthNotas(t, admin, paidMonth)).find((x) => x.evento === event.id);
        expect(n).toMatchObject({ status: 'autorizada', inscricoes: 1, valor: 89.9 });
        return n!;
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(await notasOf(t, invoiced.id)).toEqual({ own: [own], months: [] });
    expect((await notasOf(t, grouped.id)).months).toEqual([nota.id]);
    // Nor does the sweep give the grouped one a nota of its own.
    await t.app.fiscal.retryPending();
    expect((await notasOf(t, grouped.id)).own).toEqual([]);
    const links = await t.database.db
      .select()
      .from(fiscalDocumentRegistrations)
      .where(eq(fiscalDocumentRegistrations.documentId, nota.id as number));
    expect(links.map((l) => l.registrationId)).toEqual([grouped.id]);
  });
});

describe('the month’s turn is midnight in Fortaleza (UTC−3), not in UTC', () => {
  let t: TestApp;
  let admin: TestStaff;
  let clock: { now: Date };
  beforeAll(async () => {
    ({ t, admin, clock } = await setup(new Date('2026-12-31T12:00:00-03:00')));
  }, 60_000);
  afterAll(() => t.close());

  /** The period each registration was recorded waiting for, once its payment's job has run. */
  const waitingPeriods = (ids: number[]) =>
    vi.waitFor(
      async () => {
        const rows = await t.database.db.select().from(fiscalRegistrationWaits);
        const byId = new Map(rows.map((r) => [r.registrationId, r.period]));
        const periods = ids.map((id) => byId.get(id));
        expect(periods).not.toContain(undefined);
        return periods;
      },
      { timeout: 45_000, interval: 250 },
    );

  it('paid at 20:30, 21:30 (00:30 UTC on the 1st) and 23:30 (02:30 UTC) on 31 December in Fortaleza: December’s nota, issued only after midnight there; paid at 00:30 on 1 January: January’s', async () => {
    const event = await eventOn(t, clock, { name: 'Corrida da Virada' });
    const paidAt = async (instant: string, cpfBase: number) => {
      clock.now = new Date(instant);
      return register(t, event, cpfBase);
    };
    const evening = await paidAt('2026-12-31T20:30:00-03:00', 889_000_001); // 23:30 UTC, the 31st on both
    const utcNewYear = await paidAt('2026-12-31T21:30:00-03:00', 889_000_002); // 00:30 UTC on 1 January
    const lastMinutes = await paidAt('2026-12-31T23:30:00-03:00', 889_000_003); // 02:30 UTC on 1 January
    const december = [evening, utcNewYear, lastMinutes];
    expect(await waitingPeriods(december.map((r) => r.id))).toEqual(['2026-12', '2026-12', '2026-12']);

    // 23:45 on the 31st in Fortaleza (02:45 UTC on 1 January): December is not over in the store.
    clock.now = new Date('2026-12-31T23:45:00-03:00');
    admin = await createStaffAndLogin(t.app, 'admin');
    const early = await issueNow(t, admin, '2026-12');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'mes_em_aberto' });
    await t.app.fiscal.issueLastMonth();
    expect(await monthNotas(t, admin, '2026-12')).toEqual([]);

    const newYear = await paidAt('2027-01-01T00:30:00-03:00', 889_000_004); // 03:30 UTC
    expect(await waitingPeriods([newYear.id])).toEqual(['2027-01']);

    // 00:45 on 1 January in Fortaleza: December's nota holds its three registrations, not January's.
    clock.now = new Date('2027-01-01T00:45:00-03:00');
    expect((await issueNow(t, admin, '2026-12')).statusCode).toBe(202);
    const nota = await vi.waitFor(
      async () => {
        const [n] = await monthNotas(t, admin, '2026-12');
        expect(n).toMatchObject({ status: 'autorizada', inscricoes: 3, valor: 269.7 });
        return n!;
      },
      { timeout: 30_000, interval: 250 },
    );
    for (const r of december) expect(await notasOf(t, r.id)).toEqual({ own: [], months: [nota.id] });
    expect(await notasOf(t, newYear.id)).toEqual({ own: [], months: [] });
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/notas/',
      headers: lastMinutes.runner.headers,
    });
    expect(mine.json().inscricoes[String(lastMinutes.id)]).toEqual([
      expect.objectContaining({ id: nota.id, tipo: 'nfse' }),
    ]);

    // The monthly job at its hour (06:00 in Fortaleza on the 1st) makes nothing more and leaves January waiting.
    clock.now = new Date('2027-01-01T06:00:00-03:00');
    await t.app.fiscal.issueLastMonth();
    expect(await monthNotas(t, admin, '2026-12')).toEqual([nota]);
    expect(await monthNotas(t, admin, '2027-01')).toEqual([]);
    expect(await notasOf(t, newYear.id)).toEqual({ own: [], months: [] });
  });
});
