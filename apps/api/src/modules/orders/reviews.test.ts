import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProductReviewsSchema } from '@passada/core/contracts/reviews';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import type { MadeProduct } from '../../test/factories/catalog.ts';
import {
  type Buyer,
  makeShirtAndBuyer,
  markDelivered,
  paidPixOrder,
  paidTwoLineOrder,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * Verified reviews (decision 0071): only the buyer of a delivered line that was not sent back reviews it,
 * once; nothing shows until staff publish it; the published ones make the average, the structured data
 * for search engines and the fit.
 */
/** The product page's Product block of structured data. */
const productLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)]
    .map((m) => JSON.parse(m[1]!) as Record<string, unknown>)
    .find((d) => d['@type'] === 'Product')!;

describe('verified reviews', () => {
  let t: TestApp;
  let staff: TestStaff;
  let buyer: Buyer;
  let product: MadeProduct;
  let kept: number;
  let returned: number;

  const review = (who: { headers: Record<string, string> }, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/avaliacoes/', headers: who.headers, payload });
  const published = async () =>
    ProductReviewsSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/products/${product.id}/avaliacoes/` })).json(),
    );
  const moderate = (id: number, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel/avaliacoes/${id}/moderacao/`,
      headers: staff.headers,
      payload,
    });

  beforeAll(async () => {
    // The shop's page shell, so the product page's head (structured data) is served as in production.
    const dist = mkdtempSync(path.join(tmpdir(), 'passada-dist-'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>Passada</title></head><body><div id="root"></div></body></html>',
    );
    t = await createTestApp({ env: { FIT_HINT_MIN_EXCHANGES: '1', WEB_DIST: dist } });
    staff = await createStaffAndLogin(t.app, 'admin');
    ({ buyer, product } = await makeShirtAndBuyer(t.app, 'Camiseta Avaliada'));
    const { order } = await paidTwoLineOrder(t.app, buyer, product);
    await markDelivered(t.app, staff.headers, order.id);
    [kept, returned] = order.items.map((i) => i.item_id) as [number, number];
    // The buyer sends the second line back.
    const back = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${order.id}/devolucoes/`,
      headers: buyer.headers,
      payload: { itens: [{ item_id: returned, quantidade: 1 }], motivo: 'arrependimento' },
    });
    expect(back.statusCode, back.body).toBe(201);
  });
  afterAll(() => t.close());

  it("refuses a line sent back, an order not delivered, someone else's line, and a second review", async () => {
    const gone = await review(buyer, { item_id: returned, estrelas: 1, texto: 'Não serviu.' });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().code).toBe('item_devolvido');

    const { order: waiting } = await paidPixOrder(t.app, buyer, [{ product, quantity: 1 }], [product]);
    const early = await review(buyer, { item_id: waiting.items[0]!.item_id, estrelas: 5 });
    expect(early.json().code).toBe('nao_entregue');

    const stranger = await createUserAndToken(t.app);
    expect((await review(stranger, { item_id: kept, estrelas: 5 })).statusCode).toBe(404);
    expect((await review(buyer, { item_id: kept, estrelas: 6 })).statusCode).toBe(400);

    const first = await review(buyer, {
      item_id: kept,
      estrelas: 4,
      texto: 'Tecido leve.',
      caimento: 'pequeno',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect((await review(buyer, { item_id: kept, estrelas: 5 })).json().code).toBe('ja_avaliado');
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/avaliacoes/minhas/',
      headers: buyer.headers,
    });
    expect(mine.json()).toEqual([{ item_id: kept, estado: 'pendente' }]);
    // Not shown before staff publish it.
    expect((await published()).total).toBe(0);
  });

  it('shows a published review with the average, the structured data and the fit; hiding takes it off', async () => {
    const queue = await t.app.inject({
      method: 'GET',
      url: '/api/painel/avaliacoes/',
      headers: staff.headers,
    });
    const [pending] = queue.json();
    expect(pending).toMatchObject({
      produto: 'Camiseta Avaliada',
      estrelas: 4,
      texto: 'Tecido leve.',
      estado: 'pendente',
    });
    expect((await moderate(pending.id, { acao: 'publicar' })).json()).toEqual({ estado: 'publicada' });

    const list = await published();
    expect(list).toMatchObject({ media: 4, total: 1, caimento: { pequeno: 1, no_tamanho: 0, grande: 0 } });
    // The first name only, never the whole name.
    expect(list.avaliacoes[0]!.autor).toBe(buyer.full_name.split(' ')[0]);
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${product.id}/` })).json().rating).toBe(
      4,
    );
    const page = await t.app.inject({ method: 'GET', url: `/produto/${product.id}` });
    expect(productLd(page.body).aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 4,
      reviewCount: 1,
      bestRating: 5,
      worstRating: 1,
    });
    const sizing = (
      await t.app.inject({ method: 'GET', url: `/api/products/${product.id}/tamanhos/` })
    ).json();
    expect(sizing.caimento.texto).toContain('1 avaliação: 1 achou pequeno, 0 no tamanho e 0 grande.');

    const noReason = await moderate(pending.id, { acao: 'ocultar', motivo: '' });
    expect(noReason.statusCode).toBe(400);
    expect(
      (await moderate(pending.id, { acao: 'ocultar', motivo: 'Fala de outro produto.' })).statusCode,
    ).toBe(200);
    expect((await published()).total).toBe(0);
    const after = await t.app.inject({ method: 'GET', url: `/produto/${product.id}` });
    expect(productLd(after.body).name).toBe('Camiseta Avaliada');
    expect(productLd(after.body).aggregateRating).toBeUndefined();
  });
});
