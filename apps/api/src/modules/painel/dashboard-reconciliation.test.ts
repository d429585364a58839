import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { authTokens, chargeRefunds, products } from '../../db/schema/index.ts';
import { hashToken } from '../../plugins/auth.ts';
import { readOutbox } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import {
  type Buyer,
  draftTotalCents,
  makeBuyer,
  orderDraft,
  quoteCents,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import {
  cpfFrom,
  participant,
  participantsFrom,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 10:00 in Fortaleza on 20 November 2026; the race is on 20 December.
const START = new Date('2026-11-20T13:00:00Z');
const TODAY = '2026-11-20';
const DAY = 86_400_000;
const APPROVED_CARD = '4111111111111111';
const day = (n: number) => `2026-11-${String(20 + n).padStart(2, '0')}`;

/**
 * The back office's money figures against the charges themselves: a shop where every charge purpose
 * is paid (an order, a mixed cart, direct registrations, an exchange's difference, a transfer's fee, a
 * dearer distance) and some money goes back (a partial refund, a whole cancellation, a refund the
 * provider refused). The dashboard and the event report must equal, to the cent, what was paid less
 * what went back, each under its heading and on the day its charge was paid.
 */
describe('painel: the dashboard and the reports add up to the charges', () => {
  const t = useClockedTestApp(START);
  const person = participantsFrom(610_000_000);
  let buyer: Buyer;
  let friend: Buyer;
  let admin: TestStaff;
  let finance: TestStaff;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    friend = await makeBuyer(t.app);
  });

  const db = () => t.app.db;
  const call = (
    method: 'GET' | 'POST' | 'PUT',
    who: { headers: Record<string, string> },
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  /** Moves the clock `days` after the start, with fresh sessions for the buyers and the staff. */
  async function at(days: number) {
    t.clock = new Date(START.getTime() + days * DAY);
    const fresh = async (who: Buyer) => {
      const token = randomBytes(32).toString('base64url');
      await db()
        .insert(authTokens)
        .values({
          userId: who.id,
          tokenHash: hashToken(token),
          expiresAt: new Date(t.clock.getTime() + DAY),
        });
      return { ...who, headers: { authorization: `Token ${token}` } };
    };
    buyer = await fresh(buyer);
    friend = await fresh(friend);
    admin = await createStaffAndLogin(t.app, 'admin');
    finance = await createStaffAndLogin(t.app, 'financeiro');
  }

  const paidPix = async (created: Awaited<ReturnType<typeof registrationPix>>) => {
    expect(created.statusCode, created.body).toBe(201);
    const paid = await simulatePixPaid(t.app, created.json().txid);
    expect(paid.json()).toMatchObject({ status: 'CONCLUIDA' });
    return paid.json() as { pedido_id?: number; inscricao_id?: number };
  };
  const orderPix = (draft: unknown, totalCents: number) =>
    call('POST', buyer, '/api/pagar-pix/', { total: totalCents / 100, finalidade: 'pedido', pedido: draft });
  const card = (who: Buyer, draft: unknown, total: number) =>
    registrationCard(t.app, { number: APPROVED_CARD, draft, total, user: who, key: randomUUID() });

  it('every purpose paid, some refunded: each figure is the paid charges less the refunds that went through', async () => {
    await at(0);
    const shirt: MadeProduct = await makeProduct(db(), {
      name: 'Camiseta Conciliada',
      priceCents: 10_000,
      stock: [
        { color: 'Azul', size: 'M', quantity: 5 },
        { color: 'Azul', size: 'G', quantity: 5 },
      ],
    });
    const cap = await makeProduct(db(), { name: 'Boné Conciliado', priceCents: 8990 });
    const event: MadeEvent = await makeEvent(db(), {
      name: 'Corrida da Conciliação',
      today: TODAY,
      startDate: '2026-12-20',
      registrationDeadline: '2026-12-19',
      days: [
        [
          { name: '5 km', priceCents: 5000 },
          { name: '10 km', priceCents: 8000 },
        ],
      ],
      kitSizes: [{ size: 'M', left: 20 }],
    });
    const [five, ten] = event.days[0]!.categories.map((c) => c.id) as [number, number];
    const kit = event.kitSizes![0]!.id;
    const rules = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...body } = (await call('GET', admin, rules)).json();
    expect(
      (await call('PUT', admin, rules, { ...body, transferencia_taxa: 15, troca_distancia_taxa: 5 }))
        .statusCode,
    ).toBe(200);

    // Day 0. An order of one shirt (Pix).
    const shirtDraft = orderDraft(buyer, [{ product: shirt }]);
    const orderCents = await draftTotalCents(t.app, buyer.zipCode, shirtDraft, [shirt]);
    const order = (await paidPix(await orderPix(shirtDraft, orderCents))).pedido_id!;
    // A mixed cart: a cap and one runner in the 10 km (R$ 80,00), one Pix.
    const capDraft = orderDraft(buyer, [{ product: cap }]);
    const cartCents = 8990 + (await quoteCents(t.app, buyer.zipCode, capDraft)) + 8000;
    const cart = (
      await paidPix(
        await orderPix(
          { ...capDraft, inscricoes: [person(event, 'Ana Carrinho', ten, { tamanho_camisa: kit })] },
          cartCents,
        ),
      )
    ).pedido_id!;
    // Two direct registrations in the 5 km: Bia by card, Caio by Pix.
    const bia = await card(buyer, person(event, 'Bia Direta', five, { tamanho_camisa: kit }), 50);
    expect(bia.statusCode, bia.body).toBe(200);
    const caio = (
      await paidPix(
        await registrationPix(
          t.app,
          person(event, 'Caio Direto', five, { tamanho_camisa: kit }),
          50,
          buyer.headers,
        ),
      )
    ).inscricao_id!;

    // Day 1. Bia moves up to the 10 km: R$ 5,00 fee and R$ 30,00 difference, by card.
    await at(1);
    const change = await card(
      buyer,
      { troca_distancia: { inscricao: bia.json().inscricao_id, de: five, para: ten } },
      35,
    );
    expect(change.statusCode, change.body).toBe(200);
    // Caio hands his registration to a friend, who pays the R$ 15,00 fee by card.
    const to = { nome_completo: 'Davi Amigo', cpf: cpfFrom(619_000_000), email: friend.email };
    const asked = await call('POST', buyer, `/api/inscricoes/${caio}/transferir/`, to);
    expect(asked.statusCode, asked.body).toBe(201);
    const token = transferToken(to.email);
    const transfer = await card(
      friend,
      {
        ...participant(event, [five], { ...to, data_nascimento: '1992-03-04', tamanho_camisa: kit }),
        transferencia: token,
      },
      15,
    );
    expect(transfer.statusCode, transfer.body).toBe(200);

    // Days 2 to 4. The shirt is delivered, its price goes up, and the buyer exchanges M for G,
    // paying the R$ 25,00 difference by Pix on day 4.
    await at(2);
    for (const step of [{ status: 'em separação' }, { status: 'enviado', codigo_rastreio: 'AA123456785BR' }])
      expect((await call('POST', admin, `/api/painel/orders/${order}/status/`, step)).statusCode).toBe(200);
    expect(
      (await call('POST', admin, `/api/painel/orders/${order}/status/`, { status: 'entregue' })).statusCode,
    ).toBe(200);
    await at(4);
    await db().update(products).set({ priceCents: 12_500 }).where(eq(products.id, shirt.id));
    const itemId = (await call('GET', buyer, '/api/orders/'))
      .json()
      .find((o: { id: number }) => o.id === order).items[0].item_id as number;
    const exchange = await call('POST', buyer, `/api/orders/${order}/trocas/`, {
      itens: [
        {
          item_id: itemId,
          quantidade: 1,
          cor_id: shirt.stock[1]!.colorId,
          tamanho_id: shirt.stock[1]!.sizeId,
        },
      ],
      motivo: 'arrependimento',
    });
    expect(exchange.statusCode, exchange.body).toBe(201);
    await paidPix(
      await call('POST', buyer, '/api/pagar-pix/', {
        total: 25,
        finalidade: 'troca',
        troca: { solicitacao: exchange.json().id },
      }),
    );

    // Day 5. Staff give R$ 10,00 of the cart back (a partial refund), then R$ 7,77 more that the
    // provider refuses; and cancel Caio's transferred registration, returning both its charges whole.
    await at(5);
    const refunds = `/api/painel/orders/${cart}/reembolsos/`;
    const part = await call('POST', admin, refunds, {
      valor: 10,
      motivo: 'Brinde que faltou',
      reembolsos_vistos: 0,
    });
    expect(part.statusCode, part.body).toBe(200);
    const failed = await call('POST', admin, refunds, {
      valor: 7.77,
      motivo: 'Ajuste',
      reembolsos_vistos: 1,
    });
    expect(failed.statusCode, failed.body).toBe(200);
    await db()
      .update(chargeRefunds)
      .set({ status: 'NAO_REALIZADO' })
      .where(eq(chargeRefunds.amountCents, 777));
    const cancelled = await call('POST', admin, `/api/painel/registrations/${caio}/cancel/`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    // Day 6: the figures. What came in, per heading and day of payment, less what of it went back.
    await at(6);
    const shop = { [day(0)]: orderCents + (cartCents - 8000) - 1000, [day(4)]: 2500 };
    const regs = { [day(0)]: 8000 + 5000 + 5000 - 5000, [day(1)]: 3500 + 1500 - 1500 };
    const dash = await call('GET', finance, '/api/painel/dashboard/');
    expect(dash.statusCode).toBe(200);
    const d = dash.json();
    const cents = (reais: number) => Math.round(reais * 100);
    for (const { dia, loja, inscricoes } of d.vendas_por_dia as Array<{
      dia: string;
      loja: number;
      inscricoes: number;
    }>) {
      expect([dia, cents(loja), cents(inscricoes)]).toEqual([dia, shop[dia] ?? 0, regs[dia] ?? 0]);
    }
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    expect(d.vendas.hoje).toEqual({ loja: 0, inscricoes: 0 });
    expect({ loja: cents(d.vendas.dias_7.loja), inscricoes: cents(d.vendas.dias_7.inscricoes) }).toEqual({
      loja: sum(shop),
      inscricoes: sum(regs),
    });
    const grossCents = orderCents + cartCents + 5000 + 5000 + 3500 + 1500 + 2500;
    const backCents = 1000 + 5000 + 1500;
    expect(d.pedidos_30_dias).toEqual({
      pedidos: 2,
      bruto: grossCents / 100,
      devolvido: backCents / 100,
      liquido: (grossCents - backCents) / 100,
      ticket_medio: Math.round((orderCents + cartCents) / 2) / 100,
    });
    // The same, straight from the payments' tables: every paid charge, less every refund not refused.
    const [books] = (
      (await db().execute(sql`
        select (select sum(amount_cents) from charges where paid_at is not null)::int as paid,
               (select sum(amount_cents) from charge_refunds where status <> 'NAO_REALIZADO')::int as back`)) as unknown as {
        rows: Array<{ paid: number; back: number }>;
      }
    ).rows;
    expect([books!.paid, books!.back]).toEqual([grossCents, backCents]);
    expect(cents(d.vendas.dias_30.loja) + cents(d.vendas.dias_30.inscricoes)).toBe(grossCents - backCents);

    // The event's report: its registrations (Ana in the cart, Bia, Caio) and what the change and the
    // transfer paid, split by payment method; the registrations' heading of the dashboard, to the cent.
    const report = await call('GET', finance, `/api/painel/relatorios/eventos/${event.id}/`);
    expect(report.statusCode).toBe(200);
    expect(report.json()).toMatchObject({
      inscricoes: 3,
      canceladas: 1,
      bruto: 230,
      devolvido: 65,
      liquido: 165,
      descontos: 0,
      pos_venda: 50,
      por_metodo: [
        { metodo: 'cartao', inscricoes: 1, canceladas: 0, bruto: 100, devolvido: 15, liquido: 85 },
        { metodo: 'pix', inscricoes: 2, canceladas: 1, bruto: 130, devolvido: 50, liquido: 80 },
      ],
      // Bia moved from the 5 km (R$ 50) to the 10 km: her race counts there at what it was sold for,
      // its R$ 30 difference (and the fee) in pos_venda; not at the 10 km's R$ 80 a second time.
      por_lote: [
        { categoria: '10 km', lote: null, inscricoes: 2, canceladas: 0, valor: 130 },
        { categoria: '5 km', lote: null, inscricoes: 1, canceladas: 1, valor: 50 },
      ],
    });
    // The report's identity: its lines, less the coupons, plus what was paid after the sale, are the gross.
    const r = report.json() as {
      por_lote: Array<{ valor: number }>;
      descontos: number;
      pos_venda: number;
      bruto: number;
    };
    expect(r.por_lote.reduce((s, l) => s + cents(l.valor), 0) - cents(r.descontos) + cents(r.pos_venda)).toBe(
      cents(r.bruto),
    );
    expect(cents(report.json().liquido)).toBe(sum(regs));
    const list = (await call('GET', finance, '/api/painel/relatorios/eventos/')).json();
    expect(list.find((e: { evento_id: number }) => e.evento_id === event.id)).toMatchObject({
      bruto: 230,
      devolvido: 65,
      liquido: 165,
    });
  });

  /** The token of the transfer link last e-mailed to `email`. */
  function transferToken(email: string): string {
    const mail = readOutbox(t.dataDir)
      .filter((m) => m.includes(email))
      .at(-1);
    const token = mail?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    if (!token) throw new Error(`no transfer link e-mailed to ${email}`);
    return token;
  }
});
