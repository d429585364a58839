import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shippingLabels } from '../../db/schema/shipping.ts';
import type { LabelProvider } from '../../providers/shipping/label.provider.ts';
import { createOfflineLabelProvider } from '../../providers/shipping/offline-labels.provider.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Real row locks and connections that race: PostgreSQL only (npm test provides one).
requirePostgres();

const inner = createOfflineLabelProvider();
let purchases = 0;
const provider: LabelProvider = {
  ...inner,
  async purchase(ref, request) {
    purchases += 1;
    return inner.purchase(ref, request);
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ providers: { labels: provider } });
});
afterAll(() => t.close());

it('six staff generating the same label at once make one purchase; every later try reads it back', async () => {
  const staff = await Promise.all(Array.from({ length: 6 }, () => createStaffAndLogin(t.app, 'operador')));
  const buyer = await makeBuyer(t.app);
  const shirt = await makeProduct(t.app.db, { stock: [{ color: 'Preto', size: 'M', quantity: 5 }] });
  const draft = orderDraft(buyer, [{ product: shirt, quantity: 1 }]);
  const total = await draftTotalCents(t.app, buyer.zipCode, draft, [shirt]);
  const created = await createOrderPix(t.app, buyer.headers, draft, total);
  const id = (await simulatePixPaid(t.app, created.json().txid)).json().pedido_id as number;

  const answers = await Promise.all(
    staff.map((s) =>
      t.app.inject({
        method: 'POST',
        url: '/api/painel/orders/labels/',
        headers: s.headers,
        payload: { pedidos: [{ id }] },
      }),
    ),
  );
  expect(answers.map((a) => a.statusCode)).toEqual(staff.map(() => 200));
  const results = answers.map((a) => a.json().resultados[0]);
  expect(results.every((r) => r.situacao === 'comprada' || r.situacao === 'em_andamento')).toBe(true);
  expect(purchases).toBe(1);
  const rows = await t.app.db.select().from(shippingLabels).where(eq(shippingLabels.orderId, id));
  expect(rows).toHaveLength(1);
  const again = await t.app.inject({
    method: 'POST',
    url: '/api/painel/orders/labels/',
    headers: staff[0]!.headers,
    payload: { pedidos: [{ id }] },
  });
  expect(again.json().resultados[0]).toMatchObject({
    situacao: 'comprada',
    codigo_rastreio: rows[0]!.trackingCode,
  });
  expect(purchases).toBe(1);
});
