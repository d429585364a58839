import { type PainelPermission, STAFF_ROLES, type StaffRole, staffCan } from '@passada/core/contracts/painel';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { declarePainelRoute, NO_PERMISSION } from '../staff/index.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Operation {
  method: Method;
  url: string;
  /** `x-permissao` of the OpenAPI document: what the route declared (absent: own account or sign-in). */
  needs: PainelPermission[] | undefined;
}

/**
 * Every operation the app registers under /api/painel/, as its OpenAPI document publishes them, with the
 * permission each declared; path ids point at records that do not exist, so nothing is changed.
 */
async function painelOperations(t: TestApp): Promise<Operation[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, { 'x-permissao'?: PainelPermission[] }>>;
  };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/painel/'))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([m, op]) => ({
        method: m.toUpperCase() as Method,
        url: path.replace(/\{[^}]+\}/g, '999999'),
        needs: op['x-permissao'],
      })),
    );
}

describe('painel: permissions per action, every operation × every preset role', () => {
  let t: TestApp;
  const members = {} as Record<StaffRole, TestStaff>;
  let assigned: MadeEvent;
  let other: MadeEvent;

  beforeAll(async () => {
    t = await createTestApp();
    assigned = await makeEvent(t.app.db, { name: 'Corrida do voluntário' });
    other = await makeEvent(t.app.db, { name: 'Corrida de outra equipe' });
    for (const role of STAFF_ROLES) {
      members[role] = await createStaffAndLogin(
        t.app,
        role,
        role === 'checkin' ? { eventos: [assigned.id] } : {},
      );
    }
  });
  afterAll(() => t.close());

  it('lets through every role the permission table allows and refuses the others with 403', async () => {
    const ops = await painelOperations(t);
    expect(ops.length).toBeGreaterThan(30);
    // Only sign-in and one's own account declare no permission, and they all live under /auth/.
    for (const op of ops.filter((o) => !o.needs)) expect(op.url).toMatch(/^\/api\/painel\/auth\//);
    const guarded = ops.filter((o): o is Operation & { needs: PainelPermission[] } => Boolean(o.needs));
    for (const op of guarded) {
      for (const role of STAFF_ROLES) {
        const res = await t.app.inject({ ...op, headers: members[role].headers, payload: {} });
        const what = `${role} ${op.method} ${op.url} (${op.needs.join(' ou ')})`;
        if (staffCan(role, op.needs)) {
          expect(res.statusCode, `${what}: ${res.body}`).not.toBe(403);
          expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
        } else {
          expect(res.statusCode, what).toBe(403);
          expect(res.json(), what).toMatchObject({ code: 'sem_permissao', detail: NO_PERMISSION });
        }
      }
    }
  });

  it('lets a cancellation that returns money only to roles that may return payments', async () => {
    for (const role of STAFF_ROLES) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/painel/orders/999999/status/',
        headers: members[role].headers,
        payload: { status: 'cancelado', motivo: 'Pedido do cliente' },
      });
      if (staffCan(role, 'devolver_pagamento')) expect(res.statusCode, role).toBe(404);
      else expect(res.statusCode, role).toBe(403);
    }
  });

  it('keeps a check-in volunteer to the events assigned to them', async () => {
    const volunteer = members.checkin.headers;
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/painel/checkin/eventos/',
      headers: volunteer,
    });
    expect(list.json()).toEqual([
      expect.objectContaining({ id: assigned.id, nome_evento: 'Corrida do voluntário' }),
    ]);
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/painel/checkin/search/?evento=${assigned.id}&busca=Maria`,
      headers: volunteer,
    });
    expect(mine.statusCode).toBe(200);
    const refusals = [
      { method: 'GET', url: `/api/painel/checkin/search/?evento=${other.id}&busca=Maria` },
      { method: 'POST', url: '/api/painel/checkin/preview/', payload: { evento: other.id, inscricao: 1 } },
      { method: 'POST', url: '/api/painel/checkin/', payload: { evento: other.id, inscricao: 1 } },
    ] as const;
    for (const op of refusals) {
      const res = await t.app.inject({ ...op, headers: volunteer });
      expect(res.statusCode, op.url).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'sem_permissao',
        detail: 'Você não está designado para o check-in deste evento.',
      });
    }
    // Staff who check in every event see them all.
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/painel/checkin/eventos/',
      headers: members.gerente.headers,
    });
    expect(all.json().map((e: { id: number }) => e.id)).toEqual(
      expect.arrayContaining([assigned.id, other.id]),
    );
  });

  it('assigns events only to check-in volunteers, and only events that exist', async () => {
    const admin = members.admin.headers;
    const create = (role: StaffRole, eventos: number[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/painel/staff/',
        headers: admin,
        payload: {
          email: `vol-${role}-${eventos.join('-')}@passada.com.br`,
          name: 'Vera Voluntária',
          role,
          password: 'uma-senha-bem-longa-2026',
          eventos,
        },
      });
    expect((await create('checkin', [999999])).json().errors.eventos).toMatch(/Evento não encontrado/);
    expect((await create('gerente', [assigned.id])).json().errors.eventos).toMatch(/Só voluntários/);
    const made = await create('checkin', [other.id]);
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ role: 'checkin', eventos: [other.id] });
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/painel/staff/${made.json().id}/`,
      headers: admin,
      payload: { eventos: [assigned.id, other.id] },
    });
    expect(moved.json().eventos).toEqual([assigned.id, other.id].sort((a, b) => a - b));
    const promoted = await t.app.inject({
      method: 'PATCH',
      url: `/api/painel/staff/${made.json().id}/`,
      headers: admin,
      payload: { role: 'operador' },
    });
    expect(promoted.json()).toMatchObject({ role: 'operador', eventos: [] });
  });

  it('refuses to register a painel route that declares no permission', () => {
    const app = Fastify();
    app.addHook('onRoute', (route) => declarePainelRoute(route, 'token'));
    expect(() => app.get('/sem-permissao/', async () => ({}))).toThrow(/sem permissão declarada/);
    expect(() =>
      app.get('/com-permissao/', { config: { painel: { permission: 'pedidos' } } }, async () => ({})),
    ).not.toThrow();
  });
});
