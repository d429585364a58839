import { ProductSchema } from '@passada/core/contracts/catalog';
import { AuditPageSchema, PainelProductSchema } from '@passada/core/contracts/painel';
import { formatBRL } from '@passada/core/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeQuickBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * Sale prices (decision 0082): "de R$ 129,90 por R$ 99,90" from a start to an end, on the shop's lists,
 * its product page and its search, and what the server charges; the cached answers change by themselves
 * at the start and the end.
 */
describe('painel: a product on sale between two moments', () => {
  let t: TestApp;
  let now = new Date('2026-12-01T12:00:00Z');
  let admin: TestStaff;
  let shirt: MadeProduct;
  const start = new Date('2026-12-01T13:00:00Z');
  const end = new Date('2026-12-03T03:00:00Z');

  const product = async () =>
    (await t.app.inject({ method: 'GET', url: `/api/products/${shirt.id}/` })).json();
  const painelProduct = async (id = shirt.id) =>
    PainelProductSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/painel/products/${id}/`,
          headers: admin.headers,
        })
      ).json(),
    );
  /** The back office's audit log of products, newest first. */
  const productAudit = async () =>
    AuditPageSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/painel/audit/?entity=produto',
          headers: admin.headers,
        })
      ).json(),
    );
  const setSale = (versao: number, promocao: object | null) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/painel/products/${shirt.id}/promocao/`,
      headers: admin.headers,
      payload: { versao, promocao },
    });
  /** The minute's job, as the schedule runs it. */
  const tick = async (at: Date) => {
    now = at;
    await t.app.jobs.send('catalog.sale-boundaries', {});
    await untilJobsDone(t.app.db, 'catalog.sale-boundaries');
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    admin = await createStaffAndLogin(t.app, 'admin');
    shirt = await makeProduct(t.app.db, {
      name: 'Camiseta Promoção de Verão',
      priceCents: 12990,
      stock: [{ color: 'Coral', size: 'M', quantity: 10 }],
    });
  });
  afterAll(() => t.close());

  it('refuses a sale that is not one, and keeps the one staff set at the version they read', async () => {
    const { versao } = await painelProduct();
    const at = { inicio: start.toISOString(), fim: end.toISOString() };
    const notLower = await setSale(versao, { preco: 129.9, ...at });
    expect(notLower.statusCode).toBe(400);
    expect(notLower.json().detail).toBe(
      `O preço promocional deve ser menor que o preço do produto (${formatBRL(12990)}).`,
    );
    const backwards = await setSale(versao, {
      preco: 99.9,
      inicio: end.toISOString(),
      fim: start.toISOString(),
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors['promocao.fim']).toBe('O fim deve vir depois do início.');
    const past = await setSale(versao, {
      preco: 99.9,
      inicio: '2026-11-01T12:00:00Z',
      fim: '2026-11-02T12:00:00Z',
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().detail).toBe('O fim da promoção já passou.');

    const saved = await setSale(versao, { preco: 99.9, ...at });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(PainelProductSchema.parse(saved.json()).promocao).toEqual({ preco: 99.9, ...at, combinacoes: [] });
    // A form opened before that save is refused, not written over it.
    expect((await setSale(versao, null)).statusCode).toBe(409);
    const log = await productAudit();
    expect(log.results.find((e) => e.action === 'promocao_definida')?.after).toEqual({
      promocao: { preco: 99.9, ...at, combinacoes: [] },
    });
  });

  it('shows and charges the sale price from its start to its end, the cached pages changing by themselves', async () => {
    // Before the start: the list price, and the shop's cached answer holds it.
    expect(await product()).toMatchObject({ price: 129.9 });
    expect((await product()).preco_de).toBeUndefined();

    // The start: until the minute's job runs, the cached answer still says the list price (what the
    // job is for); the job drops it, and the price is the sale's, the list price beside it.
    now = new Date(start.getTime() + 30_000);
    expect((await product()).price).toBe(129.9);
    await tick(now);
    expect(await product()).toMatchObject({ price: 99.9, preco_de: 129.9, promocao_ate: end.toISOString() });
    const listed = (await t.app.inject({ method: 'GET', url: '/api/products/' })).json() as Array<{
      id: number;
      price: number;
    }>;
    expect(listed.find((p) => p.id === shirt.id)?.price).toBe(99.9);
    // The price range of the search compares the price asked now.
    const search = await t.app.inject({ method: 'GET', url: '/api/products/search/?max_price=100' });
    expect((search.json() as Array<{ id: number }>).map((p) => p.id)).toContain(shirt.id);

    // The server charges the sale price, and refuses a total made with the list price.
    const buyer = await makeQuickBuyer(t.app);
    const draft = orderDraft(buyer, [{ product: shirt }]);
    const atList = await draftTotalCents(t.app, buyer.zipCode, draft, [shirt]);
    expect((await createOrderPix(t.app, buyer.headers, draft, atList)).statusCode).toBe(409);
    const onSale = await draftTotalCents(t.app, buyer.zipCode, draft, [{ ...shirt, priceCents: 9990 }]);
    const charged = await createOrderPix(t.app, buyer.headers, draft, onSale);
    expect(charged.statusCode, charged.body).toBe(201);
    expect(onSale - atList).toBe(9990 - 12990);

    // The end: back to the list price.
    await tick(new Date(end.getTime() + 10_000));
    const after = await product();
    expect(after.price).toBe(129.9);
    expect(after.preco_de).toBeUndefined();
  });

  it('ends a sale at once when staff end it', async () => {
    now = new Date('2026-12-05T12:00:00Z');
    // Days later: a new sign-in (a back-office session lasts hours).
    admin = await createStaffAndLogin(t.app, 'admin');
    const { versao } = await painelProduct();
    const saved = await setSale(versao, {
      preco: 109.9,
      inicio: '2026-12-05T11:00:00Z',
      fim: '2026-12-06T11:00:00Z',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await product()).price).toBe(109.9);
    const ended = await setSale(PainelProductSchema.parse(saved.json()).versao, null);
    expect(ended.statusCode).toBe(200);
    expect(PainelProductSchema.parse(ended.json()).promocao).toBeNull();
    expect((await product()).price).toBe(129.9);
  });

  it('limits a sale to some colours × sizes: their price alone changes, on the page and in the charge', async () => {
    const tank = await makeProduct(t.app.db, {
      name: 'Regata Saldo de Tamanhos',
      priceCents: 9990,
      stock: [
        { color: 'Coral', size: 'M', quantity: 5 },
        { color: 'Coral', size: 'GG', quantity: 5 },
      ],
    });
    const url = `/api/painel/products/${tank.id}/promocao/`;
    const read = () => painelProduct(tank.id);
    const sale = (versao: number, combinacoes: object[]) =>
      t.app.inject({
        method: 'PUT',
        url,
        headers: admin.headers,
        payload: {
          versao,
          promocao: { preco: 69.9, inicio: '2026-12-05T11:00:00Z', fim: '2026-12-07T11:00:00Z', combinacoes },
        },
      });
    const [m, gg] = tank.stock;
    const other = await sale((await read()).versao, [{ cor_id: m!.colorId, tamanho_id: 999_999 }]);
    expect(other.statusCode).toBe(400);
    expect(other.json().errors).toEqual({
      combinacoes: 'Escolha só combinações de cor e tamanho deste produto.',
    });
    const saved = await sale((await read()).versao, [{ cor_id: gg!.colorId, tamanho_id: gg!.sizeId }]);
    expect(saved.statusCode, saved.body).toBe(200);

    // The product's own price stays the list price; the GG answers its own.
    const shop = ProductSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/products/${tank.id}/` })).json(),
    );
    expect(shop).toMatchObject({
      price: 99.9,
      promocao_parcial: true,
      promocao_ate: '2026-12-07T11:00:00.000Z',
    });
    expect(shop.preco_de).toBeUndefined();
    expect(shop.stock.map((s) => [s.size.name, s.preco, s.preco_de])).toEqual([
      ['M', undefined, undefined],
      ['GG', 69.9, 99.9],
    ]);
    // The search's price range reads the product's own price: a partial sale does not move it.
    const cheap = await t.app.inject({ method: 'GET', url: '/api/products/search/?max_price=80' });
    expect((cheap.json() as Array<{ id: number }>).map((p) => p.id)).not.toContain(tank.id);

    // The server charges each line at its combination's price, and refuses a total at the list price.
    const buyer = await makeQuickBuyer(t.app);
    const draft = orderDraft(buyer, [
      { product: tank, stockIndex: 0 },
      { product: tank, stockIndex: 1 },
    ]);
    const atList = await draftTotalCents(t.app, buyer.zipCode, draft, [tank]);
    expect((await createOrderPix(t.app, buyer.headers, draft, atList)).statusCode).toBe(409);
    const charged = await createOrderPix(t.app, buyer.headers, draft, atList - (9990 - 6990));
    expect(charged.statusCode, charged.body).toBe(201);

    // The audit names the combination, not its ids.
    const log = await productAudit();
    const entry = log.results.find(
      (e) => e.action === 'promocao_definida' && e.entity_id === String(tank.id),
    );
    expect(entry?.alteracoes).toContainEqual({
      campo: 'Promoção › Só nas combinações',
      antes: '—',
      depois: 'Cor: Coral; Tamanho: GG',
    });
  });
});
