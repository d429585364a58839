import { randomUUID } from 'node:crypto';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFocusProvider } from '../../providers/invoicing/focus.provider.ts';
import { eventFormBody, type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { fiscalForm, saveFiscalSettings } from '../../test/factories/fiscal.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilSeen } from '../../test/wait-until.ts';

/**
 * The national service code (cTribNac) and NBS of an event's registrations (docs/decisions/0059, later):
 * staff set them on the event's form, and its registrations' NFS-e carry them; an event without them
 * uses the shop's fiscal settings. Through the real client against the strict Focus fake.
 */
let fake: FakeFocus;
let t: TestApp;
let admin: TestStaff;

beforeAll(async () => {
  fake = await startFakeFocus();
  t = await createTestApp({
    providers: { invoicing: createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 5000 }) },
  });
  admin = await createStaffAndLogin(t.app, 'admin');
  await saveFiscalSettings(t.app, admin.headers);
}, 60_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const db = () => t.database.db;

async function editEvent(eventId: number, fields: Record<string, unknown>) {
  const current = await t.app.inject({
    method: 'GET',
    url: `/api/painel/events/${eventId}/`,
    headers: admin.headers,
  });
  return t.app.inject({
    method: 'PUT',
    url: `/api/painel/events/${eventId}/`,
    headers: admin.headers,
    payload: { ...eventFormBody(current.json()), ...fields },
  });
}

/** A registration paid by card on the event: its id. */
async function pay(app: TestApp['app'], event: MadeEvent, cpfSeed: number): Promise<number> {
  const res = await registrationCard(app, {
    number: '4111111111111111',
    draft: participant(event, [event.days[0]!.categories[0]!.id], { cpf: cpfFrom(cpfSeed) }),
    total: 89.9,
    user: await makeBuyer(app),
    key: randomUUID(),
  });
  expect(res.statusCode).toBe(200);
  return res.json().inscricao_id ?? res.json().id;
}

/** A registration paid by card on the event, and its NFS-e once settled (authorised or stopped). */
async function registrationNota(event: MadeEvent, cpfSeed: number) {
  const registrationId = await pay(t.app, event, cpfSeed);
  const nota = await untilSeen(
    async () => (await t.app.fiscal.painelNotasOfRegistration(registrationId))[0],
    (n) => n?.status === 'autorizada' || n?.status === 'erro',
    60_000,
  );
  const sent = fake.docs.get(`passada-inscricao-${registrationId}-nfse`);
  return { nota, servico: sent?.body.servico as Record<string, unknown> | undefined };
}

// Each nota goes through the job queue and the provider's polls, twice per test: on a loaded machine
// that has taken over 30 s, so the tests are given room (a passing test does not use it).
describe("an event's own NFS-e codes", { timeout: 180_000 }, () => {
  it("are set by staff on the event; its registrations' NFS-e carry them, another event's the shop's", async () => {
    const own = await makeEvent(db(), { name: 'Corrida do Código Próprio' });
    const plain = await makeEvent(db(), { name: 'Corrida do Código da Loja' });

    const wrong = await editEvent(own.id, { nfse_codigo_tributacao_nacional: '12.13' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Código de tributação nacional tem 6 dígitos');
    const saved = await editEvent(own.id, {
      nfse_codigo_tributacao_nacional: '12.13.01',
      nfse_nbs: '1.2603.11.00',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ nfse_codigo_tributacao_nacional: '121301', nfse_nbs: '126031100' });

    const ofOwn = await registrationNota(own, 772_000_001);
    const ofPlain = await registrationNota(plain, 772_000_002);
    expect(ofOwn.nota).toMatchObject({ status: 'autorizada' });
    expect(ofPlain.nota).toMatchObject({ status: 'autorizada' });
    expect(fake.invalid).toEqual([]);
    expect(ofOwn.servico).toMatchObject({
      codigo_tributacao_nacional_iss: '121301',
      codigo_nbs: '126031100',
    });
    expect(ofPlain.servico).toMatchObject({ codigo_tributacao_nacional_iss: '121101' });
    expect(ofPlain.servico).not.toHaveProperty('codigo_nbs');
  });

  it("let an event's registrations be invoiced when the shop has no national code of its own", async () => {
    const current = await t.app.inject({ method: 'GET', url: '/api/painel/fiscal/', headers: admin.headers });
    const cleared = await t.app.inject({
      method: 'PUT',
      url: '/api/painel/fiscal/',
      headers: admin.headers,
      payload: { ...fiscalForm({ codigo_tributacao_nacional: '' }), versao: current.json().versao },
    });
    expect(cleared.statusCode).toBe(200);
    const own = await makeEvent(db(), { name: 'Corrida com Código, Loja sem' });
    const plain = await makeEvent(db(), { name: 'Corrida sem Código, Loja sem' });
    expect((await editEvent(own.id, { nfse_codigo_tributacao_nacional: '12.11.01' })).statusCode).toBe(200);

    const ofOwn = await registrationNota(own, 772_000_003);
    const ofPlain = await registrationNota(plain, 772_000_004);
    expect(ofOwn.nota).toMatchObject({ status: 'autorizada' });
    expect(ofOwn.servico).toMatchObject({ codigo_tributacao_nacional_iss: '121101' });
    expect(ofPlain.nota).toMatchObject({
      status: 'erro',
      motivo: expect.stringContaining('falta o código de tributação nacional (cTribNac)'),
    });
    expect(ofPlain.servico).toBeUndefined();
  });
});

describe("an event's own NFS-e codes on its month's NFS-e (NFSE_GROUPING=event_month)", () => {
  it("the month's nota of each event carries that event's codes, or the shop's", async () => {
    // Late in a month on a clock of its own, so the month's turn comes within a runner's sign-in.
    const clock = { now: new Date('2026-03-27T12:00:00-03:00') };
    const m = await createTestApp({
      env: { NFSE_GROUPING: 'event_month' },
      now: () => clock.now,
      providers: {
        invoicing: createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 5000 }),
      },
    });
    try {
      let staff = await createStaffAndLogin(m.app, 'admin');
      await saveFiscalSettings(m.app, staff.headers);
      const today = dateInTimeZone(clock.now, STORE_TIME_ZONE);
      const own = await makeEvent(m.database.db, { today, name: 'Corrida Mensal do Código Próprio' });
      const plain = await makeEvent(m.database.db, { today, name: 'Corrida Mensal do Código da Loja' });
      const current = await m.app.inject({
        method: 'GET',
        url: `/api/painel/events/${own.id}/`,
        headers: staff.headers,
      });
      const saved = await m.app.inject({
        method: 'PUT',
        url: `/api/painel/events/${own.id}/`,
        headers: staff.headers,
        payload: { ...eventFormBody(current.json()), nfse_codigo_tributacao_nacional: '12.13.01' },
      });
      expect(saved.statusCode).toBe(200);
      await pay(m.app, own, 772_000_005);
      await pay(m.app, plain, 772_000_006);

      clock.now = new Date('2026-04-02T12:00:00-03:00');
      staff = await createStaffAndLogin(m.app, 'admin');
      const issued = await m.app.inject({
        method: 'POST',
        url: '/api/painel/fiscal/nfse-mensal/',
        headers: staff.headers,
        payload: { mes: '2026-03' },
      });
      expect(issued.statusCode).toBeLessThan(300);
      const notas = await untilSeen(
        async () =>
          (
            await m.app.inject({
              method: 'GET',
              url: '/api/painel/fiscal/nfse-mensal/?mes=2026-03',
              headers: staff.headers,
            })
          ).json() as Array<{ evento: number; status: string }>,
        (list) => list.length === 2 && list.every((n) => n.status === 'autorizada'),
        // Each nota is its own job, retried 15 s apart when Focus answers late (a loaded machine).
        60_000,
      );
      expect(notas.map((n) => n.status)).toEqual(['autorizada', 'autorizada']);
      expect(fake.invalid).toEqual([]);
      const servico = (eventId: number) =>
        fake.docs.get(`passada-evento-${eventId}-2026-03-nfse`)?.body.servico;
      expect(servico(own.id)).toMatchObject({ codigo_tributacao_nacional_iss: '121301' });
      expect(servico(plain.id)).toMatchObject({ codigo_tributacao_nacional_iss: '121101' });
    } finally {
      await m.close();
    }
  }, 120_000);
});
