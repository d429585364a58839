import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isS10Code } from '@passada/core/s10';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orderDeliveries } from '../../db/schema/orders.ts';
import { shippingLabels } from '../../db/schema/shipping.ts';
import type { LabelProvider } from '../../providers/shipping/label.provider.ts';
import { createOfflineLabelProvider } from '../../providers/shipping/offline-labels.provider.ts';
import { readOutbox, waitForMailContaining } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-23T15:00:00Z');
const HOUR = 3_600_000;
// A valid NF-e access key (44 digits, the last the mod-11 check digit).
const NFE_KEY = '23261112345678000199550010000000011000000011';

/** The offline provider, counting the purchases it is asked for. */
function countingProvider() {
  const inner = createOfflineLabelProvider();
  const calls = { create: 0, purchase: 0 };
  const provider: LabelProvider = {
    ...inner,
    async create(request) {
      calls.create += 1;
      // A real provider answers after a while: long enough for a second click to arrive meanwhile.
      await new Promise((r) => setTimeout(r, 30));
      return inner.create(request);
    },
    async purchase(ref, request) {
      calls.purchase += 1;
      return inner.purchase(ref, request);
    },
  };
  return { provider, calls };
}

describe('shipping labels with the offline provider', () => {
  let t: TestApp;
  let clock = START;
  let admin: TestStaff;
  let volunteer: TestStaff;
  let buyer: Buyer;
  let shirt: MadeProduct;
  const counting = countingProvider();

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, providers: { labels: counting.provider } });
    admin = await createStaffAndLogin(t.app, 'estoque');
    volunteer = await createStaffAndLogin(t.app, 'checkin');
    buyer = await makeBuyer(t.app);
    shirt = await makeProduct(t.database.db, {
      weightGrams: 180,
      dims: [30, 22, 3],
      stock: [{ color: 'Preto', size: 'M', quantity: 50 }],
    });
  });
  afterAll(() => t.close());

  async function paidOrder(quantity = 2, frete: 'PAC' | 'SEDEX' = 'PAC') {
    const draft = orderDraft(buyer, [{ product: shirt, quantity }], { frete });
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [shirt]);
    const created = await createOrderPix(t.app, buyer.headers, draft, total);
    const paid = await simulatePixPaid(t.app, created.json().txid);
    return paid.json().pedido_id as number;
  }
  const generate = (who: TestStaff, pedidos: object[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/painel/orders/labels/',
      headers: who.headers,
      payload: { pedidos },
    });
  const print = (who: TestStaff, ids: number[]) =>
    t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/labels.pdf?pedidos=${ids.join(',')}`,
      headers: who.headers,
    });
  const detail = (id: number) =>
    t.app.inject({ method: 'GET', url: `/api/painel/orders/${id}/`, headers: admin.headers });
  const labelOf = async (id: number) =>
    (await t.database.db.select().from(shippingLabels).where(eq(shippingLabels.orderId, id)))[0];
  const mailsAbout = (needle: string) => readOutbox(t.dataDir).filter((m) => m.includes(needle));

  it('an addition has no label of its own: its units and value go on the first order’s', async () => {
    const id = await paidOrder(1);
    const { address_id: _a, frete: _f, ...rest } = orderDraft(buyer, [{ product: shirt, quantity: 2 }]);
    const created = await createOrderPix(
      t.app,
      buyer.headers,
      { ...rest, complemento_de: id },
      shirt.priceCents * 2,
    );
    expect(created.statusCode, created.body).toBe(201);
    const additionId = (await simulatePixPaid(t.app, created.json().txid)).json().pedido_id as number;

    const alone = (await generate(admin, [{ id: additionId, chave_nfe: NFE_KEY }])).json().resultados[0];
    expect(alone).toMatchObject({ pedido: additionId, situacao: 'erro' });
    expect(alone.erro).toContain(`vai na caixa do pedido nº ${id}`);
    const res = await generate(admin, [{ id, chave_nfe: NFE_KEY }]);
    expect(res.json().resultados[0]).toMatchObject({ pedido: id, situacao: 'comprada' });
    expect((await labelOf(id))?.request).toMatchObject({
      declaredValueCents: shirt.priceCents * 3,
      pkg: { weightGrams: 540 },
      products: [expect.objectContaining({ quantity: 1 }), expect.objectContaining({ quantity: 2 })],
    });
  });

  it('buys a label whose S10 code the provider fills in on the order, with the declared value and package', async () => {
    const id = await paidOrder(2);
    const res = await generate(admin, [{ id, chave_nfe: NFE_KEY }]);
    expect(res.statusCode).toBe(200);
    const [result] = res.json().resultados;
    expect(result).toMatchObject({ pedido: id, situacao: 'comprada', erro: null });
    expect(isS10Code(result.codigo_rastreio)).toBe(true);
    expect((await detail(id)).json()).toMatchObject({
      status: 'pago',
      codigo_rastreio: result.codigo_rastreio,
    });
    const row = await labelOf(id);
    expect(row?.request).toMatchObject({
      orderId: id,
      service: 'PAC',
      nfeKey: NFE_KEY,
      declaredValueCents: shirt.priceCents * 2,
      pkg: { weightGrams: 360, lengthCm: 30, widthCm: 22, heightCm: 6 },
    });
    // The buyer sees the code on their orders.
    const mine = await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers });
    expect(mine.json().find((o: { id: number }) => o.id === id).codigo_rastreio).toBe(result.codigo_rastreio);
    // Staff's audit log (an admin's to read) has the purchase, under the order, with its code.
    const auditor = await createStaffAndLogin(t.app, 'admin');
    const log = await t.app.inject({
      method: 'GET',
      url: '/api/painel/audit/?entity=pedido',
      headers: auditor.headers,
    });
    expect(log.statusCode, log.body).toBe(200);
    const lines = (log.json().results as Array<{ action: string; entity_id: string; after: unknown }>).filter(
      (e) => e.action === 'etiqueta' && e.entity_id === String(id),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]!.after).toEqual({ codigo_rastreio: result.codigo_rastreio });
  });

  it('never buys the same label twice: two staff at once make one purchase, a retry reads it back', async () => {
    const id = await paidOrder(1);
    const before = { ...counting.calls };
    const [a, b] = await Promise.all([generate(admin, [{ id }]), generate(admin, [{ id }])]);
    const results = [a.json().resultados[0], b.json().resultados[0]];
    expect(results.map((r) => r.situacao).sort()).toEqual(['comprada', 'em_andamento']);
    expect(counting.calls.create - before.create).toBe(1);
    expect(counting.calls.purchase - before.purchase).toBe(1);
    const again = (await generate(admin, [{ id }])).json().resultados[0];
    expect(again).toMatchObject({
      situacao: 'comprada',
      codigo_rastreio: results.find((r) => r.situacao === 'comprada').codigo_rastreio,
    });
    expect(counting.calls.create - before.create).toBe(1);
  });

  it('refuses a wrong NF-e key with a clear message, and orders that ship nothing, one by one', async () => {
    const id = await paidOrder(1);
    const bad = await generate(admin, [{ id, chave_nfe: `${NFE_KEY.slice(0, 43)}9` }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Chave da NF-e inválida');
    expect(await labelOf(id)).toBeUndefined();
    const res = await generate(admin, [{ id: 999_999 }, { id }]);
    const [missing, ok] = res.json().resultados;
    expect(missing).toMatchObject({
      pedido: 999_999,
      situacao: 'erro',
      erro: 'Pedido nº 999999 não encontrado.',
    });
    expect(ok).toMatchObject({ pedido: id, situacao: 'comprada' });
  });

  it('prints several labels into one PDF carrying their codes, and refuses orders without a label', async () => {
    const a = await paidOrder(1);
    const b = await paidOrder(3, 'SEDEX');
    const codes = (await generate(admin, [{ id: a }, { id: b }]))
      .json()
      .resultados.map((r: { codigo_rastreio: string }) => r.codigo_rastreio);
    const res = await print(admin, [a, b]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="etiquetas-/);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    for (const code of codes) expect(pdf.includes(Buffer.from(code))).toBe(true);
    expect((pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBe(2);

    const none = await paidOrder(1);
    const refused = await print(admin, [a, none]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(
      `Sem etiqueta comprada: pedido nº ${none}. Gere a etiqueta antes de imprimir.`,
    );
  });

  it('is for staff with the orders permission only', async () => {
    const id = await paidOrder(1);
    expect((await generate(volunteer, [{ id }])).statusCode).toBe(403);
    expect((await print(volunteer, [id])).statusCode).toBe(403);
    expect(await labelOf(id)).toBeUndefined();
  });

  it('keeps staff marking the order shipped with the label code, as before', async () => {
    const id = await paidOrder(1);
    const code = (await generate(admin, [{ id }])).json().resultados[0].codigo_rastreio;
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${id}/status/`,
      headers: admin.headers,
      payload: { status: 'em separação' },
    });
    expect(moved.statusCode).toBe(200);
    const shipped = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${id}/status/`,
      headers: admin.headers,
      payload: { status: 'enviado', codigo_rastreio: code },
    });
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json()).toMatchObject({ status: 'enviado', codigo_rastreio: code });
  });

  it('reads tracking on schedule: e-mails once at posted, out for delivery and delivered, and starts the returns window', async () => {
    // Labels bought earlier in this file move too; this test follows one bought now.
    const id = await paidOrder(1);
    const code = (await generate(admin, [{ id }])).json().resultados[0].codigo_rastreio as string;
    const bought = clock;
    const at = async (hours: number) => {
      clock = new Date(bought.getTime() + hours * HOUR);
      await t.app.labels.trackAll();
    };

    await at(1);
    expect((await detail(id)).json().status).toBe('pago');

    // Posted: the order ships with the label's code; the buyer gets the "enviado" e-mail.
    await t.app.jobs.send('shipping.track-all', {});
    clock = new Date(bought.getTime() + 3 * HOUR);
    await waitForMailContaining(t.dataDir, `Seu pedido nº ${id} foi enviado`);
    expect((await detail(id)).json()).toMatchObject({ status: 'enviado', codigo_rastreio: code });
    await at(4);

    await at(73);
    const out = await waitForMailContaining(t.dataDir, `Seu pedido nº ${id} saiu para entrega`);
    expect(out).toContain(code);
    await at(74);

    await at(79);
    await waitForMailContaining(t.dataDir, `Seu pedido nº ${id} foi entregue`);
    await at(80);
    // Days went by: the morning's painel session has ended, so a new one reads on.
    const late = await createStaffAndLogin(t.app, 'estoque');
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${id}/`,
      headers: late.headers,
    });
    expect(shown.json().status).toBe('entregue');
    const timeline = shown.json().linha_do_tempo as Array<{ status: string; por: string | null }>;
    expect(timeline.filter((e) => e.status === 'entregue')).toEqual([
      expect.objectContaining({ por: 'Rastreio dos Correios' }),
    ]);
    const [delivery] = await t.database.db
      .select()
      .from(orderDeliveries)
      .where(eq(orderDeliveries.orderId, id));
    expect(delivery).toMatchObject({ source: 'rastreio', deliveredOn: '2026-11-26' });
    const afterSale = await t.app.inject({
      method: 'GET',
      url: `/api/orders/${id}/pos-venda/`,
      headers: buyer.headers,
    });
    expect(afterSale.json().entregue_em).toBe('2026-11-26');

    // A later order's e-mail arrives after every run above: nothing was sent twice.
    const later = await paidOrder(1);
    await generate(late, [{ id: later }]);
    const laterBought = clock;
    clock = new Date(laterBought.getTime() + 3 * HOUR);
    await t.app.labels.trackAll();
    await waitForMailContaining(t.dataDir, `Seu pedido nº ${later} foi enviado`);
    expect(mailsAbout(`Seu pedido nº ${id} foi enviado`)).toHaveLength(1);
    expect(mailsAbout(`Seu pedido nº ${id} saiu para entrega`)).toHaveLength(1);
    expect(mailsAbout(`Seu pedido nº ${id} foi entregue`)).toHaveLength(1);
    expect((await labelOf(id))?.trackingState).toBe('entregue');
  });

  it('tells a buyer who opted in on WhatsApp that the parcel left and is out for delivery, as the e-mails do', async () => {
    const staff = await createStaffAndLogin(t.app, 'estoque');
    const draft = { ...orderDraft(buyer, [{ product: shirt, quantity: 1 }]), whatsapp: true };
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [shirt]);
    const created = await createOrderPix(t.app, buyer.headers, draft, total);
    const id = (await simulatePixPaid(t.app, created.json().txid)).json().pedido_id as number;
    const code = (await generate(staff, [{ id }])).json().resultados[0].codigo_rastreio as string;
    const bought = clock;
    for (const hours of [1, 3, 73]) {
      clock = new Date(bought.getTime() + hours * HOUR);
      await t.app.labels.trackAll();
    }
    const updates = () => {
      const dir = path.join(t.dataDir, 'outbox', 'whatsapp');
      return readdirSync(dir)
        .map(
          (f) =>
            JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { template: string; parameters: string[] },
        )
        .filter((m) => m.template === 'pedido_atualizado' && m.parameters[1] === String(id))
        .map((m) => m.parameters[2])
        .sort();
    };
    await vi.waitFor(
      () =>
        expect(updates()).toEqual([
          'está sendo separado e embalado',
          `foi enviado pelos Correios, código de rastreio ${code}`,
          'pagamento confirmado',
          'saiu para entrega',
        ]),
      { timeout: 45_000, interval: 200 },
    );
  });

  describe('cancelled with its order (docs/decisions/0048)', () => {
    let manager: TestStaff;
    beforeAll(async () => {
      // Back to the first day, when the staff sessions of this file are still open.
      clock = new Date(START.getTime() + HOUR);
      manager = await createStaffAndLogin(t.app, 'admin');
    });
    const cancelOrder = (id: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/painel/orders/${id}/status/`,
        headers: manager.headers,
        payload: { status: 'cancelado', motivo: 'Cliente desistiu' },
      });
    const labelView = (id: number) =>
      t.app.inject({ method: 'GET', url: `/api/painel/orders/${id}/etiqueta/`, headers: admin.headers });

    it('an order cancelled before posting cancels its label, and staff see it cancelled', async () => {
      const id = await paidOrder(1);
      const code = (await generate(admin, [{ id }])).json().resultados[0].codigo_rastreio as string;
      expect((await labelView(id)).json()).toMatchObject({
        situacao: 'comprada',
        codigo_rastreio: code,
        cancelada_em: null,
      });
      expect((await cancelOrder(id)).statusCode).toBe(200);
      await expect
        .poll(async () => (await labelView(id)).json().situacao, { timeout: 45_000 })
        .toBe('cancelada');
      expect((await labelView(id)).json()).toMatchObject({
        codigo_rastreio: code,
        cancelada_em: clock.toISOString(),
        cancelamento_recusado: null,
      });
      // A cancelled label is neither printed nor tracked any more.
      expect((await print(admin, [id])).statusCode).toBe(409);
      expect((await labelView(id)).statusCode).toBe(200);
      // Running the job again changes nothing.
      await t.app.labels.cancelForOrder(id);
      expect((await labelOf(id))?.status).toBe('cancelada');
    });

    it('a parcel posted already is not cancelled: the order is, and staff see why', async () => {
      const id = await paidOrder(1);
      await generate(admin, [{ id }]);
      const bought = clock;
      // Three hours later the offline parcel is at the post office, before any tracking run saw it.
      clock = new Date(bought.getTime() + 3 * HOUR);
      expect((await cancelOrder(id)).statusCode).toBe(200);
      await expect
        .poll(async () => (await labelView(id)).json().cancelamento_recusado, { timeout: 45_000 })
        .toContain('já foi postado');
      expect((await labelView(id)).json().situacao).toBe('comprada');
      expect((await detail(id)).json().status).toBe('cancelado');
    });

    it('an order without a label has none to cancel', async () => {
      const id = await paidOrder(1);
      expect((await cancelOrder(id)).statusCode).toBe(200);
      await t.app.labels.cancelForOrder(id);
      expect((await labelView(id)).json()).toBeNull();
    });
  });
});
