import { randomUUID } from 'node:crypto';
import { COMPANY } from '@passada/core/company';
import bwipjs from 'bwip-js/node';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCode128, svgElementWidths } from '../../test/code128.ts';
import { waitForMailContaining } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createCoupon } from '../../test/factories/coupons.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cardToken, chargeByTxid, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom } from '../../test/factories/registrations.ts';
import { barWidthsOf, pdfImages, pdfPages } from '../../test/pdf-reader.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { CODE128_OPTIONS } from './barcode.ts';
import { ORDER_LINES_CSV_HEADER, ORDERS_CSV_HEADER } from './orders.routes.ts';

const START = new Date('2026-11-23T15:00:00Z');
const CPF = '40364478829';
/** The card holder of the other card orders of this file, so only one order carries `CPF`. */
const OTHER_HOLDER_CPF = cpfFrom(123_456_780);

describe('painel: orders and dashboard', () => {
  let t: TestApp;
  let admin: TestStaff;
  let operator: TestStaff;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await createTestApp({ now: () => START });
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
    buyer = await makeBuyer(t.app);
  });
  afterAll(() => t.close());

  const get = (who: { headers: Record<string, string> }, url: string) =>
    t.app.inject({ method: 'GET', url, headers: who.headers });
  const move = (who: TestStaff, id: number, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/painel/orders/${id}/status/`, headers: who.headers, payload });
  const stockOf = async (p: MadeProduct) =>
    (await t.app.catalog.getProduct(p.id, { color: p.stock[0]!.colorId, size: p.stock[0]!.sizeId })).stock[0]!
      .quantity;
  const waitForMail = (needle: string) => waitForMailContaining(t.dataDir, needle);

  async function paidPixOrder(product: MadeProduct, quantity = 2) {
    const draft = orderDraft(buyer, [{ product, quantity }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const created = await createOrderPix(t.app, buyer.headers, draft, total);
    const { txid } = created.json();
    const paid = await simulatePixPaid(t.app, txid);
    return { txid, orderId: paid.json().pedido_id as number, total };
  }

  /**
   * A card order by a holder with the CPF `holderCpf`; the server keeps it as the buyer's unless the
   * draft carries the "CPF na nota" (`draftCpf`), which wins (docs/decisions/0048).
   */
  async function paidCardOrder(
    product: MadeProduct,
    { holderCpf = OTHER_HOLDER_CPF, draftCpf }: { holderCpf?: string; draftCpf?: string } = {},
  ) {
    const draft = {
      ...orderDraft(buyer, [{ product, quantity: 1 }], { frete: 'PAC', metodo: 'cartao' }),
      ...(draftCpf ? { cpf: draftCpf } : {}),
    };
    const base = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-cartao/',
      headers: { ...buyer.headers, 'idempotency-key': randomUUID() },
      payload: {
        birth: '1988-03-09',
        payment_token: await cardToken(t.app, {
          number: '4111111111111111',
          holderName: 'Maria Silva',
          holderDocument: holderCpf,
        }),
        name: 'Maria Silva',
        cpf: holderCpf,
        phone: '85999999999',
        email: buyer.email,
        produto: 'Pedido Passada',
        total: base / 100,
        installments: 1,
        finalidade: 'pedido',
        pedido: draft,
      },
    });
    expect(res.statusCode).toBe(200);
    return { txid: res.json().txid as string, orderId: res.json().pedido_id as number };
  }

  it('refuses anonymous calls and customer tokens', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/painel/orders/' })).statusCode).toBe(401);
    expect((await get(buyer, '/api/painel/orders/')).statusCode).toBe(401);
    expect((await get(buyer, '/api/painel/dashboard/')).statusCode).toBe(401);
  });

  it('an operator ships a paid order with a tracking code; the buyer sees it, is told, and the audit keeps it', async () => {
    const product = await makeProduct(t.app.db, {
      name: 'Regata Vento Sul',
      stock: [{ color: 'Azul', size: 'M', quantity: 6 }],
    });
    const { orderId } = await paidPixOrder(product);

    const detail = await get(operator, `/api/painel/orders/${orderId}/`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      status: 'pago',
      itens: [{ nome: 'Regata Vento Sul', cor: 'Azul', tamanho: 'M', quantidade: 2 }],
      pagamento: { status: 'CONCLUIDA', devolucao: null },
      proximos_status: ['em separação', 'cancelado'],
    });
    expect(detail.json().pagamento.eventos.length).toBeGreaterThan(0);

    // Straight to "entregue" skips the flow.
    expect((await move(operator, orderId, { status: 'entregue' })).statusCode).toBe(409);
    expect((await move(operator, orderId, { status: 'em separação' })).statusCode).toBe(200);
    const noCode = await move(operator, orderId, { status: 'enviado' });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.body).toMatch(/código de rastreio/i);
    expect((await move(operator, orderId, { status: 'enviado', codigo_rastreio: '123' })).statusCode).toBe(
      400,
    );
    // One digit mistyped (9 for 5): the shape is right, the S10 check digit is not; nothing moves.
    const mistyped = await move(operator, orderId, { status: 'enviado', codigo_rastreio: 'AB123456789BR' });
    expect(mistyped.statusCode).toBe(400);
    expect(mistyped.json().errors).toEqual({
      codigo_rastreio:
        'Código de rastreio inválido: o dígito verificador não confere. Confira o código na etiqueta dos Correios.',
    });

    const shipped = await move(operator, orderId, { status: 'enviado', codigo_rastreio: 'ab123456785br' });
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json()).toMatchObject({
      status: 'enviado',
      codigo_rastreio: 'AB123456785BR',
      rastreio_url: expect.stringContaining(
        'rastreamento.correios.com.br/app/index.php?objeto=AB123456785BR',
      ),
      proximos_status: ['entregue'],
    });
    expect(shipped.json().linha_do_tempo.map((e: { status: string }) => e.status)).toEqual([
      'pago',
      'em separação',
      'enviado',
    ]);
    expect(shipped.json().linha_do_tempo[2]).toMatchObject({ por: expect.stringMatching(/^Equipe/) });

    // Shipped orders can no longer be cancelled.
    const late = await move(admin, orderId, { status: 'cancelado' });
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toMatch(/já enviado/);

    const mine = (await get(buyer, '/api/orders/')).json().find((o: { id: number }) => o.id === orderId);
    expect(mine).toMatchObject({ status: 'enviado', codigo_rastreio: 'AB123456785BR' });
    const mail = await waitForMail('AB123456785BR');
    expect(mail).toContain(`pedido nº ${orderId} foi enviado`);

    const auditPage = await get(admin, '/api/painel/audit/?entity=pedido');
    expect(auditPage.statusCode).toBe(200);
    expect(auditPage.json().results[0]).toMatchObject({
      entity: 'pedido',
      entity_id: String(orderId),
      staff_email: operator.email,
      before: { status: 'em separação', codigo_rastreio: null },
      after: { status: 'enviado', codigo_rastreio: 'AB123456785BR' },
    });

    expect((await move(operator, orderId, { status: 'entregue' })).json().status).toBe('entregue');
  });

  it('cancelling a paid Pix order returns the money through the provider and the units to stock', async () => {
    const product = await makeProduct(t.app.db, { stock: [{ color: 'Preto', size: 'G', quantity: 5 }] });
    const { txid, orderId, total } = await paidPixOrder(product, 3);
    expect(await stockOf(product)).toBe(2);

    // Cancelling returns the payment: an operator is refused, and no money nor unit moves.
    const refundsBefore = t.app.providers.payments.simulator!.refunds().length;
    const byOperator = await move(operator, orderId, { status: 'cancelado', motivo: 'cliente desistiu' });
    expect(byOperator.statusCode).toBe(403);
    expect(byOperator.json()).toMatchObject({ code: 'sem_permissao' });
    expect(t.app.providers.payments.simulator!.refunds()).toHaveLength(refundsBefore);
    expect(await stockOf(product)).toBe(2);
    expect((await get(admin, `/api/painel/orders/${orderId}/`)).json()).toMatchObject({
      status: 'pago',
      pagamento: { devolucao: null },
    });

    const res = await move(admin, orderId, { status: 'cancelado', motivo: 'cliente desistiu' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'cancelado',
      pagamento: { status: 'DEVOLVIDA', devolucao: { status: 'DEVOLVIDO', valor: total / 100 } },
    });
    expect(res.json().pagamento.eventos.at(-1)).toMatchObject({ origem: 'refund', tipo: 'DEVOLVIDO' });
    expect(await stockOf(product)).toBe(5);
    const charge = await chargeByTxid(t.app, txid);
    const refunds = t.app.providers.payments.simulator!.refunds();
    expect(refunds).toContainEqual(
      expect.objectContaining({ endToEndId: charge!.endToEndId, amountCents: total }),
    );

    // A second cancel changes nothing: no second refund, no units counted twice.
    expect((await move(admin, orderId, { status: 'cancelado' })).statusCode).toBe(409);
    expect(await stockOf(product)).toBe(5);
    expect(t.app.providers.payments.simulator!.refunds()).toHaveLength(refunds.length);

    const mine = (await get(buyer, '/api/orders/')).json().find((o: { id: number }) => o.id === orderId);
    expect(mine.status).toBe('cancelado');
    expect(await waitForMail(`pedido nº ${orderId} foi cancelado`)).toMatch(/devolvido por Pix/);
  });

  it('the detail shows the coupon; cancelling the order gives the coupon use back', async () => {
    const coupon = await createCoupon(t.app, admin.headers, { tipo: 'percentual', valor: 10, usos_max: 1 });
    const product = await makeProduct(t.app.db, {
      priceCents: 10000,
      stock: [{ color: 'Rosa', size: 'M', quantity: 5 }],
    });
    const buyWithCoupon = async (who: Buyer) => {
      const draft = { ...orderDraft(who, [{ product, quantity: 1 }]), cupom: coupon.codigo };
      const total = (await draftTotalCents(t.app, who.zipCode, draft, [product])) - 1000;
      return createOrderPix(t.app, who.headers, draft, total);
    };
    const created = await buyWithCoupon(buyer);
    expect(created.statusCode).toBe(201);
    const orderId = (await simulatePixPaid(t.app, created.json().txid)).json().pedido_id as number;
    expect((await get(operator, `/api/painel/orders/${orderId}/`)).json()).toMatchObject({
      cupom: coupon.codigo,
      desconto: 10,
    });
    // Its one use is spent: nobody else can use it.
    const other = await makeBuyer(t.app);
    expect((await buyWithCoupon(other)).json().code).toBe('cupom_esgotado');

    expect((await move(admin, orderId, { status: 'cancelado' })).statusCode).toBe(200);
    expect((await buyWithCoupon(other)).statusCode).toBe(201);
  });

  it('cancelling a paid card order refunds the card', async () => {
    const product = await makeProduct(t.app.db, { stock: [{ color: 'Verde', size: 'P', quantity: 2 }] });
    const { txid, orderId } = await paidCardOrder(product);
    expect(await stockOf(product)).toBe(1);
    const res = await move(admin, orderId, { status: 'cancelado' });
    expect(res.statusCode).toBe(200);
    expect(res.json().pagamento).toMatchObject({ status: 'DEVOLVIDA', devolucao: { status: 'DEVOLVIDO' } });
    expect(await stockOf(product)).toBe(2);
    const charge = await chargeByTxid(t.app, txid);
    expect(t.app.providers.payments.simulator!.refunds()).toContainEqual(
      expect.objectContaining({ cardChargeId: charge!.providerChargeId }),
    );
    // Reconciliation reads the card as refunded afterwards and does not flag it for staff.
    await t.app.payments.reconcileAll();
    expect((await chargeByTxid(t.app, txid))!.attention).toBeNull();
  });

  it('lists with filters and paging', async () => {
    const product = await makeProduct(t.app.db, { stock: [{ color: 'Rosa', size: 'M', quantity: 20 }] });
    const { orderId } = await paidPixOrder(product, 1);
    const all = (await get(operator, '/api/painel/orders/')).json();
    expect(all.count).toBeGreaterThanOrEqual(4);
    expect(all.results[0]).toMatchObject({ id: expect.any(Number), cliente: expect.any(String) });
    // "Cliente" is who bought; the parcel's recipient is beside it when someone else.
    const mine = all.results.find((o: { id: number }) => o.id === orderId);
    expect(mine).toMatchObject({ cliente: buyer.full_name, email: buyer.email });
    expect(mine.destinatario).toBe('Maria Silva');

    const byNumber = (await get(operator, `/api/painel/orders/?busca=${orderId}`)).json();
    expect(byNumber.results.map((o: { id: number }) => o.id)).toContain(orderId);
    const byEmail = (
      await get(operator, `/api/painel/orders/?busca=${encodeURIComponent(buyer.email)}`)
    ).json();
    expect(byEmail.count).toBe(all.count);
    expect((await get(operator, '/api/painel/orders/?busca=ninguem-com-esse-nome')).json().count).toBe(0);

    const shipped = (await get(operator, '/api/painel/orders/?status=entregue')).json();
    expect(shipped.results.every((o: { status: string }) => o.status === 'entregue')).toBe(true);
    expect(shipped.count).toBe(1);
    const cards = (await get(operator, '/api/painel/orders/?metodo=cartao')).json();
    expect(cards.count).toBe(1);
    expect((await get(operator, '/api/painel/orders/?de=2026-11-23&ate=2026-11-23')).json().count).toBe(
      all.count,
    );
    expect((await get(operator, '/api/painel/orders/?de=2026-11-24')).json().count).toBe(0);
    expect((await get(operator, '/api/painel/orders/?pagina=2')).json().results).toEqual([]);
    const bad = await get(operator, '/api/painel/orders/?de=23/11/2026');
    expect(bad.statusCode).toBe(400);
  });

  it('dashboard: sales apart, orders to ship, low stock, attention and the webhook state, for every role', async () => {
    const res = await get(operator, '/api/painel/dashboard/');
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.vendas_por_dia).toHaveLength(30);
    expect(d.vendas_por_dia.at(-1).dia).toBe('2026-11-23');
    // Cancelled orders do not count as sales.
    expect(d.vendas.hoje.loja).toBeGreaterThan(0);
    expect(d.vendas.dias_30.loja).toBe(d.vendas.hoje.loja);
    expect(d.vendas.hoje.inscricoes).toBe(0);
    expect(d.aguardando_envio).toBe(1);
    expect(d.estoque_baixo.length).toBeGreaterThan(0);
    expect(d.webhook_pix).toBe('desativado');
    expect(Array.isArray(d.atencao)).toBe(true);

    // Every order of this file was paid today; the cancelled ones were refunded whole.
    const all = (await get(operator, '/api/painel/orders/')).json();
    expect(all.count).toBeLessThanOrEqual(all.page_size);
    const cents = (list: Array<{ total: number }>) =>
      list.reduce((sum, o) => sum + Math.round(o.total * 100), 0);
    const cancelled = all.results.filter((o: { status: string }) => o.status === 'cancelado');
    const gross = cents(all.results);
    expect(d.pedidos_30_dias).toEqual({
      pedidos: all.count,
      bruto: gross / 100,
      devolvido: cents(cancelled) / 100,
      liquido: (gross - cents(cancelled)) / 100,
      ticket_medio: Math.round(gross / all.count) / 100,
    });
  });

  it('whoever ships (estoque) reads how many orders wait for shipping, not the sales; a desk volunteer reads neither', async () => {
    const stock = await createStaffAndLogin(t.app, 'estoque');
    const desk = await createStaffAndLogin(t.app, 'checkin');
    expect((await get(stock, '/api/painel/dashboard/')).statusCode).toBe(403);
    const waiting = await get(stock, '/api/painel/orders/aguardando-envio/');
    expect(waiting.statusCode, waiting.body).toBe(200);
    const listed = async (status: string) =>
      (await get(operator, `/api/painel/orders/?status=${encodeURIComponent(status)}`)).json()
        .count as number;
    expect(waiting.json()).toEqual({
      aguardando_envio: (await listed('pago')) + (await listed('em separação')),
    });
    expect((await get(desk, '/api/painel/orders/aguardando-envio/')).statusCode).toBe(403);
  });

  it("finds orders by the buyer's CPF typed either way and shows it masked; a Pix order without one has none", async () => {
    const product = await makeProduct(t.app.db, { stock: [{ color: 'Azul', size: 'G', quantity: 5 }] });
    // Without a "CPF na nota" the buyer's CPF is the card holder's the provider got.
    const { orderId } = await paidCardOrder(product, { holderCpf: CPF });
    const { orderId: pixOrderId } = await paidPixOrder(product, 1);

    for (const typed of ['40364478829', '403.644.788-29', ' 403644788-29 ']) {
      const found = (await get(operator, `/api/painel/orders/?busca=${encodeURIComponent(typed)}`)).json();
      expect(found.results.map((o: { id: number }) => o.id)).toEqual([orderId]);
    }
    // Another valid CPF finds nothing; number, name and e-mail still find orders.
    expect((await get(operator, '/api/painel/orders/?busca=52998224725')).json().count).toBe(0);
    expect((await get(operator, `/api/painel/orders/?busca=%23${orderId}`)).json().results[0].id).toBe(
      orderId,
    );
    const byName = (
      await get(operator, `/api/painel/orders/?busca=${encodeURIComponent(buyer.full_name)}`)
    ).json();
    expect(byName.results.map((o: { id: number }) => o.id)).toEqual(
      expect.arrayContaining([orderId, pixOrderId]),
    );

    const detail = (await get(operator, `/api/painel/orders/${orderId}/`)).json();
    expect(detail.cliente.cpf).toBe('***.644.788-**');
    expect(JSON.stringify(detail)).not.toContain('40364478829');
    expect((await get(operator, `/api/painel/orders/${pixOrderId}/`)).json().cliente.cpf).toBeNull();

    // With a "CPF na nota" in the draft, that CPF is the buyer's, not the card holder's.
    const { orderId: notaOrderId } = await paidCardOrder(product, {
      holderCpf: CPF,
      draftCpf: '529.982.247-25',
    });
    expect(
      (await get(operator, '/api/painel/orders/?busca=52998224725'))
        .json()
        .results.map((o: { id: number }) => o.id),
    ).toEqual([notaOrderId]);
    expect(
      (await get(operator, `/api/painel/orders/?busca=${CPF}`))
        .json()
        .results.map((o: { id: number }) => o.id),
    ).toEqual([orderId]);
  });

  it('internal notes: staff add them with author and time, audited, never shown to the buyer', async () => {
    const product = await makeProduct(t.app.db, { stock: [{ color: 'Lilás', size: 'M', quantity: 3 }] });
    const { orderId } = await paidPixOrder(product, 1);
    const note = (texto: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/painel/orders/${orderId}/notes/`,
        headers: operator.headers,
        payload: { texto },
      });
    const empty = await note('   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.texto).toBe('Escreva a nota.');
    const added = await note('Cliente pediu embrulho para presente.');
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      texto: 'Cliente pediu embrulho para presente.',
      em: START.toISOString(),
    });
    expect((await get(admin, `/api/painel/orders/${orderId}/`)).json().notas).toEqual([added.json()]);
    const audit = (await get(admin, '/api/painel/audit/?entity=pedido')).json().results[0];
    expect(audit).toMatchObject({ action: 'nota', entity_id: String(orderId), staff_email: operator.email });
    expect((await get(buyer, `/api/orders/${orderId}/`)).body).not.toContain('embrulho');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/painel/orders/999999/notes/',
          headers: admin.headers,
          payload: { texto: 'x' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('exports the filtered list as CSV (UTF-8 with BOM, formulas neutralised)', async () => {
    const product = await makeProduct(t.app.db, { stock: [{ color: 'Ocre', size: 'G', quantity: 5 }] });
    const { orderId, total } = await paidPixOrder(product, 1);
    const res = await get(operator, `/api/painel/orders.csv?busca=${orderId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="pedidos-2026-11-23\.csv"$/);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows: string[][] = parse(res.rawPayload, { bom: true, delimiter: ';' });
    expect(rows[0]).toEqual([...ORDERS_CSV_HEADER]);
    const line = rows.find((r) => r[0] === String(orderId));
    expect(line).toMatchObject({
      2: 'Pago',
      3: buyer.full_name,
      4: buyer.email,
      5: 'Pix',
      6: '1',
      10: (total / 100).toFixed(2).replace('.', ','),
      12: 'Maria Silva',
    });
    const all = parse((await get(operator, '/api/painel/orders.csv?status=pago')).rawPayload, {
      bom: true,
      delimiter: ';',
    });
    expect(all.length - 1).toBe((await get(operator, '/api/painel/orders/?status=pago')).json().count);
  });

  it('exports the filtered orders’ lines as CSV: one row per line, with SKU, colour, size and the price bought', async () => {
    const product = await makeProduct(t.app.db, {
      priceCents: 12_990,
      stock: [
        { color: 'Ocre', size: 'G', quantity: 5 },
        { color: 'Azul', size: 'P', quantity: 5 },
      ],
    });
    const draft = orderDraft(buyer, [
      { product, quantity: 2 },
      { product, quantity: 1, stockIndex: 1 },
    ]);
    const created = await createOrderPix(
      t.app,
      buyer.headers,
      draft,
      await draftTotalCents(t.app, buyer.zipCode, draft, [product]),
    );
    const orderId = (await simulatePixPaid(t.app, created.json().txid)).json().pedido_id as number;
    const res = await get(operator, `/api/painel/orders/itens.csv?busca=${orderId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="itens-pedidos-2026-11-23\.csv"$/,
    );
    const rows: string[][] = parse(res.rawPayload, { bom: true, delimiter: ';' });
    expect(rows[0]).toEqual([...ORDER_LINES_CSV_HEADER]);
    const mine = rows.filter((r) => r[0] === String(orderId));
    const [ocre, azul] = product.stock;
    expect(mine.map((r) => r.slice(2))).toEqual([
      [
        'Pago',
        buyer.full_name,
        buyer.email,
        `P${product.id}-C${ocre!.colorId}-T${ocre!.sizeId}`,
        product.name,
        'Ocre',
        'G',
        '2',
        '129,90',
        '259,80',
      ],
      [
        'Pago',
        buyer.full_name,
        buyer.email,
        `P${product.id}-C${azul!.colorId}-T${azul!.sizeId}`,
        product.name,
        'Azul',
        'P',
        '1',
        '129,90',
        '129,90',
      ],
    ]);
    // Unpaid charges have no lines of an order: the other export says so.
    const unpaid = await get(operator, '/api/painel/orders/itens.csv?status=aguardando%20pagamento');
    expect(unpaid.statusCode).toBe(400);
  });

  it('refuses an order draft with an invalid CPF before charging anything', async () => {
    const product = await makeProduct(t.app.db, { stock: [{ color: 'Cinza', size: 'M', quantity: 5 }] });
    const draft = { ...orderDraft(buyer, [{ product, quantity: 1 }]), cpf: '123.456.789-00' };
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const res = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ 'pedido.cpf': 'CPF inválido.' });
    expect(await stockOf(product)).toBe(5);
  });

  it('prints a packing slip: sender, recipient, items with SKU, and a Code 128 barcode a scanner reads as the order number', async () => {
    const product = await makeProduct(t.app.db, {
      name: 'Jaqueta Corta-Vento',
      stock: [{ color: 'Grafite', size: 'GG', quantity: 4 }],
    });
    const { orderId } = await paidPixOrder(product, 2);
    const res = await get(operator, `/api/painel/orders/${orderId}/romaneio/`);
    expect(res.statusCode).toBe(200);
    const slip = res.json();
    const combo = product.stock[0]!;
    expect(slip).toMatchObject({
      pedido: orderId,
      remetente: { nome: t.env.STORE_NAME, razao_social: COMPANY.legalName, endereco: COMPANY.address },
      destinatario: { nome: expect.any(String), cep: expect.stringMatching(/^\d{5}-\d{3}$/) },
      itens: [
        {
          sku: `P${product.id}-C${combo.colorId}-T${combo.sizeId}`,
          nome: 'Jaqueta Corta-Vento',
          cor: 'Grafite',
          tamanho: 'GG',
          quantidade: 2,
        },
      ],
      inscricoes: 0,
      codigo_barras: { formato: 'code128', texto: String(orderId) },
    });
    // The bars, read back by an independent Code 128 decoder, carry the order number ...
    const widths = svgElementWidths(slip.codigo_barras.svg, CODE128_OPTIONS.scale);
    expect(decodeCode128(widths)).toBe(String(orderId));
    // ... and are exactly the pattern bwip-js's own encoder gives for it.
    const [symbol] = bwipjs.raw({ bcid: 'code128', text: String(orderId) }) as Array<{ sbs: number[] }>;
    expect(widths).toEqual(symbol!.sbs);
    expect((await get(operator, '/api/painel/orders/999999/romaneio/')).statusCode).toBe(404);
  });

  it('prints the packing slips of a selection in one PDF, one page per order, read back by an independent reader', async () => {
    const shorts = await makeProduct(t.app.db, {
      name: 'Short Coqueiral',
      stock: [{ color: 'Areia', size: 'M', quantity: 6 }],
    });
    const first = (await paidPixOrder(shorts, 1)).orderId;
    const second = (await paidPixOrder(shorts, 3)).orderId;
    const res = await get(operator, `/api/painel/orders/romaneios.pdf?pedidos=${first},${second}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="romaneios-\d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    const pdf = res.rawPayload;
    const text = await pdfPages(pdf);
    expect(text).toHaveLength(2);
    const combo = shorts.stock[0]!;
    const sku = `P${shorts.id}-C${combo.colorId}-T${combo.sizeId}`;
    for (const [page, id, units] of [
      [0, first, 1],
      [1, second, 3],
    ] as const) {
      expect(text[page]).toContain(`Romaneio do pedido nº ${id}`);
      expect(text[page]).toContain(sku);
      expect(text[page]).toContain('Short Coqueiral');
      expect(text[page]).toContain('Areia');
      // The page says what the order's own slip says.
      const recipient = (await get(operator, `/api/painel/orders/${id}/romaneio/`)).json().destinatario;
      expect(text[page]).toContain(`DESTINATÁRIO\n${recipient.nome}`);
      expect(text[page]).toContain(`CEP ${recipient.cep}`);
      expect(text[page]).toContain(`${units} ${units === 1 ? 'unidade' : 'unidades'}`);
      // The page's barcode, as the PDF holds it, scanned along its middle row: the order number.
      const [image] = await pdfImages(pdf, page + 1);
      expect(image).toBeDefined();
      expect(decodeCode128(barWidthsOf(image!, CODE128_OPTIONS.scale))).toBe(String(id));
    }
    const tooMany = Array.from({ length: t.env.LABELS_MAX_PER_REQUEST + 1 }, (_, i) => i + 1).join(',');
    expect((await get(operator, `/api/painel/orders/romaneios.pdf?pedidos=${tooMany}`)).statusCode).toBe(400);
    expect((await get(operator, `/api/painel/orders/romaneios.pdf?pedidos=${first},999999`)).statusCode).toBe(
      404,
    );
    expect((await get(operator, '/api/painel/orders/romaneios.pdf?pedidos=abc')).statusCode).toBe(400);
  });
});
