import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { makeEvent } from '../../test/factories/events.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
  quoteCents,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { UNPAID_CHARGES_CSV_HEADER } from './orders.routes.ts';

const START = new Date('2026-11-23T12:00:00Z');

describe('painel: orders awaiting payment and expired (unpaid charges)', () => {
  const t = useClockedTestApp(START, { env: { PIX_EXPIRATION_SECONDS: '1800' } });
  let stockStaff: TestStaff;
  let checkin: TestStaff;

  beforeAll(async () => {
    stockStaff = await createStaffAndLogin(t.app, 'estoque');
    checkin = await createStaffAndLogin(t.app, 'checkin');
  });

  const get = (who: TestStaff, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });

  /** A Pix order created and left unpaid by a new buyer; answers the txid, the buyer and the total. */
  async function unpaidPix(product: MadeProduct, quantity: number) {
    const buyer: Buyer = await makeBuyer(t.app);
    const draft = orderDraft(buyer, [{ product, quantity }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const created = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(created.statusCode).toBe(201);
    return { txid: created.json().txid as string, buyer, total };
  }

  it('"Aguardando pagamento" lists open Pix charges with what they hold; once expired they move to "Expirado"', async () => {
    const product = await makeProduct(t.app.db, {
      name: 'Camiseta Maré Alta',
      stock: [{ color: 'Coral', size: 'P', quantity: 10 }],
    });
    const open = await unpaidPix(product, 2);
    const paid = await unpaidPix(product, 1);
    await simulatePixPaid(t.app, paid.txid);

    const waiting = await get(stockStaff, '/api/painel/orders/?status=aguardando%20pagamento');
    expect(waiting.statusCode).toBe(200);
    const page = waiting.json();
    expect(page.results).toEqual([]);
    expect(page.count).toBe(1);
    expect(page.cobrancas).toEqual([
      {
        cobranca_id: expect.any(Number),
        txid: open.txid,
        status: 'aguardando pagamento',
        situacao: 'ATIVA',
        criada_em: START.toISOString(),
        expira_em: new Date(START.getTime() + 1800_000).toISOString(),
        cliente: expect.any(String),
        email: open.buyer.email,
        metodo_pagamento: 'pix',
        total: open.total / 100,
        itens: [{ nome: 'Camiseta Maré Alta', cor: 'Coral', tamanho: 'P', quantidade: 2 }],
        inscricoes: 0,
      },
    ]);
    // Nothing has expired yet; the paid one is an order, in neither list.
    expect((await get(stockStaff, '/api/painel/orders/?status=expirado')).json()).toMatchObject({
      results: [],
      cobrancas: [],
      count: 0,
    });
    // The buyer's e-mail and the txid find it; another method does not.
    const byEmail = await get(
      stockStaff,
      `/api/painel/orders/?status=aguardando%20pagamento&busca=${encodeURIComponent(open.buyer.email)}`,
    );
    expect(byEmail.json().cobrancas.map((c: { txid: string }) => c.txid)).toEqual([open.txid]);
    const byTxid = await get(
      stockStaff,
      `/api/painel/orders/?status=aguardando%20pagamento&busca=${open.txid}`,
    );
    expect(byTxid.json().count).toBe(1);
    const byCard = await get(stockStaff, '/api/painel/orders/?status=aguardando%20pagamento&metodo=cartao');
    expect(byCard.json().count).toBe(0);

    // Past its deadline the sweep ends it: no longer waiting, now expired, its units back.
    t.clock = new Date(START.getTime() + 1801_000);
    await t.app.payments.expireDue();
    expect((await get(stockStaff, '/api/painel/orders/?status=aguardando%20pagamento')).json().count).toBe(0);
    const expired = (await get(stockStaff, '/api/painel/orders/?status=expirado')).json();
    expect(expired.count).toBe(1);
    expect(expired.cobrancas[0]).toMatchObject({
      txid: open.txid,
      status: 'expirado',
      situacao: 'EXPIRADA',
      itens: [{ nome: 'Camiseta Maré Alta', quantidade: 2 }],
    });

    // The CSV follows the filter: the expired charge, read back by a CSV parser.
    const csv = await get(stockStaff, '/api/painel/orders.csv?status=expirado');
    expect(csv.statusCode).toBe(200);
    const rows: string[][] = parse(csv.rawPayload, { bom: true, delimiter: ';' });
    expect(rows[0]).toEqual([...UNPAID_CHARGES_CSV_HEADER]);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual([
      String(expired.cobrancas[0].cobranca_id),
      '23/11/2026, 09:00',
      '23/11/2026, 09:30',
      'Expirado',
      'EXPIRADA',
      expired.cobrancas[0].cliente,
      open.buyer.email,
      'Pix',
      '2x Camiseta Maré Alta (Coral, P)',
      '0',
      (open.total / 100).toFixed(2).replace('.', ','),
    ]);
  });

  it('a mixed cart waiting for its Pix shows its shirt and its registration', async () => {
    const event = await makeEvent(t.app.db, { name: 'Corrida do Carrinho', today: '2026-11-23' });
    const product = await makeProduct(t.app.db, {
      name: 'Viseira Brisa',
      priceCents: 4990,
      stock: [{ color: 'Branco', size: 'U', quantity: 3 }],
    });
    const buyer = await makeBuyer(t.app);
    const lines = orderDraft(buyer, [{ product }]);
    const runner = participant(event, [event.days[0]!.categories[0]!.id], { cpf: cpfFrom(530_000_001) });
    const totalCents =
      4990 + (await quoteCents(t.app, buyer.zipCode, lines)) + event.days[0]!.categories[0]!.priceCents;
    const created = await createOrderPix(
      t.app,
      buyer.headers,
      { ...lines, inscricoes: [runner] },
      totalCents,
    );
    expect(created.statusCode, created.body).toBe(201);

    const page = (
      await get(
        stockStaff,
        `/api/painel/orders/?status=aguardando%20pagamento&busca=${encodeURIComponent(buyer.email)}`,
      )
    ).json();
    expect(page.cobrancas).toEqual([
      expect.objectContaining({
        txid: created.json().txid,
        total: totalCents / 100,
        itens: [{ nome: 'Viseira Brisa', cor: 'Branco', tamanho: 'U', quantidade: 1 }],
        inscricoes: 1,
      }),
    ]);
  });

  it('pages server-side and stays closed to roles without orders', async () => {
    const product = await makeProduct(t.app.db, { stock: [{ color: 'Azul', size: 'M', quantity: 40 }] });
    const waiting = '/api/painel/orders/?status=aguardando%20pagamento';
    const before = (await get(stockStaff, waiting)).json().count as number;
    const made: string[] = [];
    for (let i = 0; i < 26; i++) made.push((await unpaidPix(product, 1)).txid);
    const first = (await get(stockStaff, waiting)).json();
    const second = (await get(stockStaff, `${waiting}&pagina=2`)).json();
    expect(first.count).toBe(before + 26);
    expect(first.cobrancas).toHaveLength(first.page_size);
    expect(second.cobrancas).toHaveLength(before + 26 - first.page_size);
    // Newest first, no charge on both pages, every new one on them.
    const seen = [...first.cobrancas, ...second.cobrancas].map((c: { txid: string }) => c.txid);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 26).sort()).toEqual([...made].sort());
    expect((await get(checkin, '/api/painel/orders/?status=aguardando%20pagamento')).statusCode).toBe(403);
    expect((await get(checkin, '/api/painel/orders.csv?status=expirado')).statusCode).toBe(403);
  });
});
