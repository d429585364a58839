import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { stock, stockMovements } from '../../db/schema/index.ts';
import {
  SIMULATED_APPROVED_CARDS,
  SIMULATED_REFUSED_CARDS,
} from '../../providers/payments/simulado.provider.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeQuickBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cardToken, simulatePixPaid } from '../../test/factories/payments.ts';
import { CPF } from '../../test/factories/registrations.ts';
import { requirePostgres, useClockedTestApp } from '../../test/test-app.ts';

// Real row locks and connections that race: PostgreSQL only (npm test provides one).
requirePostgres();

const START = new Date('2026-11-24T13:00:00Z');
const t = useClockedTestApp(START, {
  env: {
    PAYMENTS_RATE_LIMIT_PER_IP: '100000',
    PAYMENTS_RATE_LIMIT_PER_ACCOUNT: '100000',
    // Each expiry moves the clock past the deadline; the staff session (8 h) outlives all of them.
    PIX_EXPIRATION_SECONDS: '60',
  },
});

/** A small seeded generator (mulberry32): the same seed plays the same sequence every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

type Buyer = Awaited<ReturnType<typeof makeQuickBuyer>>;
type Line = { product: MadeProduct; stockIndex: number; quantity: number };

let admin: TestStaff;
let products: MadeProduct[];
beforeAll(async () => {
  admin = await createStaffAndLogin(t.app, 'admin');
  products = [
    await makeProduct(t.app.db, {
      name: 'Camiseta Livro-Razão',
      stock: [
        { color: 'Azul', size: 'P', quantity: 6 },
        { color: 'Azul', size: 'M', quantity: 4 },
      ],
    }),
    await makeProduct(t.app.db, {
      name: 'Short Livro-Razão',
      stock: [{ color: 'Preto', size: 'G', quantity: 5 }],
    }),
  ];
});

/** For each combination of this file: its stock and the sum of its movements. */
async function ledger() {
  const ids = products.map((p) => p.id);
  const key = (r: { productId: number; colorId: number; sizeId: number }) =>
    `${r.productId}/${r.colorId}/${r.sizeId}`;
  const [rows, sums] = await Promise.all([
    t.app.db.select().from(stock).where(inArray(stock.productId, ids)),
    t.app.db
      .select({
        productId: stockMovements.productId,
        colorId: stockMovements.colorId,
        sizeId: stockMovements.sizeId,
        sum: sql<number>`sum(${stockMovements.delta})::int`,
      })
      .from(stockMovements)
      .where(inArray(stockMovements.productId, ids))
      .groupBy(stockMovements.productId, stockMovements.colorId, stockMovements.sizeId),
  ]);
  const sumOf = new Map(sums.map((r) => [key(r), r.sum]));
  return rows.map((r) => ({ combo: key(r), quantity: r.quantity, sum: sumOf.get(key(r)) ?? 0 }));
}

async function expectLedgerAddsUp(step: string) {
  for (const row of await ledger()) {
    expect(row.sum, `${step}: ${row.combo}`).toBe(row.quantity);
    expect(row.quantity).toBeGreaterThanOrEqual(0);
  }
}

describe('stock ledger: sum(movements) = stock after every step (PostgreSQL)', () => {
  const rand = random(20261124);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)]!;
  const paidOrders: number[] = [];

  function someLines(): Line[] {
    const first = pick(products);
    const lines: Line[] = [
      {
        product: first,
        stockIndex: Math.floor(rand() * first.stock.length),
        quantity: 1 + Math.floor(rand() * 2),
      },
    ];
    const second = pick(products);
    if (rand() < 0.4 && second !== first) lines.push({ product: second, stockIndex: 0, quantity: 1 });
    return lines;
  }

  async function checkout(buyer: Buyer, lines: Line[], metodo: 'pix' | 'cartao') {
    const draft = orderDraft(buyer, lines, { metodo });
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, products);
    return { draft, total };
  }

  async function pixSale(pay: boolean) {
    const buyer = await makeQuickBuyer(t.app);
    const { draft, total } = await checkout(buyer, someLines(), 'pix');
    const res = await createOrderPix(t.app, buyer.headers, draft, total);
    if (res.statusCode !== 201) return expect(res.json().code).toBe('estoque_insuficiente');
    if (!pay) return;
    const paid = await simulatePixPaid(t.app, res.json().txid);
    expect(paid.statusCode).toBe(200);
    paidOrders.push(paid.json().pedido_id);
  }

  async function cardSale(approved: boolean) {
    const buyer = await makeQuickBuyer(t.app);
    const { draft, total } = await checkout(buyer, someLines(), 'cartao');
    const number = approved ? SIMULATED_APPROVED_CARDS.visa : SIMULATED_REFUSED_CARDS.visa;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-cartao/',
      headers: { ...buyer.headers, 'idempotency-key': randomUUID() },
      payload: {
        birth: '1988-03-09',
        payment_token: await cardToken(t.app, { number, holderName: 'Ana Lima', holderDocument: CPF }),
        name: 'Ana Lima',
        cpf: CPF,
        phone: '85999999999',
        email: 'ana.lima@example.com',
        produto: 'Pedido Passada',
        total: total / 100,
        installments: 1,
        finalidade: 'pedido',
        pedido: draft,
      },
    });
    if (res.statusCode === 409) return expect(res.json().code).toBe('estoque_insuficiente');
    if (!approved) return expect(res.json().code).toBe('pagamento_recusado');
    expect(res.statusCode).toBe(200);
    paidOrders.push(res.json().pedido_id);
  }

  async function expireOpenPix() {
    t.clock = new Date(t.clock.getTime() + 2 * 60_000);
    await t.app.payments.reconcileAll();
  }

  async function cancelAnOrder() {
    const id = paidOrders.splice(Math.floor(rand() * paidOrders.length), 1)[0];
    if (id === undefined) return;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${id}/status/`,
      headers: admin.headers,
      payload: { status: 'cancelado', note: 'Teste do livro-razão' },
    });
    expect(res.statusCode).toBe(200);
  }

  async function adjust() {
    const product = pick(products);
    const line = pick(product.stock);
    const quantidade = rand() < 0.6 ? 1 + Math.floor(rand() * 4) : -1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/painel/stock/',
      headers: admin.headers,
      payload: {
        product_id: product.id,
        color_id: line.colorId,
        size_id: line.sizeId,
        modo: 'ajustar',
        quantidade,
        motivo: quantidade > 0 ? 'entrada' : 'avaria',
      },
    });
    // Taking out the last unit while checkouts hold the rest is refused; the ledger stays whole.
    expect([200, 409]).toContain(res.statusCode);
  }

  const steps = [
    () => pixSale(true),
    () => pixSale(false),
    () => cardSale(true),
    () => cardSale(false),
    expireOpenPix,
    cancelAnOrder,
    adjust,
  ];

  it('a seeded random sequence of sales, expiries, refusals, cancellations and adjustments', async () => {
    await expectLedgerAddsUp('start');
    for (let i = 0; i < 36; i++) {
      if (i % 4 === 3) {
        // Several at once: their statements interleave on the same rows.
        const chosen = Array.from({ length: 4 }, () => pick(steps));
        await Promise.all(chosen.map((step) => step()));
      } else {
        await pick(steps)();
      }
      await expectLedgerAddsUp(`step ${i}`);
    }
    await expireOpenPix();
    await expectLedgerAddsUp('end');

    // Each kind the shop writes appeared at least once, and sales link to their orders.
    const combo = { productId: products[0]!.id, ...products[0]!.stock[0]! };
    const kinds = await t.app.db
      .selectDistinct({ reason: stockMovements.reason })
      .from(stockMovements)
      .where(
        inArray(
          stockMovements.productId,
          products.map((p) => p.id),
        ),
      );
    expect(kinds.map((k) => k.reason).sort()).toEqual(
      expect.arrayContaining(['saldo_inicial', 'reserva', 'venda', 'liberacao', 'cancelamento', 'entrada']),
    );
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/painel/stock/history/?product_id=${combo.productId}&color_id=${combo.colorId}&size_id=${combo.sizeId}`,
      headers: admin.headers,
    });
    expect(history.statusCode, history.body).toBe(200);
    const sales = history.json().filter((m: { reason: string }) => m.reason === 'venda');
    expect(sales.every((m: { order_id: number | null; delta: number }) => m.order_id && m.delta === 0)).toBe(
      true,
    );
    const [{ sum } = { sum: -1 }] = await t.app.db
      .select({ sum: sql<number>`coalesce(sum(${stockMovements.delta}), 0)::int` })
      .from(stockMovements)
      .where(
        and(
          eq(stockMovements.productId, combo.productId),
          eq(stockMovements.colorId, combo.colorId),
          eq(stockMovements.sizeId, combo.sizeId),
        ),
      );
    expect(history.json()[0].quantity_after).toBe(sum);
  });
});
