import { AuditPageSchema } from '@passada/core/contracts/painel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProduct } from '../../test/factories/catalog.ts';
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

  it('names products, colours, sizes and events, never their ids, and hides the edit version', async () => {
    const product = await makeProduct(t.app.db, {
      name: 'Camiseta Sertão',
      stock: [{ color: 'Azul Caatinga', size: 'GG', quantity: 2 }],
    });
    const [line] = product.stock;
    const stock = await t.app.inject({
      method: 'POST',
      url: '/api/painel/stock/',
      headers: admin.headers,
      payload: {
        product_id: product.id,
        color_id: line!.colorId,
        size_id: line!.sizeId,
        modo: 'ajustar',
        quantidade: 3,
        motivo: 'entrada',
      },
    });
    expect(stock.statusCode, stock.body).toBe(200);
    const current = await t.app.inject({
      method: 'GET',
      url: `/api/painel/products/${product.id}/`,
      headers: admin.headers,
    });
    expect(current.statusCode, current.body).toBe(200);
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/painel/products/${product.id}/`,
      headers: admin.headers,
      payload: { versao: current.json().versao, price: 109.9 },
    });
    expect(edit.statusCode, edit.body).toBe(200);

    const stockLine = (await read('entity=estoque')).results[0]!;
    expect(stockLine.alvo).toBe('Estoque de Camiseta Sertão · Azul Caatinga · GG');
    expect(stockLine.alteracoes).toContainEqual({ campo: 'Quantidade', antes: '2', depois: '5' });
    const productLine = (await read('entity=produto&action=alterado')).results[0]!;
    expect(productLine.alvo).toBe('Produto Camiseta Sertão');
    expect(productLine.alteracoes).toEqual([
      { campo: 'Preço', antes: 'R$\u00a099,90', depois: 'R$\u00a0109,90' },
    ]);
  });
});
