import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * "Avise-me quando chegar" (decision 0069): one e-mail per address, once, when the colour and size come
 * back; the oldest waiting first, as many as the units that came back; nothing for a size on sale.
 */
describe('back-in-stock alerts', () => {
  let t: TestApp;
  let now = new Date('2026-11-22T12:00:00Z');
  let staff: TestStaff;
  let shirt: MadeProduct;

  const combo = (size: 'M' | 'G') => shirt.stock.find((s) => s.size === size)!;
  const ask = (email: string, size: 'M' | 'G' = 'M', productId = shirt.id) =>
    t.app.inject({
      method: 'POST',
      url: `/api/products/${productId}/avise-me/`,
      payload: { cor: combo(size).colorId, tamanho: combo(size).sizeId, email },
    });
  const restock = async (quantidade: number, opts: { wait?: boolean } = { wait: true }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/painel/stock/',
      headers: staff.headers,
      payload: {
        product_id: shirt.id,
        color_id: combo('M').colorId,
        size_id: combo('M').sizeId,
        modo: 'ajustar',
        quantidade,
        motivo: quantidade > 0 ? 'entrada' : 'venda_balcao',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    if (opts.wait) await untilJobsDone(t.app.db, 'catalog.stock-alerts', 'mail.stock-alert');
  };
  /** Who got the alert, in the order the e-mails were written. */
  const told = () =>
    readOutbox(t.dataDir)
      .filter((m) => m.includes('voltou ao estoque'))
      .map((m) => /^To: (.+)$/m.exec(m)?.[1]?.trim());

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    staff = await createStaffAndLogin(t.app, 'admin');
    shirt = await makeProduct(t.app.db, {
      name: 'Regata Sertão',
      stock: [
        { color: 'Preto', size: 'M', quantity: 0 },
        { color: 'Preto', size: 'G', quantity: 2 },
      ],
    });
  });
  afterAll(() => t.close());

  it('refuses a size on sale and a combination the product does not have', async () => {
    const onSale = await ask('ana.estoque@example.com', 'G');
    expect(onSale.statusCode).toBe(409);
    expect(onSale.json().code).toBe('em_estoque');
    const other = await makeProduct(t.app.db, { stock: [{ color: 'Azul', size: 'P', quantity: 0 }] });
    expect((await ask('ana.estoque@example.com', 'M', other.id)).statusCode).toBe(404);
    expect((await ask('não é e-mail')).statusCode).toBe(400);
  });

  it('tells only the first in line when one unit comes back, never twice, and the next ones with the next units', async () => {
    for (const [i, email] of [
      'ana.estoque@example.com',
      'bia.estoque@example.com',
      'caio.estoque@example.com',
    ].entries()) {
      now = new Date(now.getTime() + 60_000 * (i + 1));
      const res = await ask(email);
      expect(res.statusCode, res.body).toBe(201);
    }
    // Asking again answers the same and keeps the place in line.
    expect((await ask('BIA.estoque@example.com')).statusCode).toBe(201);

    await restock(1);
    expect(told()).toEqual(['ana.estoque@example.com']);
    const [mail] = readOutbox(t.dataDir).filter((m) => m.includes('voltou ao estoque'));
    expect(mail).toContain('Regata Sertão, na cor Preto e no tamanho M, voltou ao estoque.');
    expect(mail).toContain(`/produto/${shirt.id}`);

    // The sweep again (every minute): nobody is told twice, and Bia waits for the next unit.
    await t.app.jobs.send('catalog.stock-alerts', {});
    await untilJobsDone(t.app.db, 'catalog.stock-alerts', 'mail.stock-alert');
    expect(told()).toEqual(['ana.estoque@example.com']);

    // Sold at the counter, then one more unit: Bia, second to ask; then two units, and only Caio waits.
    await restock(-1);
    await restock(1);
    expect(told()).toEqual(['ana.estoque@example.com', 'bia.estoque@example.com']);
    await restock(2);
    expect(told()).toEqual([
      'ana.estoque@example.com',
      'bia.estoque@example.com',
      'caio.estoque@example.com',
    ]);
    // Staff's changes one after the other, before the queue ran any: one sweep waits, and none fails.
    await restock(-3, { wait: false });
    await restock(1, { wait: false });
    await restock(3);
    expect(told()).toHaveLength(3);
  });
});
