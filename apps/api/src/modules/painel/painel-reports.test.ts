import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds } from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { type Buyer, makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { chargeByTxid, simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationCard, registrationPix } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 10:00 in Fortaleza on 24 November 2026.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const DAY = 86_400_000;

/** Reports (docs/decisions/0039): an event's money, to the cent, and its registrations per day. */
describe('painel: reports', () => {
  const t = useClockedTestApp(START);
  const person = participantsFrom(420_000_000);
  let buyer: Buyer;
  let finance: TestStaff;
  let stockStaff: TestStaff;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    finance = await createStaffAndLogin(t.app, 'financeiro');
    stockStaff = await createStaffAndLogin(t.app, 'estoque');
  });

  const get = (who: TestStaff, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });

  it('sums gross, refunds (partial ones added up, failed ones out) and net per method and per lot, and registrations per day', async () => {
    const event = await makeEvent(t.app.db, {
      name: 'Corrida dos Relatórios',
      today: TODAY,
      days: [
        [
          { name: '5 km', priceCents: 8000, lots: [{ name: '1º lote', priceCents: 5000, untilCount: 2 }] },
          { name: '10 km', priceCents: 10990 },
        ],
      ],
    });
    const [five, ten] = event.days[0]!.categories.map((c) => c.id) as [number, number];
    const pix = async (name: string, category: number, total: number) => {
      const created = await registrationPix(t.app, person(event, name, category), total, buyer.headers);
      expect(created.statusCode, created.body).toBe(201);
      const paid = await simulatePixPaid(t.app, created.json().txid);
      return { id: paid.json().inscricao_id as number, txid: created.json().txid as string };
    };

    // Day 1: two in the first lot, one by Pix and one by card.
    await pix('Ana Lote', five, 50);
    const card = await registrationCard(t.app, {
      number: '4111111111111111',
      draft: person(event, 'Bia Cartao', five),
      total: 50,
      user: buyer,
      key: randomUUID(),
    });
    expect(card.statusCode, card.body).toBe(200);
    // Day 3 (nobody on day 2): the lot is over, the category's own price; then one in the 10 km.
    t.clock = new Date(START.getTime() + 2 * DAY);
    await pix('Caio Tabela', five, 80);
    const duda = await pix('Duda Dez', ten, 109.9);

    // Bia gets two partial refunds (10,00 and 5,55) and a third that the provider refused (out).
    const bia = (await chargeByTxid(t.app, card.json().txid))!;
    for (const cents of [1000, 555, 100])
      await t.app.db.transaction((tx) =>
        t.app.payments.refundPart(tx, bia.id, {
          refundId: `rel${randomUUID().replaceAll('-', '')}`.slice(0, 35),
          amountCents: cents,
          reason: 'Ajuste de teste',
        }),
      );
    await t.app.db
      .update(chargeRefunds)
      .set({ status: 'NAO_REALIZADO' })
      .where(eq(chargeRefunds.amountCents, 100));
    // Two days on, staff sign in again.
    const admin = await createStaffAndLogin(t.app, 'admin');
    const finance = await createStaffAndLogin(t.app, 'financeiro');
    // Duda's registration is cancelled by the shop: all of it goes back.
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/painel/registrations/${duda.id}/cancel/`,
      headers: admin.headers,
      payload: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    const list = await get(finance, '/api/painel/relatorios/eventos/');
    expect(list.statusCode).toBe(200);
    expect(list.json().find((e: { evento_id: number }) => e.evento_id === event.id)).toEqual({
      evento_id: event.id,
      evento: 'Corrida dos Relatórios',
      data: event.startDate,
      inscricoes: 4,
      canceladas: 1,
      bruto: 289.9,
      devolvido: 125.45,
      liquido: 164.45,
    });

    const report = await get(finance, `/api/painel/relatorios/eventos/${event.id}/`);
    expect(report.statusCode).toBe(200);
    expect(report.json()).toEqual({
      evento_id: event.id,
      evento: 'Corrida dos Relatórios',
      data: event.startDate,
      inscricoes: 4,
      canceladas: 1,
      bruto: 289.9,
      devolvido: 125.45,
      liquido: 164.45,
      descontos: 0,
      pos_venda: 0,
      vagas_equipe: 0,
      por_metodo: [
        { metodo: 'cartao', inscricoes: 1, canceladas: 0, bruto: 50, devolvido: 15.55, liquido: 34.45 },
        { metodo: 'pix', inscricoes: 3, canceladas: 1, bruto: 239.9, devolvido: 109.9, liquido: 130 },
      ],
      por_lote: [
        { categoria: '10 km', lote: null, inscricoes: 1, canceladas: 1, valor: 109.9 },
        { categoria: '5 km', lote: '1º lote', inscricoes: 2, canceladas: 0, valor: 100 },
        { categoria: '5 km', lote: null, inscricoes: 1, canceladas: 0, valor: 80 },
      ],
      // No special price in this event: every race at the lot's (or the category's) price, the same sum.
      por_regra: [{ regra: 'Preço do lote', regra_id: null, inscricoes: 4, canceladas: 1, valor: 289.9 }],
      por_dia: [
        { dia: '2026-11-24', inscricoes: 2, canceladas: 0 },
        { dia: '2026-11-25', inscricoes: 0, canceladas: 0 },
        { dia: '2026-11-26', inscricoes: 2, canceladas: 1 },
      ],
      retiradas: { total: 0, titular: 0, autorizado: 0, equipe: 0, trouxeram_item: 0, item_total: 0 },
    });

    // The CSV carries the same figures, read back by a CSV parser.
    const csv = await get(finance, `/api/painel/relatorios/eventos/${event.id}/relatorio.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows: string[][] = parse(csv.rawPayload, { bom: true, delimiter: ';' });
    expect(rows).toEqual([
      ['Seção', 'Item', 'Inscrições', 'Canceladas', 'Bruto (R$)', 'Devolvido (R$)', 'Líquido (R$)'],
      ['Total', 'Corrida dos Relatórios', '4', '1', '289,90', '125,45', '164,45'],
      ['Forma de pagamento', 'Cartão', '1', '0', '50,00', '15,55', '34,45'],
      ['Forma de pagamento', 'Pix', '3', '1', '239,90', '109,90', '130,00'],
      ['Lote (preço de tabela)', '10 km · Preço da categoria', '1', '1', '109,90', '', ''],
      ['Lote (preço de tabela)', '5 km · 1º lote', '2', '0', '100,00', '', ''],
      ['Lote (preço de tabela)', '5 km · Preço da categoria', '1', '0', '80,00', '', ''],
      ['Preço (especial, 60+ ou do lote)', 'Preço do lote', '4', '1', '289,90', '', ''],
      ['Descontos de cupons', '', '', '', '0,00', '', ''],
      ['Transferências e trocas de distância', '', '', '', '0,00', '', ''],
      ['Inscrições por dia', '2026-11-24', '2', '0', '', '', ''],
      ['Inscrições por dia', '2026-11-25', '0', '0', '', '', ''],
      ['Inscrições por dia', '2026-11-26', '2', '1', '', '', ''],
    ]);
  });

  it('an event without registrations answers zeros; an unknown one 404; roles without reports are refused', async () => {
    const event = await makeEvent(t.app.db, { name: 'Corrida Vazia', today: TODAY });
    expect((await get(finance, `/api/painel/relatorios/eventos/${event.id}/`)).json()).toMatchObject({
      inscricoes: 0,
      bruto: 0,
      devolvido: 0,
      liquido: 0,
      por_metodo: [],
      por_lote: [],
      por_regra: [],
      por_dia: [],
    });
    expect((await get(finance, '/api/painel/relatorios/eventos/999999/')).statusCode).toBe(404);
    expect((await get(stockStaff, '/api/painel/relatorios/eventos/')).statusCode).toBe(403);
    expect(
      (await get(stockStaff, `/api/painel/relatorios/eventos/${event.id}/relatorio.csv`)).statusCode,
    ).toBe(403);
  });
});
