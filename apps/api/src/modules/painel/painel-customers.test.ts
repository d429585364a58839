import { AuditPageSchema, CustomerDetailSchema, CustomerPageSchema } from '@passada/core/contracts/painel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participantsFrom } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('painel: customers, their orders and registrations, LGPD export and erasure', () => {
  let t: TestApp;
  let manager: TestStaff;
  let customer: TestUser;
  const cpf = cpfFrom(410_000_000);

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/painel${url}`,
      headers: manager.headers,
      ...(payload ? { payload } : {}),
    });
  const search = async (busca: string) =>
    CustomerPageSchema.parse((await call('POST', '/clientes/busca/', { busca })).json());

  beforeAll(async () => {
    t = await createTestApp();
    manager = await createStaffAndLogin(t.app, 'gerente');
    customer = await createUserAndToken(t.app, { full_name: 'Joana Cliente Fiel' });
    await createUserAndToken(t.app, { full_name: 'Outro Corredor' });
    // A free registration made from the account, so the CPF is on record for it.
    const event = await makeEvent(t.app.db, { days: [[{ name: '5 km', priceCents: 0 }]] });
    const draft = participantsFrom(410_000_000)(
      event,
      'Joana Cliente Fiel',
      event.days[0]!.categories[0]!.id,
    );
    expect(draft.cpf).toBe(cpf);
    const free = await t.app.inject({
      method: 'POST',
      url: '/api/confirmar-gratuito/',
      headers: customer.headers,
      payload: { total: 0, finalidade: 'inscricao', inscricao: draft },
    });
    expect(free.statusCode, free.body).toBeLessThan(300);
  });
  afterAll(() => t.close());

  it('finds a customer by part of the name, the e-mail or the CPF, on the server', async () => {
    expect((await search('cliente fiel')).results.map((c) => c.id)).toEqual([customer.id]);
    expect((await search(customer.email.toUpperCase())).results.map((c) => c.id)).toEqual([customer.id]);
    const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    expect((await search(formatted)).results.map((c) => c.id)).toEqual([customer.id]);
    expect((await search('ninguém com este nome')).count).toBe(0);
  });

  it("shows the customer's registrations, exports and erases their data, auditing without the data", async () => {
    const detail = CustomerDetailSchema.parse((await call('GET', `/clientes/${customer.id}/`)).json());
    expect(detail.inscricoes).toEqual([
      expect.objectContaining({ participante: 'Joana Cliente Fiel', cancelada: false }),
    ]);

    const exported = await call('POST', `/clientes/${customer.id}/exportar/`);
    expect(exported.statusCode).toBe(200);
    expect(JSON.stringify(exported.json())).toContain(customer.email);

    const refused = await call('POST', `/clientes/${customer.id}/excluir/`, { motivo: '' });
    expect(refused.statusCode).toBe(400);
    const erased = await call('POST', `/clientes/${customer.id}/excluir/`, {
      motivo: 'Pedido por e-mail em 20/11',
    });
    expect(erased.statusCode).toBe(204);
    expect((await call('POST', `/clientes/${customer.id}/excluir/`, { motivo: 'De novo' })).statusCode).toBe(
      404,
    );
    const after = CustomerDetailSchema.parse((await call('GET', `/clientes/${customer.id}/`)).json());
    expect(after.cliente).toMatchObject({ nome: 'Conta excluída', excluida: true });

    const admin = await createStaffAndLogin(t.app, 'admin');
    const log = AuditPageSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/painel/audit/?entity=cliente',
          headers: admin.headers,
        })
      ).json(),
    );
    expect(log.results.map((e) => e.action).sort()).toEqual(['dados_excluidos', 'dados_exportados']);
    const written = JSON.stringify(log.results);
    expect(written).not.toContain(cpf);
    expect(written).not.toContain(customer.email);
  });

  it('exports, for an incident window, the accounts held then and the kinds of data each holds, admin only and audited', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const today = new Date().toISOString().slice(0, 10);
    const url = `/api/painel/clientes/incidente.csv?desde=2020-01-01&ate=${today}`;
    expect((await t.app.inject({ method: 'GET', url, headers: manager.headers })).statusCode).toBe(403);
    const res = await t.app.inject({ method: 'GET', url, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain(
      'Conta;Nome;E-mail;Criada em;Excluída em;Dados da conta (nome, e-mail);Endereços',
    );
    // Joana asked for erasure above: she is still listed (her data was held in the window) with the
    // dates, without name nor e-mail, and no account data held any more.
    const joana = lines.find((l) => l.startsWith(`${customer.id};`));
    expect(joana).toMatch(/^\d+;;;[^;]+;[^;]+;Não;0;0;\d+;Não;Não$/);
    const other = lines.find((l) => l.includes(';Outro Corredor;'));
    expect(other).toMatch(/^\d+;Outro Corredor;[^;]+@[^;]+;[^;]+;;Sim;0;0;0;Não;Não$/);
    // A window before the shop existed holds nobody.
    const empty = await t.app.inject({
      method: 'GET',
      url: '/api/painel/clientes/incidente.csv?desde=2000-01-01&ate=2000-01-31',
      headers: admin.headers,
    });
    expect(
      empty.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/painel/clientes/incidente.csv?desde=2026-02-01&ate=2026-01-01',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
    const audit = AuditPageSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/painel/audit/?entity=cliente',
          headers: admin.headers,
        })
      ).json(),
    );
    expect(audit.results.some((e) => e.action === 'incidente_exportado')).toBe(true);
  });
});
