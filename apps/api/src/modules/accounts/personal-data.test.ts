import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountNotices,
  authTokens,
  loginDevices,
  loginFailures,
  loginLinks,
  passwordResets,
} from '../../db/schema/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import {
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
  postOrder,
} from '../../test/factories/orders.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { applyRetention } from './personal-data.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('personal data download (LGPD)', () => {
  it('answers profile, addresses and orders as a JSON file, without hashes or tokens', async () => {
    const buyer = await makeBuyer(t.app);
    const product = await makeProduct(t.app.db, {
      name: 'Regata Dados',
      stock: [{ color: 'Azul', size: 'M', quantity: 5 }],
    });
    const draft = orderDraft(buyer, [{ product }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
    await simulatePixPaid(t.app, txid);
    expect((await postOrder(t.app, buyer.headers, txid)).statusCode).toBe(201);

    const res = await t.app.inject({
      method: 'GET',
      url: '/api/users/profile/dados/',
      headers: buyer.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    const data = res.json();
    expect(data.perfil).toMatchObject({
      username: buyer.username,
      email: buyer.email,
      full_name: buyer.full_name,
    });
    expect(data.enderecos).toEqual([expect.objectContaining({ id: buyer.addressId, city: 'Fortaleza' })]);
    expect(data.pedidos).toHaveLength(1);
    expect(data.pedidos[0].itens[0]).toMatchObject({ productName: 'Regata Dados', quantity: 1 });
    expect(data.inscricoes).toEqual([]);
    expect(res.body).not.toMatch(/argon2|password|token/i);
    expect(res.body).not.toContain(buyer.token);

    const other = await makeBuyer(t.app);
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/users/profile/dados/',
      headers: other.headers,
    });
    expect(theirs.json().pedidos).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/profile/dados/' })).statusCode).toBe(401);
  });
});

describe('retention job', () => {
  it('deletes what is past its period and keeps what is not', async () => {
    const u = await makeBuyer(t.app);
    const now = new Date();
    const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
    await t.app.db.insert(loginFailures).values([
      { account: 'velho', ip: '10.0.0.1', at: daysAgo(2) },
      { account: 'recente', ip: '10.0.0.1', at: now },
    ]);
    await t.app.db.insert(authTokens).values([
      { userId: u.id, tokenHash: 'velho-expirado', expiresAt: daysAgo(31) },
      { userId: u.id, tokenHash: 'revogado-ontem', expiresAt: now, revokedAt: daysAgo(1) },
    ]);
    await t.app.db
      .insert(passwordResets)
      .values({ userId: u.id, tokenHash: 'link-velho', expiresAt: daysAgo(40) });
    await t.app.db.insert(accountNotices).values([
      { userId: u.id, kind: 'password_changed', email: u.email, createdAt: daysAgo(200) },
      { userId: u.id, kind: 'password_changed', email: u.email, createdAt: daysAgo(10) },
    ]);
    await t.app.db.insert(loginDevices).values([
      { userId: u.id, tokenHash: 'navegador-esquecido', lastUsedAt: daysAgo(181) },
      { userId: u.id, tokenHash: 'navegador-de-ontem', lastUsedAt: daysAgo(1) },
    ]);
    await t.app.db.insert(loginLinks).values([
      { userId: u.id, tokenHash: 'acesso-velho', expiresAt: daysAgo(31) },
      { userId: u.id, tokenHash: 'acesso-de-ontem', expiresAt: daysAgo(1) },
    ]);
    const removed = await applyRetention(t.app.db, now, 180);
    expect(removed).toMatchObject({
      tokens: 1,
      passwordResets: 1,
      accountNotices: 1,
      loginDevices: 1,
      loginLinks: 1,
    });
    const devices = (await t.app.db.select().from(loginDevices)).map((d) => d.tokenHash);
    expect(devices).toEqual(['navegador-de-ontem']);
    const links = (await t.app.db.select().from(loginLinks)).map((l) => l.tokenHash);
    expect(links).toEqual(['acesso-de-ontem']);
    expect(removed.loginFailures).toBeGreaterThanOrEqual(1);
    const failures = (await t.app.db.select().from(loginFailures)).map((f) => f.account);
    expect(failures).toContain('recente');
    expect(failures).not.toContain('velho');
    const tokens = (await t.app.db.select().from(authTokens)).map((r) => r.tokenHash);
    expect(tokens).toContain('revogado-ontem');
    expect(tokens).not.toContain('velho-expirado');
    // The live token of the buyer still works.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/profile/', headers: u.headers })).statusCode,
    ).toBe(200);
  });
});
