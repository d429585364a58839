import { randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProduct } from '../../test/factories/catalog.ts';
import { documentsOf, paidCardOrder, saveProductFiscal, saveRegime } from '../../test/factories/fiscal.ts';
import { type Buyer, makeBuyer, shelfUnits } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * A unit swapped to another size before shipping (docs/decisions/0065, later): the NF-e authorised at
 * payment names the old size, so it is cancelled (within SEFAZ's 24 hours) and a new one issued with the
 * order's lines as they now are; once that window is nearly over the swap is refused and nothing moves.
 */
const START = new Date('2026-12-02T15:00:00Z');
const HOUR = 3_600_000;
const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: false });

describe('the NF-e of an order whose units were swapped before shipping', () => {
  let t: TestApp;
  let now = START;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    const admin = await createStaffAndLogin(t.app, 'admin');
    await saveRegime(t.app, admin.headers, 'regime_normal');
    buyer = await makeBuyer(t.app);
  }, 60_000);
  afterAll(() => t.close());

  async function paidOrder() {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const product = await makeProduct(t.app.db, {
      name: `Camiseta Troca Antes ${randomBytes(3).toString('hex')}`,
      priceCents: 10_000,
      stock: [
        { color: 'Azul', size: 'M', quantity: 5 },
        { color: 'Azul', size: 'G', quantity: 5 },
      ],
    });
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidCardOrder(t.app, buyer, product);
    await untilJobsDone(t.app.db, 'fiscal.issue-order');
    const first = (await documentsOf(t.app.db, orderId)).find((d) => d.kind === 'nfe')!;
    expect(first.status, first.reason ?? '').toBe('autorizada');
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/orders/${orderId}/pos-venda/`,
      headers: buyer.headers,
    });
    const order = (await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers }))
      .json()
      .find((o: { id: number }) => o.id === orderId);
    const swap = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/orders/${orderId}/alteracoes/`,
        headers: buyer.headers,
        payload: {
          trocas: [
            {
              item_id: order.items[0].item_id,
              quantidade: 1,
              cor_id: product.stock[1]!.colorId,
              tamanho_id: product.stock[1]!.sizeId,
            },
          ],
          versao: after.json().versao,
        },
      });
    return { orderId, product, first, swap };
  }

  it('cancels the NF-e that names the old size and issues one that names the new', async () => {
    const { orderId, product, first, swap } = await paidOrder();
    now = new Date(now.getTime() + 2 * HOUR);
    const made = await swap();
    expect(made.statusCode, made.body).toBe(201);
    await untilJobsDone(t.app.db, 'fiscal.order-swapped');

    const docs = await documentsOf(t.app.db, orderId);
    const cancelled = docs.find((d) => d.id === first.id)!;
    expect(cancelled.status, cancelled.reason ?? '').toBe('cancelada');
    const again = docs.find((d) => d.ref === `passada-pedido-${orderId}-nfe-2`)!;
    expect(again.status, again.reason ?? '').toBe('autorizada');
    expect(again.accessKey).not.toBe(first.accessKey);
    expect(again.amountCents).toBe(first.amountCents);

    const read = (d: typeof again) => xml.parse(d.xml!.toString()).nfeProc.NFe.infNFe;
    const goods = (d: typeof again) => read(d).det.prod as { cProd: string; xProd: string };
    const code = (i: number) => `${product.id}-${product.stock[i]!.colorId}-${product.stock[i]!.sizeId}`;
    expect(goods(first)).toMatchObject({ cProd: code(0), xProd: `${product.name} Azul M` });
    expect(goods(again)).toMatchObject({ cProd: code(1), xProd: `${product.name} Azul G` });
    expect(read(again).total.ICMSTot.vNF).toBe(read(first).total.ICMSTot.vNF);
    // What the shipping label prints is the new key.
    expect(await t.app.fiscal.authorisedNfeKey(orderId)).toBe(again.accessKey);
    expect(await shelfUnits(t.app, product, 1)).toBe(4);
  });

  it('refuses the swap once the NF-e can no longer be cancelled in time, and nothing moves', async () => {
    const { orderId, product, first, swap } = await paidOrder();
    now = new Date(first.authorisedAt!.getTime() + 23 * HOUR + 45 * 60_000);
    const refused = await swap();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('nota_nao_substituivel');
    expect(refused.json().detail).toContain('peça a troca depois de receber o pedido');
    expect(await shelfUnits(t.app, product, 0)).toBe(4);
    expect(await shelfUnits(t.app, product, 1)).toBe(5);
    const docs = await documentsOf(t.app.db, orderId);
    expect(docs.map((d) => [d.ref, d.status])).toEqual([[first.ref, 'autorizada']]);
  });
});
