import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken, makeAddress, type TestUser } from '../../test/factories/accounts.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (
  user: TestUser | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: user ? user.headers : {}, ...(payload ? { payload } : {}) });
const list = async (user: TestUser) =>
  (await call(user, 'GET', '/api/users/addresses/')).json() as { id: number; is_primary: boolean }[];

describe('addresses', () => {
  it('needs a signed-in user', async () => {
    expect((await call(null, 'GET', '/api/users/addresses/')).statusCode).toBe(401);
    expect((await call(null, 'POST', '/api/users/addresses/', makeAddress())).statusCode).toBe(401);
  });

  it('creates, reads, updates and deletes an address in the spec shape', async () => {
    const u = await createUserAndToken(t.app);
    const created = await call(
      u,
      'POST',
      '/api/users/addresses/',
      makeAddress({ phone: '+55 85 98888-7777' }),
    );
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toEqual({
      id: expect.any(Number),
      user: u.id,
      full_name: 'Maria Silva',
      zip_code: '60165121',
      state: 'CE',
      city: 'Fortaleza',
      neighborhood: 'Meireles',
      street: 'Av. Beira Mar',
      number: '100',
      complement: '',
      phone: '(85) 98888-7777',
      is_primary: true,
    });
    const url = `/api/users/addresses/${body.id}/`;
    expect((await call(u, 'GET', url)).json()).toEqual(body);

    const updated = await call(
      u,
      'PUT',
      url,
      makeAddress({ zip_code: '01310-100', state: 'SP', city: 'São Paulo', phone: '(11) 3222-3333' }),
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      zip_code: '01310100',
      state: 'SP',
      phone: '(11) 3222-3333',
      is_primary: true,
    });

    expect((await call(u, 'DELETE', url)).statusCode).toBe(204);
    expect((await call(u, 'GET', url)).statusCode).toBe(404);
    expect(await list(u)).toEqual([]);
  });

  it('validates CEP against the state, the UF and the phone, in Portuguese', async () => {
    const u = await createUserAndToken(t.app);
    const res = await call(u, 'POST', '/api/users/addresses/', makeAddress({ state: 'PE' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ zip_code: 'Este CEP não pertence ao estado escolhido.' });
    const bad = await call(
      u,
      'POST',
      '/api/users/addresses/',
      makeAddress({ state: 'ZZ', phone: '(85) 8999-99999', zip_code: '0000' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      state: 'Escolha um estado válido.',
      phone: 'Digite um telefone válido com DDD.',
      zip_code: 'Digite um CEP válido!',
    });
    expect(await list(u)).toEqual([]);
  });

  it("answers 404 for another user's address on every method and leaves it untouched", async () => {
    const owner = await createUserAndToken(t.app);
    const intruder = await createUserAndToken(t.app);
    const id = (await call(owner, 'POST', '/api/users/addresses/', makeAddress())).json().id as number;
    const url = `/api/users/addresses/${id}/`;
    for (const res of [
      await call(intruder, 'GET', url),
      await call(intruder, 'PUT', url, makeAddress({ full_name: 'Invasor' })),
      await call(intruder, 'DELETE', url),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Endereço não encontrado.', code: 'not_found' });
    }
    expect(await list(intruder)).toEqual([]);
    expect((await call(owner, 'GET', url)).json().full_name).toBe('Maria Silva');
  });

  it('keeps exactly one primary address per user', async () => {
    const u = await createUserAndToken(t.app);
    const post = async (over: object) =>
      (await call(u, 'POST', '/api/users/addresses/', makeAddress(over))).json();
    const a = await post({});
    const b = await post({ full_name: 'B' });
    expect([a.is_primary, b.is_primary]).toEqual([true, false]);
    const c = await post({ full_name: 'C', is_primary: true });
    expect(c.is_primary).toBe(true);
    const primaries = () => list(u).then((all) => all.filter((x) => x.is_primary).map((x) => x.id));
    expect(await primaries()).toEqual([c.id]);

    await call(u, 'PUT', `/api/users/addresses/${b.id}/`, makeAddress({ full_name: 'B', is_primary: true }));
    expect(await primaries()).toEqual([b.id]);
    // Unticking the only primary keeps it primary.
    await call(u, 'PUT', `/api/users/addresses/${b.id}/`, makeAddress({ full_name: 'B', is_primary: false }));
    expect(await primaries()).toEqual([b.id]);

    await call(u, 'DELETE', `/api/users/addresses/${b.id}/`);
    expect(await primaries()).toEqual([a.id]);
    await call(u, 'DELETE', `/api/users/addresses/${a.id}/`);
    expect(await primaries()).toEqual([c.id]);
  });

  it('refuses an id that is not a number', async () => {
    const u = await createUserAndToken(t.app);
    expect((await call(u, 'GET', '/api/users/addresses/abc/')).statusCode).toBe(400);
  });
});
