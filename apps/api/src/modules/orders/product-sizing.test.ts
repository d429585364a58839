import { ProductSizingSchema } from '@passada/core/contracts/catalog';
import { PainelProductSchema } from '@passada/core/contracts/painel';
import { fitHint } from '@passada/core/fit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderExchangeItems, orderReturns } from '../../db/schema/index.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { type Buyer, makeBuyer, markDelivered, paidPixOrder } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const MIN = 3;
const SIZES = ['P', 'M', 'G', 'GG'] as const;

/**
 * A product's size guide kept by staff, and how it fits by the shop's own exchanges (decision 0070): the
 * counts read back against an oracle computed here from the seeded orders and exchanges.
 */
describe('size guide and fit hint', () => {
  let t: TestApp;
  let staff: TestStaff;
  let buyer: Buyer;

  const sizing = async (id: number) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/products/${id}/tamanhos/` });
    expect(res.statusCode, res.body).toBe(200);
    return ProductSizingSchema.parse(res.json());
  };
  const painel = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/painel${url}`,
      headers: staff.headers,
      ...(payload ? { payload } : {}),
    });
  const shirt = (name: string) =>
    makeProduct(t.app.db, {
      name,
      priceCents: 5_000,
      stock: SIZES.map((size) => ({ color: 'Preto', size, quantity: 200 })),
    });

  beforeAll(async () => {
    t = await createTestApp({ env: { FIT_HINT_MIN_EXCHANGES: String(MIN) } });
    staff = await createStaffAndLogin(t.app, 'admin');
    buyer = await makeBuyer(t.app);
  });
  afterAll(() => t.close());

  it('keeps a guide per size under the product version, answered in the sizes’ order with their names', async () => {
    const p = await shirt('Camiseta Medida');
    const read = PainelProductSchema.parse((await painel('GET', `/products/${p.id}/`)).json());
    expect(read.tabela_medidas).toBeNull();
    const rows = [...SIZES].reverse().map((size, i) => ({
      tamanho_id: p.sizeIds[size]!,
      valores: [60 - i * 2, i === 0 ? null : 72.25 - i],
    }));
    const saved = await painel('PUT', `/products/${p.id}/medidas/`, {
      versao: read.versao,
      colunas: ['Tórax', 'Comprimento'],
      linhas: rows,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().versao).toBe(read.versao + 1);
    expect((await sizing(p.id)).guia).toEqual({
      colunas: ['Tórax', 'Comprimento'],
      linhas: [
        { tamanho: 'P', valores: [54, 69.3] },
        { tamanho: 'M', valores: [56, 70.3] },
        { tamanho: 'G', valores: [58, 71.3] },
        { tamanho: 'GG', valores: [60, null] },
      ],
    });
    // A form opened before that save, a size the product lacks, a row without a value per column.
    const stale = await painel('PUT', `/products/${p.id}/medidas/`, {
      versao: read.versao,
      colunas: ['Tórax'],
      linhas: [],
    });
    expect(stale.statusCode).toBe(409);
    const other = await makeProduct(t.app.db, { stock: [{ color: 'Azul', size: 'XGG', quantity: 1 }] });
    const version = saved.json().versao;
    const foreign = await painel('PUT', `/products/${p.id}/medidas/`, {
      versao: version,
      colunas: ['Tórax'],
      linhas: [{ tamanho_id: other.sizeIds.XGG!, valores: [70] }],
    });
    expect(foreign.json().code).toBe('tamanho_invalido');
    const short = await painel('PUT', `/products/${p.id}/medidas/`, {
      versao: version,
      colunas: ['Tórax', 'Quadril'],
      linhas: [{ tamanho_id: p.sizeIds.M!, valores: [70] }],
    });
    expect(short.statusCode).toBe(400);
    // A hidden product has no page, nor guide.
    await painel('PATCH', `/products/${p.id}/`, { versao: version, oculto: true });
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${p.id}/tamanhos/` })).statusCode).toBe(
      404,
    );
  });

  it('counts delivered units and finished size exchanges as an oracle does, and says nothing below the minimum', async () => {
    const p = await shirt('Camiseta Caimento');
    // Delivered: orders of each size, the parcel marked delivered; one more order never delivered.
    const bought: Array<{ orderId: number; itemId: number; size: (typeof SIZES)[number]; quantity: number }> =
      [];
    for (const [i, size] of SIZES.entries()) {
      const quantity = i + 2;
      const { order } = await paidPixOrder(t.app, buyer, [{ product: p, quantity, stockIndex: i }], [p]);
      await markDelivered(t.app, staff.headers, order.id);
      bought.push({ orderId: order.id, itemId: order.items[0]!.item_id, size, quantity });
    }
    await paidPixOrder(t.app, buyer, [{ product: p, quantity: 7, stockIndex: 1 }], [p]);
    expect((await sizing(p.id)).caimento).toBeNull();

    // A seeded set of exchanges, finished or refused, to any other size, printed with its seed.
    const seed = Number(process.env.FIT_SEED ?? Date.now() % 1_000_000);
    console.log(`fit hint: seed ${seed}`);
    const [exchanges] = fc.sample(
      fc.array(
        fc.record({
          line: fc.integer({ min: 0, max: SIZES.length - 1 }),
          to: fc.integer({ min: 0, max: SIZES.length - 1 }),
          quantity: fc.integer({ min: 1, max: 2 }),
          finished: fc.boolean(),
        }),
        { minLength: 4, maxLength: 12 },
      ),
      { seed, numRuns: 1 },
    );
    // Three finished size exchanges always, so the answer is never null on both sides by chance.
    exchanges!.push(
      { line: 0, to: 1, quantity: 1, finished: true },
      { line: 3, to: 2, quantity: 1, finished: true },
      { line: 1, to: 0, quantity: 1, finished: true },
    );
    const at = new Date();
    for (const x of exchanges!) {
      const from = bought[x.line]!;
      const [ret] = await t.app.db
        .insert(orderReturns)
        .values({
          orderId: from.orderId,
          kind: 'troca',
          status: x.finished ? 'trocada' : 'recusada',
          reason: 'arrependimento',
          createdAt: at,
        })
        .returning({ id: orderReturns.id });
      const to = SIZES[x.to]!;
      await t.app.db.insert(orderExchangeItems).values({
        returnId: ret!.id,
        orderItemId: from.itemId,
        productId: p.id,
        colorId: p.colorIds.Preto!,
        sizeId: p.sizeIds[to]!,
        colorName: 'Preto',
        sizeName: to,
        quantity: x.quantity,
        unitPriceCents: 5_000,
        held: false,
      });
    }
    // The oracle: delivered units of this product, and finished exchanges by the sizes' rank.
    const delivered = bought.reduce((sum, b) => sum + b.quantity, 0);
    const finished = exchanges!.filter((x) => x.finished);
    const toBigger = finished.filter((x) => x.to > x.line).reduce((s, x) => s + x.quantity, 0);
    const toSmaller = finished.filter((x) => x.to < x.line).reduce((s, x) => s + x.quantity, 0);
    const expected = fitHint({ delivered, toBigger, toSmaller }, MIN);
    const { caimento } = await sizing(p.id);
    expect(toBigger + toSmaller).toBeGreaterThanOrEqual(MIN);
    expect(caimento).toEqual({
      veste: expected!.verdict,
      texto: expected!.text,
      entregues: delivered,
      trocas_para_maior: toBigger,
      trocas_para_menor: toSmaller,
    });
  });
});
