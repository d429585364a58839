import { commaStringToCents } from '@passada/core/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('POST /api/calcular-frete/ (tabela)', () => {
  let t: TestApp;
  let clock = new Date('2026-11-19T15:00:00Z'); // Thursday in Fortaleza; Friday 20 November is a holiday
  let jacket: MadeProduct;

  const quote = (body: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/calcular-frete/', payload: body as object });

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { SHIPPING_ORIGIN_CEP: '60165-121' } });
    jacket = await makeProduct(t.database.db, {
      name: 'Jaqueta Pesada',
      weightGrams: 1200,
      dims: [32, 25, 5],
    });
  });
  afterAll(() => t.close());

  it('quotes PAC and SEDEX for a CEP, skipping the holiday and the weekend', async () => {
    const res = await quote({ cepDestino: '60175-047' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      precoFinalPAC: '18,90',
      prazoEntregaPAC: 3,
      dataMaximaPAC: '2026-11-25',
      precoFinalSEDEX: '24,90',
      prazoEntregaSEDEX: 1,
      dataMaximaSEDEX: '2026-11-23',
    });
  });

  it('makes SEDEX faster and dearer than PAC, and a far state dearer than the same state', async () => {
    const near = (await quote({ cepDestino: '60175047' })).json();
    const far = (await quote({ cepDestino: '90010-000' })).json();
    for (const q of [near, far]) {
      expect(commaStringToCents(q.precoFinalSEDEX)).toBeGreaterThan(commaStringToCents(q.precoFinalPAC));
      expect(q.prazoEntregaSEDEX).toBeLessThan(q.prazoEntregaPAC);
      expect(q.dataMaximaSEDEX < q.dataMaximaPAC).toBe(true);
    }
    expect(commaStringToCents(far.precoFinalPAC)).toBeGreaterThan(commaStringToCents(near.precoFinalPAC));
    expect(far.prazoEntregaPAC).toBeGreaterThan(near.prazoEntregaPAC);
  });

  it("counts from the store's day in Fortaleza, not UTC", async () => {
    clock = new Date('2026-11-20T02:30:00Z'); // still Thursday 23:30 in Fortaleza
    try {
      expect((await quote({ cepDestino: '60175047' })).json().dataMaximaSEDEX).toBe('2026-11-23');
    } finally {
      clock = new Date('2026-11-19T15:00:00Z');
    }
  });

  it('weighs the cart items from the database', async () => {
    const one = (
      await quote({ cepDestino: '60175047', items: [{ product: jacket.id, quantity: 1 }] })
    ).json();
    // 1 200 g is three 500 g steps: base + 2 steps.
    expect(one.precoFinalPAC).toBe('23,90');
    const split = (
      await quote({
        cepDestino: '60175047',
        items: [
          { product: jacket.id, quantity: 1 },
          { product: jacket.id, quantity: 1 },
        ],
      })
    ).json();
    const two = (
      await quote({ cepDestino: '60175047', items: [{ product: jacket.id, quantity: 2 }] })
    ).json();
    expect(split).toEqual(two);
    expect(commaStringToCents(two.precoFinalPAC)).toBeGreaterThan(commaStringToCents(one.precoFinalPAC));
  });

  it('rejects an unknown product in the items', async () => {
    const res = await quote({ cepDestino: '60175047', items: [{ product: 987654, quantity: 1 }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      detail: 'Produto não encontrado no carrinho: 987654.',
      code: 'unknown_product',
    });
  });

  it('answers "Digite um CEP válido!" for an empty, missing, malformed or unassigned CEP', async () => {
    for (const body of [
      { cepDestino: '' },
      {},
      { cepDestino: '   ' },
      { cepDestino: '6017504' },
      { cepDestino: '601750477' },
      { cepDestino: 'abcde-fgh' },
      { cepDestino: '00500-000' },
      { cepDestino: '6'.repeat(40) },
    ]) {
      const res = await quote(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({
        detail: 'Digite um CEP válido!',
        code: 'invalid_cep',
      });
    }
  });
});
