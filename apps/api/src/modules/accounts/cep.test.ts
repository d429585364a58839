import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('CEP lookup, local table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers the state offline, and the city in a state capital', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/cep/60165-121/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ cep: '60165121', state: 'CE', city: 'Fortaleza' });
    expect((await t.app.inject({ method: 'GET', url: '/api/cep/69301000/' })).json()).toEqual({
      cep: '69301000',
      state: 'RR',
      city: 'Boa Vista',
    });
    // Outside the capitals the table knows the state only.
    expect((await t.app.inject({ method: 'GET', url: '/api/cep/62010-000/' })).json()).toEqual({
      cep: '62010000',
      state: 'CE',
    });
  });

  it('refuses malformed and unassigned CEPs', async () => {
    for (const cep of ['1234', 'abcdefgh', '00500000']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/cep/${cep}/` });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('Digite um CEP válido!');
    }
  });
});

describe('CEP lookup, ViaCEP', () => {
  let t: TestApp;
  let fake: Server;
  const seen: string[] = [];

  beforeAll(async () => {
    // A stand-in for ViaCEP at the HTTP boundary, with its real answer shapes.
    fake = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (req.url === '/ws/60165121/json/') {
        res.end(
          JSON.stringify({
            cep: '60165-121',
            logradouro: 'Avenida Beira Mar',
            complemento: 'até 2999 - lado ímpar',
            bairro: 'Meireles',
            localidade: 'Fortaleza',
            uf: 'CE',
            ibge: '2304400',
            ddd: '85',
          }),
        );
      } else if (req.url === '/ws/60999999/json/') {
        res.end(JSON.stringify({ erro: 'true' }));
      } else {
        res.statusCode = 500;
        res.end('{}');
      }
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const { port } = fake.address() as AddressInfo;
    t = await createTestApp({ env: { CEP_PROVIDER: 'viacep', VIACEP_URL: `http://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => fake.close(resolve));
  });

  it('fills street, neighbourhood and city', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/cep/60165121/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      cep: '60165121',
      state: 'CE',
      city: 'Fortaleza',
      street: 'Avenida Beira Mar',
      neighborhood: 'Meireles',
    });
    expect(seen).toContain('/ws/60165121/json/');
  });

  it('falls back to the table (the state, and a capital) when ViaCEP does not know the CEP or fails', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/cep/60999-999/' })).json()).toEqual({
      cep: '60999999',
      state: 'CE',
      city: 'Fortaleza',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/cep/01310100/' })).json()).toEqual({
      cep: '01310100',
      state: 'SP',
      city: 'São Paulo',
    });
  });

  it('does not call ViaCEP for an invalid CEP', async () => {
    const before = seen.length;
    expect((await t.app.inject({ method: 'GET', url: '/api/cep/123/' })).statusCode).toBe(400);
    expect(seen).toHaveLength(before);
  });
});
