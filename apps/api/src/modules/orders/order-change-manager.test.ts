import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, charges, orderReturns } from '../../db/schema/index.ts';
import { waitForMailContaining } from '../../test/factories/accounts.ts';
import type { MadeProduct } from '../../test/factories/catalog.ts';
import { type Buyer, makeShirtAndBuyer, paidTwoLineOrder, shelfUnits } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-23T12:00:00Z');

/**
 * The order's one door before shipping (docs/decisions/0065): a list of changes tried whole by its quote,
 * made once with the order's version as it was read, by the buyer or by staff with a reason.
 */
describe('a list of changes to an order before it ships', () => {
  const t = useClockedTestApp(START);
  let buyer: Buyer;
  let product: MadeProduct;

  beforeAll(async () => {
    ({ buyer, product } = await makeShirtAndBuyer(t.app, 'Camiseta Alteração'));
  });

  const buy = () => paidTwoLineOrder(t.app, buyer, product);
  const stockOf = (i: number) => shelfUnits(t.app, product, i);
  const post = (url: string, payload: object, headers: Record<string, string> = buyer.headers) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const afterSale = async (id: number) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/orders/${id}/pos-venda/`, headers: buyer.headers })
    ).json();
  const refundedOf = async (txid: string) => {
    const [c] = await t.app.db.select().from(charges).where(eq(charges.txid, txid));
    const rows = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, c!.id));
    return { status: c!.status, cents: rows.reduce((s, r) => s + r.amountCents, 0) };
  };

  it('the quote tries the list and changes nothing; the change does what it said, once; an older version is refused', async () => {
    const { txid, total, order } = await buy();
    const [blue] = order.items as [{ item_id: number }, { item_id: number }];
    const v0 = (await afterSale(order.id)).versao as number;
    const list = { itens: [{ item_id: blue.item_id, quantidade: 1 }], versao: v0 };

    const quote = await post(`/api/orders/${order.id}/alteracoes/cotacao/`, list);
    expect(quote.statusCode).toBe(200);
    expect(quote.json()).toEqual({
      a_devolver: 50,
      itens: [{ item_id: blue.item_id, quantidade: 1, valor: 50 }],
      inscricoes: [],
      trocas: [],
      novo_total: (total - 5000) / 100,
      cancela_pedido: false,
      versao: v0,
    });
    // Asking changed nothing: no request, no unit back, no refund, the same version.
    expect(await stockOf(0)).toBe(8);
    expect(await t.app.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id))).toEqual([]);
    expect(await refundedOf(txid)).toEqual({ status: 'CONCLUIDA', cents: 0 });
    expect((await afterSale(order.id)).versao).toBe(v0);

    // The same list twice in one request is refused before anything is written.
    const twice = await post(`/api/orders/${order.id}/alteracoes/`, {
      itens: [
        { item_id: blue.item_id, quantidade: 1 },
        { item_id: blue.item_id, quantidade: 1 },
      ],
      versao: v0,
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('alteracao_repetida');

    const made = await post(`/api/orders/${order.id}/alteracoes/`, list);
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ tipo: 'desistencia', status: 'reembolsada', valor_reembolsado: 50 });
    expect(await stockOf(0)).toBe(9);
    expect(await refundedOf(txid)).toEqual({ status: 'CONCLUIDA', cents: 5000 });

    // Sent again on the version it was read at: refused, nothing written a second time.
    const stale = await post(`/api/orders/${order.id}/alteracoes/`, list);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('pedido_alterado');
    expect(await stockOf(0)).toBe(9);
    expect(await refundedOf(txid)).toEqual({ status: 'CONCLUIDA', cents: 5000 });

    // The rest, quoted on the new version: the order would be cancelled and everything left comes back.
    const v1 = (await afterSale(order.id)).versao as number;
    expect(v1).toBeGreaterThan(v0);
    const rest = await post(`/api/orders/${order.id}/alteracoes/cotacao/`, { versao: v1 });
    expect(rest.json()).toMatchObject({ cancela_pedido: true, a_devolver: (total - 5000) / 100 });
    expect((await post(`/api/orders/${order.id}/alteracoes/`, { versao: v1 })).statusCode).toBe(201);
    expect(await refundedOf(txid)).toEqual({ status: 'DEVOLVIDA', cents: total });
  });

  it('staff change a list with a reason: only roles that move money, the buyer told the shop’s reason, audited', async () => {
    const { txid, total, order } = await buy();
    const [, black] = order.items as [{ item_id: number }, { item_id: number }];
    const operator = await createStaffAndLogin(t.app, 'operador');
    const finance = await createStaffAndLogin(t.app, 'financeiro');
    const url = `/api/painel/orders/${order.id}/alteracoes/`;
    const detail = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/painel/orders/${order.id}/`,
          headers: finance.headers,
        })
      ).json();
    const v0 = (await detail()).versao as number;
    const list = {
      itens: [{ item_id: black.item_id, quantidade: 1 }],
      motivo: 'Peça com defeito na separação',
      versao: v0,
    };

    expect((await post(url, list, operator.headers)).statusCode).toBe(403);
    expect((await post(url, { ...list, motivo: '' }, finance.headers)).statusCode).toBe(400);
    expect(await stockOf(1)).toBe(9);

    const quoted = await post(`${url}cotacao/`, list, finance.headers);
    expect(quoted.json()).toMatchObject({ a_devolver: 50, cancela_pedido: false, versao: v0 });
    expect(await stockOf(1)).toBe(9);
    const made = await post(url, list, finance.headers);
    expect(made.statusCode).toBe(200);
    expect(made.json().versao).toBeGreaterThan(v0);
    expect(await stockOf(1)).toBe(10);
    expect(await refundedOf(txid)).toEqual({ status: 'CONCLUIDA', cents: 5000 });
    await waitForMailContaining(t.dataDir, `A loja alterou o seu pedido nº ${order.id} antes do envio`);
    const [request] = (await afterSale(order.id)).solicitacoes;
    expect(request).toMatchObject({ motivo: 'loja', descricao: 'Peça com defeito na separação' });
    const audit = (
      await t.app.inject({
        method: 'GET',
        url: `/api/painel/audit/?entity=pedido`,
        headers: (await createStaffAndLogin(t.app, 'admin')).headers,
      })
    ).json();
    expect(JSON.stringify(audit)).toContain('Peça com defeito na separação');

    // A second person working from the old version is refused; the buyer's withdrawal of the rest then
    // empties the order: cancelled, every centavo of the charge back, shipping included.
    expect((await post(url, list, finance.headers)).json().code).toBe('pedido_alterado');
    expect((await post(`/api/orders/${order.id}/desistencia/`, {})).statusCode).toBe(201);
    expect(await refundedOf(txid)).toEqual({ status: 'DEVOLVIDA', cents: total });
    expect((await detail()).status).toBe('cancelado');
  });
});
