import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PainelReviewSchema, ProductReviewsSchema } from '@passada/core/contracts/reviews';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MadeProduct } from '../../test/factories/catalog.ts';
import {
  type Buyer,
  makeBuyer,
  makeShirtAndBuyer,
  markDelivered,
  paidPixOrder,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, multipartPhoto, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * A review's optional photo (decision 0071, later): the buyer sends it while the review waits for
 * moderation; it is re-encoded (800 px, no metadata), shown with the published review, gone when staff
 * hide the review and when the account is erased.
 */
describe('verified reviews: the optional photo', () => {
  let t: TestApp;
  let staff: TestStaff;
  let buyer: Buyer;
  let product: MadeProduct;
  let reviewId: number;

  /** A phone photo with EXIF (a camera model) that the shop must not keep. */
  const phonePhoto = (background: string) =>
    sharp({ create: { width: 1600, height: 1200, channels: 3, background } })
      .withExif({ IFD0: { Model: 'Telefone do Cliente' } })
      .jpeg()
      .toBuffer();
  const sendPhoto = (
    who: { headers: Record<string, string> },
    id: number,
    bytes: Buffer,
    type = 'image/jpeg',
  ) => {
    const body = multipartPhoto(bytes, 'foto.jpg', type);
    return t.app.inject({
      method: 'POST',
      url: `/api/avaliacoes/${id}/foto/`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  };
  const stored = () => {
    try {
      return readdirSync(path.join(t.dataDir, 'media', 'avaliacoes'));
    } catch {
      return [];
    }
  };
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    t = await createTestApp();
    staff = await createStaffAndLogin(t.app, 'admin');
    ({ buyer, product } = await makeShirtAndBuyer(t.app, 'Camiseta com Foto'));
    const { order } = await paidPixOrder(t.app, buyer, [{ product, quantity: 1 }], [product]);
    await markDelivered(t.app, staff.headers, order.id);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/avaliacoes/',
      headers: buyer.headers,
      payload: {
        item_id: order.items[0]!.item_id,
        estrelas: 5,
        texto: 'Veste muito bem.',
        caimento: 'no_tamanho',
      },
    });
    expect(made.statusCode).toBe(201);
    reviewId = made.json().id;
  });
  afterAll(() => t.close());

  it('keeps the photo re-encoded without its metadata, replaces it while pending, and shows it once published', async () => {
    const first = await sendPhoto(buyer, reviewId, await phonePhoto('#ff6b57'));
    expect(first.statusCode).toBe(200);
    const served = await get(first.json().foto);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 800, 600, undefined]);

    const second = await sendPhoto(buyer, reviewId, await phonePhoto('#1b2a4a'));
    expect(second.statusCode).toBe(200);
    expect((await get(first.json().foto)).statusCode).toBe(404);
    expect(stored()).toHaveLength(1);

    // Staff see it in the queue before publishing; the shop shows it with the review.
    const queue = (
      await t.app.inject({ method: 'GET', url: '/api/painel/avaliacoes/', headers: staff.headers })
    ).json() as unknown[];
    const pending = queue.map((r) => PainelReviewSchema.parse(r)).find((r) => r.id === reviewId);
    expect(pending?.foto).toBe(second.json().foto);
    const publish = await t.app.inject({
      method: 'POST',
      url: `/api/painel/avaliacoes/${reviewId}/moderacao/`,
      headers: staff.headers,
      payload: { acao: 'publicar' },
    });
    expect(publish.statusCode).toBe(200);
    const page = ProductReviewsSchema.parse((await get(`/api/products/${product.id}/avaliacoes/`)).json());
    expect(page.avaliacoes.map((r) => r.foto)).toEqual([second.json().foto]);
    const late = await sendPhoto(buyer, reviewId, await phonePhoto('#000000'));
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('avaliacao_moderada');
  });

  it("refuses what is not a photo and someone else's review; hiding the review takes the photo away", async () => {
    const text = await sendPhoto(buyer, reviewId, Buffer.from('não sou uma foto'), 'image/png');
    expect(text.statusCode).toBe(415);
    const stranger = await makeBuyer(t.app);
    expect((await sendPhoto(stranger, reviewId, await phonePhoto('#00ff00'))).statusCode).toBe(404);
    const { foto } = ProductReviewsSchema.parse((await get(`/api/products/${product.id}/avaliacoes/`)).json())
      .avaliacoes[0]!;
    await t.app.inject({
      method: 'POST',
      url: `/api/painel/avaliacoes/${reviewId}/moderacao/`,
      headers: staff.headers,
      payload: { acao: 'ocultar', motivo: 'Foto com dados pessoais.' },
    });
    expect((await get(foto!)).statusCode).toBe(404);
  });

  it('forgets the photo with the account', async () => {
    expect(stored()).toHaveLength(1);
    const erased = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/profile/',
      headers: buyer.headers,
      payload: { password: buyer.password },
    });
    expect(erased.statusCode).toBe(204);
    expect(stored()).toHaveLength(0);
  });
});
