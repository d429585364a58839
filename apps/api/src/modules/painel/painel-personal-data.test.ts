import { randomUUID } from 'node:crypto';
import {
  PERSONAL_DATA_PERMISSIONS,
  STAFF_ROLES,
  type StaffRole,
  staffCan,
} from '@passada/core/contracts/painel';
import { formatCpf, maskCpf } from '@passada/core/documents';
import { formatIsoDateBR } from '@passada/core/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const CPF = cpfFrom(731_000_001);
const BIRTH = '1987-03-21';
const EMAIL = `corredora-${randomUUID().slice(0, 8)}@example.com`;
const PHONE = '(85) 97777-1234';
const EMERGENCY = '(85) 96666-4321';
/** How each of the participant's personal data can appear in an answer. */
const NEEDLES = {
  cpf: [CPF, formatCpf(CPF)],
  nascimento: [BIRTH, formatIsoDateBR(BIRTH)],
  email: [EMAIL],
  telefone: ['85977771234', PHONE, '(85) 96666-4321', '85966664321'],
};

/**
 * docs/product.md §6 and LGPD art. 6 III: a participant's whole CPF, birth date, e-mail and phones reach
 * only the roles that run events (PERSONAL_DATA_PERMISSIONS); sales and the kit desk see the name and the
 * CPF masked. Every back-office GET of the OpenAPI document and the check-in's search and preview are
 * walked by every role, with the registration's and the event's ids in the path.
 */
describe("painel: a participant's personal data reaches only the roles that need it", () => {
  let t: TestApp;
  let event: MadeEvent;
  let registrationId: number;
  const members = {} as Record<StaffRole, TestStaff>;

  beforeAll(async () => {
    t = await createTestApp();
    event = await makeEvent(t.app.db, {
      name: 'Corrida dos Dados Pessoais',
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 10 }]],
    });
    const buyer = await makeBuyer(t.app);
    const paid = await registrationCard(t.app, {
      number: '4111111111111111',
      draft: participant(event, [event.days[0]!.categories[0]!.id], {
        cpf: CPF,
        data_nascimento: BIRTH,
        email: EMAIL,
        numero_contato: PHONE,
        contato_emergencia_telefone: EMERGENCY,
        nome_completo: 'Helena Corredora',
      }),
      total: 50,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    registrationId = paid.json().inscricao_id;
    for (const role of STAFF_ROLES)
      members[role] = await createStaffAndLogin(
        t.app,
        role,
        role === 'checkin' ? { eventos: [event.id] } : {},
      );
  }, 180_000);
  afterAll(() => t?.close());

  const found = (body: string) =>
    Object.entries(NEEDLES)
      .filter(([, forms]) => forms.some((f) => body.includes(f)))
      .map(([kind]) => kind);

  it('walks every role over every route that answers them', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const urls = Object.entries(doc.paths)
      .filter(([path, ops]) => path.startsWith('/api/painel/') && 'get' in ops)
      .flatMap(([path]) =>
        path.includes('{')
          ? [event.id, registrationId].map((id) => path.replace(/\{[^}]+\}/g, String(id)))
          : [path],
      )
      .map((url) => ({ method: 'GET' as const, url, payload: undefined as object | undefined }));
    urls.push(
      {
        method: 'GET',
        url: `/api/painel/checkin/search/?evento=${event.id}&busca=Helena`,
        payload: undefined,
      },
      {
        method: 'POST' as 'GET',
        url: '/api/painel/checkin/preview/',
        payload: { evento: event.id, inscricao: registrationId },
      },
    );
    expect(urls.length).toBeGreaterThan(40);
    const seen: string[] = [];
    const leaks: string[] = [];
    for (const role of STAFF_ROLES) {
      const mayKnow = staffCan(role, PERSONAL_DATA_PERMISSIONS);
      for (const call of urls) {
        const res = await t.app.inject({ ...call, headers: members[role].headers });
        if (res.statusCode !== 200) continue;
        const kinds = found(res.body);
        if (kinds.length === 0) continue;
        // The customer screen answers the person's own LGPD request (`clientes`, docs/decisions/0032).
        const lgpdScreen = call.url.startsWith('/api/painel/clientes/') && staffCan(role, 'clientes');
        if (mayKnow || lgpdScreen) seen.push(`${role} ${call.url}`);
        else leaks.push(`${role} ${call.method} ${call.url}: ${kinds.join(', ')}`);
      }
    }
    expect(leaks).toEqual([]);
    // The walk finds the data where it belongs: the organisers' list and the timing company's CSV.
    expect(seen).toEqual(
      expect.arrayContaining([
        `admin /api/painel/events/${event.id}/participants/`,
        `gerente /api/painel/events/${event.id}/participants.csv`,
      ]),
    );
  }, 600_000);

  it('gives sales and the kit desk the CPF masked, and the CSV only to who runs events', async () => {
    for (const role of STAFF_ROLES) {
      const csv = await t.app.inject({
        method: 'GET',
        url: `/api/painel/events/${event.id}/participants.csv`,
        headers: members[role].headers,
      });
      expect(csv.statusCode, role).toBe(staffCan(role, 'eventos') ? 200 : 403);
    }
    for (const role of ['estoque', 'operador', 'financeiro'] as const) {
      const list = await t.app.inject({
        method: 'GET',
        url: `/api/painel/events/${event.id}/participants/`,
        headers: members[role].headers,
      });
      expect(list.statusCode, role).toBe(200);
      expect(list.json().results[0], role).toMatchObject({
        cpf: maskCpf(CPF),
        data_nascimento: null,
        email: null,
        numero_contato: null,
        contato_emergencia: null,
      });
    }
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/painel/checkin/preview/',
      headers: members.checkin.headers,
      payload: { evento: event.id, inscricao: registrationId },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().participante).toMatchObject({
      nome_completo: 'Helena Corredora',
      cpf: maskCpf(CPF),
      data_nascimento: null,
      email: null,
      numero_contato: null,
    });
  });
});
