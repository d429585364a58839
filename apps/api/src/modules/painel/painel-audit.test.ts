import { AuditPageSchema } from '@passada/core/contracts/painel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('painel: the audit log, readable and filtered on the server', () => {
  let t: TestApp;
  let admin: TestStaff;
  let other: TestStaff;

  const read = async (query: string, who = admin) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/painel/audit/?${query}`,
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return AuditPageSchema.parse(res.json());
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createStaffAndLogin(t.app, 'admin');
    other = await createStaffAndLogin(t.app, 'admin');
    const member = await createStaffAndLogin(t.app, 'operador');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/painel/staff/${member.id}/`,
      headers: admin.headers,
      payload: { role: 'financeiro', active: false },
    });
    expect(res.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('shows what changed field by field, in Portuguese', async () => {
    const page = await read('entity=equipe&action=alterado');
    expect(page.count).toBe(1);
    expect(page.results[0]!.alteracoes).toEqual([
      { campo: 'Perfil', antes: 'operador', depois: 'financeiro' },
      { campo: 'Conta ativa', antes: 'Sim', depois: 'Não' },
    ]);
  });

  it('filters by who, by what and by period, counting only what matches', async () => {
    const mine = await read(`staff=${admin.email.slice(0, 12).toUpperCase()}&action=alterado`);
    expect(mine.count).toBe(1);
    expect((await read(`staff=${other.email}&action=alterado`)).count).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await read(`entity=equipe&action=alterado&desde=2000-01-01&ate=2000-01-31`)).count).toBe(0);
    expect((await read(`entity=equipe&action=alterado&desde=2000-01-01&ate=2099-12-31`)).count).toBe(1);
    expect((await read(`action=entrou&desde=${today}`)).results.every((e) => e.action === 'entrou')).toBe(
      true,
    );
    const backwards = await t.app.inject({
      method: 'GET',
      url: '/api/painel/audit/?desde=2026-02-01&ate=2026-01-01',
      headers: admin.headers,
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors.ate).toBe('A data final vem depois da inicial.');
  });
});
