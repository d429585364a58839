import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

const USER = 'passada';
const ACCESS_CODE = 'codigo-de-acesso';
const POSTING_CARD = '0079999999';
const TOKEN = 'token-do-fake';

/** Answers like the Correios REST API; CEP 69900-000 makes the price call fail as the real API does. */
function fakeCorreios(seen: Seen[]): Server {
  return createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url ?? '/', 'http://fake');
    seen.push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body,
    });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.method === 'POST' && url.pathname === '/token/v1/autentica/cartaopostagem') {
      const expected = `Basic ${Buffer.from(`${USER}:${ACCESS_CODE}`).toString('base64')}`;
      if (req.headers.authorization !== expected || JSON.parse(body).numero !== POSTING_CARD) {
        return send(401, { msgs: ['Credenciais inválidas'] });
      }
      return send(201, { ambiente: 'PRODUCAO', token: TOKEN, expiraEm: '2999-12-31T23:59:59' });
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { msgs: ['Token inválido'] });
    const m = /^\/(preco|prazo)\/v1\/nacional\/(03298|03220)$/.exec(url.pathname);
    if (!m) return send(404, { msgs: ['Recurso não encontrado'] });
    const pac = m[2] === '03298';
    if (m[1] === 'preco') {
      if (url.searchParams.get('cepDestino') === '69900000') {
        return send(400, { msgs: ['PRC-112: CEP de destino não atendido pelo serviço'] });
      }
      return send(200, { coProduto: m[2], pcFinal: pac ? '27,45' : '1.045,10' });
    }
    return send(200, {
      coProduto: m[2],
      prazoEntrega: pac ? 7 : 2,
      dataMaxima: pac ? '2026-12-01T23:59:59' : '2026-11-24T23:59:59',
    });
  });
}

describe('POST /api/calcular-frete/ with SHIPPING_PROVIDER=correios', () => {
  let server: Server;
  let t: TestApp;
  let shirt: MadeProduct;
  const seen: Seen[] = [];

  const quote = (body: object) =>
    t.app.inject({ method: 'POST', url: '/api/calcular-frete/', payload: body });

  beforeAll(async () => {
    server = fakeCorreios(seen);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    t = await createTestApp({
      env: {
        SHIPPING_PROVIDER: 'correios',
        CORREIOS_API_URL: `http://127.0.0.1:${port}`,
        CORREIOS_USER: USER,
        CORREIOS_ACCESS_CODE: ACCESS_CODE,
        CORREIOS_POSTING_CARD: POSTING_CARD,
        SHIPPING_ORIGIN_CEP: '60165121',
      },
    });
    shirt = await makeProduct(t.database.db, { weightGrams: 180, dims: [30, 22, 3] });
  });
  beforeEach(() => {
    seen.length = 0;
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  it("answers the Correios' prices and dates in the spec's shape", async () => {
    const res = await quote({ cepDestino: '01310-100', items: [{ product: shirt.id, quantity: 2 }] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      precoFinalPAC: '27,45',
      prazoEntregaPAC: 7,
      dataMaximaPAC: '2026-12-01',
      precoFinalSEDEX: '1045,10',
      prazoEntregaSEDEX: 2,
      dataMaximaSEDEX: '2026-11-24',
    });
    const token = seen.filter((s) => s.path.startsWith('/token/'));
    expect(token).toHaveLength(1);
    expect(JSON.parse(token[0]!.body)).toEqual({ numero: POSTING_CARD });
    const prices = seen.filter((s) => s.path.startsWith('/preco/'));
    expect(prices.map((s) => s.path).sort()).toEqual([
      '/preco/v1/nacional/03220',
      '/preco/v1/nacional/03298',
    ]);
    expect(Object.fromEntries(prices[0]!.query)).toEqual({
      cepOrigem: '60165121',
      cepDestino: '01310100',
      psObjeto: '360',
      tpObjeto: '2',
      comprimento: '30',
      largura: '22',
      altura: '6',
    });
    const times = seen.filter((s) => s.path.startsWith('/prazo/'));
    expect(times).toHaveLength(2);
    expect(Object.fromEntries(times[0]!.query)).toEqual({ cepOrigem: '60165121', cepDestino: '01310100' });
    expect(
      seen.filter((s) => !s.path.startsWith('/token/')).every((s) => s.authorization === `Bearer ${TOKEN}`),
    ).toBe(true);
  });

  it('reuses the token until it expires, and quotes the minimum box for a small package', async () => {
    const res = await quote({ cepDestino: '50030-000' });
    expect(res.statusCode).toBe(200);
    expect(seen.some((s) => s.path.startsWith('/token/'))).toBe(false);
    const price = seen.find((s) => s.path.startsWith('/preco/'))!;
    expect(price.query.get('psObjeto')).toBe('300');
    expect(Number(price.query.get('altura'))).toBeGreaterThanOrEqual(2);
  });

  it('answers 502 "Erro ao calcular frete." when the Correios refuse', async () => {
    const res = await quote({ cepDestino: '69900-000' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ detail: 'Erro ao calcular frete.', code: 'shipping_unavailable' });
  });

  it('still checks the CEP before calling the Correios', async () => {
    const res = await quote({ cepDestino: '00000-000' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Digite um CEP válido!');
    expect(seen).toHaveLength(0);
  });
});

describe('Correios provider with wrong credentials', () => {
  it('answers 502 when the token is refused', async () => {
    const seen: Seen[] = [];
    const server = fakeCorreios(seen);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const t = await createTestApp({
      env: {
        SHIPPING_PROVIDER: 'correios',
        CORREIOS_API_URL: `http://127.0.0.1:${port}/`,
        CORREIOS_USER: USER,
        CORREIOS_ACCESS_CODE: 'errado',
        CORREIOS_POSTING_CARD: POSTING_CARD,
      },
    });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/calcular-frete/',
        payload: { cepDestino: '01310100' },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().detail).toBe('Erro ao calcular frete.');
      expect(seen.some((s) => s.path.startsWith('/preco/'))).toBe(false);
    } finally {
      await t.close();
      server.close();
    }
  });
});
