import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ProductSchema } from '@passada/core/contracts/catalog';
import { PainelProductSchema } from '@passada/core/contracts/painel';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import {
  createStaffAndLogin,
  picture,
  settledImages,
  type TestStaff,
  uploadProductPhoto,
} from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('painel: catalogue and stock', () => {
  let t: TestApp;
  let admin: TestStaff;
  let operator: TestStaff;
  let shirt: MadeProduct;

  const as = (who: TestStaff) => ({
    get: (url: string) => t.app.inject({ method: 'GET', url, headers: who.headers }),
    send: (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) }),
    upload: (productId: number, bytes: Buffer, filename: string, type: string) =>
      uploadProductPhoto(t.app, who, productId, { bytes, filename, type }),
  });

  /** An admin's edit of the shirt from a form opened just now (it sends the version it read). */
  const editShirt = async (payload: object) => {
    const { versao } = (await as(admin).get(`/api/painel/products/${shirt.id}/`)).json();
    return as(admin).send('PATCH', `/api/painel/products/${shirt.id}/`, { versao, ...payload });
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
    shirt = await makeProduct(t.database.db, {
      name: 'Camiseta Maré Alta',
      stock: [
        { color: 'Preto', size: 'M', quantity: 5 },
        { color: 'Preto', size: 'G', quantity: 1 },
      ],
    });
  });
  afterAll(() => t.close());

  it('creates a product with colours × sizes at zero stock, as a draft the shop does not show', async () => {
    const res = await as(admin).send('POST', '/api/painel/products/', {
      name: 'Regata Vento Leste',
      description: 'Regata leve para treinos no calor.',
      price: 89.9,
      category: 'masculino',
      aparecer_home: true,
      color_ids: [shirt.colorIds.Preto],
      size_ids: [shirt.sizeIds.M, shirt.sizeIds.G],
    });
    expect(res.statusCode).toBe(201);
    const created = PainelProductSchema.parse(res.json());
    expect(created).toMatchObject({
      price: 89.9,
      oculto: false,
      aparecer_home: true,
      rascunho: true,
      publicar_em: null,
      falta_para_vender: ['foto', 'estoque'],
    });
    expect(created.stock.map((s) => [s.size.name, s.quantity])).toEqual([
      ['M', 0],
      ['G', 0],
    ]);
    // Publishing, photo and stock first: painel-drafts.test.ts.
    const shop = await t.app.inject({ method: 'GET', url: `/api/products/${created.id}/` });
    expect(shop.statusCode).toBe(404);
  });

  it('refuses bad product data with Portuguese messages per field', async () => {
    const res = await as(admin).send('POST', '/api/painel/products/', {
      name: 'X',
      description: '',
      price: 0,
      category: 'infantil',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      name: 'Informe o nome.',
      price: 'O preço deve ser maior que zero.',
    });
  });

  it('hides a product from the shop lists, search and page, and shows it again', async () => {
    const hide = await editShirt({ oculto: true });
    expect(hide.json().oculto).toBe(true);
    const list = (await t.app.inject({ method: 'GET', url: '/api/products/' })).json() as Array<{
      id: number;
    }>;
    expect(list.map((p) => p.id)).not.toContain(shirt.id);
    const search = (await t.app.inject({ method: 'GET', url: '/api/products/search/?q=mare' })).json();
    expect(search).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${shirt.id}/` })).statusCode).toBe(404);
    // The back office still sees it.
    expect((await as(operator).get(`/api/painel/products/${shirt.id}/`)).json().oculto).toBe(true);

    await editShirt({ oculto: false, price: 79.9 });
    const back = await t.app.inject({ method: 'GET', url: `/api/products/${shirt.id}/` });
    expect(back.json().price).toBe(79.9);
    const audit = (await as(admin).get('/api/painel/audit/?entity=produto')).json();
    const shown = audit.results.find((e: { action: string }) => e.action === 'mostrado');
    expect(shown.before).toMatchObject({ oculto: true, price: 99.9 });
    expect(shown.after).toMatchObject({ oculto: false, price: 79.9 });
  });

  it('stores uploaded photos as WebP and AVIF in three widths and the shop shows them', async () => {
    const jpeg = await as(admin).upload(shirt.id, await picture('jpeg'), 'frente.jpg', 'image/jpeg');
    expect(jpeg.statusCode).toBe(202);
    expect(jpeg.json().status).toBe('processando');
    const photo = (await settledImages(t.app, admin, shirt.id)).find((i) => i.id === jpeg.json().id)!;
    expect(photo.status).toBe('pronta');
    expect(photo.url).toMatch(/^\/api\/media\/uploads\/produtos\/[a-z0-9]{20}-800\.webp$/);
    expect(photo.srcset_avif.split(', ')).toHaveLength(3);
    const served = await t.app.inject({ method: 'GET', url: photo.url });
    expect(served.headers['content-type']).toBe('image/webp');
    expect((await sharp(served.rawPayload).metadata()).width).toBe(800);
    const avif = photo.srcset_avif.split(', ')[2]!.split(' ')[0]!;
    const big = await t.app.inject({ method: 'GET', url: avif });
    expect(big.headers['content-type']).toBe('image/avif');
    expect((await sharp(big.rawPayload).metadata()).width).toBe(1200);
    expect(existsSync(path.join(t.dataDir, 'media', 'produtos', avif.split('/').pop()!))).toBe(true);

    const png = await as(admin).upload(shirt.id, await picture('png', 300), 'costas.png', 'image/png');
    expect(png.statusCode).toBe(202);
    await settledImages(t.app, admin, shirt.id);
    // A small photo is never enlarged.
    const small = await t.app.inject({ method: 'GET', url: png.json().url });
    expect((await sharp(small.rawPayload).metadata()).width).toBe(300);

    const shop = ProductSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/products/${shirt.id}/` })).json(),
    );
    // After the product's two generated pictures, in upload order.
    expect(shop.images.slice(2)).toEqual([photo.url, png.json().url]);
    expect(shop.imagem3).toBe(photo.url);
  });

  it('turns a real iPhone-style HEIC photo into WebP and AVIF in three widths, and the shop shows it', async () => {
    // 1500 × 1000, HEVC-coded (made with libheif's heif-enc from a colour gradient; see fixtures/README.md).
    const heic = readFileSync(path.join(import.meta.dirname, 'fixtures', 'corredora.heic'));
    const product = await makeProduct(t.database.db, { name: 'Viseira Sol Nascente', imageUrls: [] });
    const res = await as(admin).upload(product.id, heic, 'IMG_0001.HEIC', 'image/heic');
    expect(res.statusCode).toBe(202);
    const [photo] = await settledImages(t.app, admin, product.id);
    expect(photo).toMatchObject({ id: res.json().id, status: 'pronta' });
    for (const format of ['webp', 'avif'] as const) {
      const candidates = photo![`srcset_${format}`].split(', ').map((c) => c.split(' ') as [string, string]);
      expect(candidates.map(([, w]: string[]) => w)).toEqual(['400w', '800w', '1200w']);
      for (const [url, w] of candidates) {
        const served = await t.app.inject({ method: 'GET', url });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe(`image/${format}`);
        const meta = await sharp(served.rawPayload).metadata();
        expect(meta.format).toBe(format === 'webp' ? 'webp' : 'heif');
        const width = Number.parseInt(w, 10);
        expect([meta.width, meta.height]).toEqual([width, Math.round((width * 1000) / 1500)]);
      }
    }
    // The decoded colours are the gradient's (top-left corner is coral #ff6b57), not a blank frame.
    const main = await t.app.inject({ method: 'GET', url: photo!.url });
    const { data } = await sharp(main.rawPayload)
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const [r = 0, g = 0, b = 0] = data;
    expect(Math.abs(r - 0xff)).toBeLessThan(12);
    expect(Math.abs(g - 0x6b)).toBeLessThan(12);
    expect(Math.abs(b - 0x57)).toBeLessThan(12);

    const shop = ProductSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/products/${product.id}/` })).json(),
    );
    expect(shop.images).toEqual([photo!.url]);
  });

  it('refuses files that are not photos, and operators cannot upload', async () => {
    const text = await as(admin).upload(shirt.id, Buffer.from('não sou uma foto'), 'nota.jpg', 'image/jpeg');
    expect(text.statusCode).toBe(415);
    expect(text.json().detail).toBe('Envie uma foto JPEG, PNG, WebP ou HEIC.');
    const fakeHeic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(40)]);
    expect((await as(admin).upload(shirt.id, fakeHeic, 'x.heic', 'image/heic')).statusCode).toBe(415);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect((await as(admin).upload(shirt.id, gif, 'a.gif', 'image/gif')).statusCode).toBe(415);
    const op = await as(operator).upload(shirt.id, await picture('webp', 200), 'a.webp', 'image/webp');
    expect(op.statusCode).toBe(403);
  });

  it('reorders photos only with the complete list, and keeps at most 19', async () => {
    const product = await makeProduct(t.database.db, { name: 'Boné Dezenove', imageUrls: [] });
    const small = await picture('webp', 50);
    const ids: number[] = [];
    for (let i = 0; i < 19; i++)
      ids.push((await as(admin).upload(product.id, small, `${i}.webp`, 'image/webp')).json().id);
    const twentieth = await as(admin).upload(product.id, small, '20.webp', 'image/webp');
    expect(twentieth.statusCode).toBe(409);
    expect(twentieth.json().detail).toBe('Um produto tem no máximo 19 fotos.');

    const reversed = [...ids].reverse();
    const res = await as(admin).send('PUT', `/api/painel/products/${product.id}/images/`, { ids: reversed });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((i: { id: number }) => i.id)).toEqual(reversed);
    await settledImages(t.app, admin, product.id, 60_000);
    const partial = await as(admin).send('PUT', `/api/painel/products/${product.id}/images/`, {
      ids: ids.slice(1),
    });
    expect(partial.statusCode).toBe(409);

    const del = await as(admin).send('DELETE', `/api/painel/products/${product.id}/images/${reversed[0]}/`);
    expect(del.statusCode).toBe(204);
    const after = (await as(admin).get(`/api/painel/products/${product.id}/`)).json();
    expect(after.images.map((i: { position: number }) => i.position)).toEqual(
      Array.from({ length: 18 }, (_, i) => i + 1),
    );
  });

  it('adjusts and sets stock with a reason, keeps the history and refuses going below zero', async () => {
    const combo = { product_id: shirt.id, color_id: shirt.colorIds.Preto, size_id: shirt.sizeIds.M };
    const add = await as(operator).send('POST', '/api/painel/stock/', {
      ...combo,
      modo: 'ajustar',
      quantidade: 10,
      motivo: 'entrada',
      observacao: 'Nota fiscal 123',
    });
    expect(add.json()).toEqual({ before: 5, after: 15, delta: 10 });
    const broken = await as(operator).send('POST', '/api/painel/stock/', {
      ...combo,
      modo: 'ajustar',
      quantidade: -2,
      motivo: 'avaria',
    });
    expect(broken.json().after).toBe(13);
    const counted = await as(operator).send('POST', '/api/painel/stock/', {
      ...combo,
      modo: 'definir',
      quantidade: 12,
      motivo: 'inventario',
    });
    expect(counted.json()).toEqual({ before: 13, after: 12, delta: -1 });
    const tooMany = await as(operator).send('POST', '/api/painel/stock/', {
      ...combo,
      modo: 'ajustar',
      quantidade: -13,
      motivo: 'venda_balcao',
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().detail).toBe('O estoque não pode ficar negativo: há 12 unidades.');
    const noReason = await as(operator).send('POST', '/api/painel/stock/', {
      ...combo,
      modo: 'ajustar',
      quantidade: 1,
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors.motivo).toMatch(/Escolha o motivo/);
    const missing = await as(operator).send('POST', '/api/painel/stock/', {
      ...combo,
      size_id: 999_999,
      modo: 'ajustar',
      quantidade: 1,
      motivo: 'entrada',
    });
    expect(missing.statusCode).toBe(404);

    const history = (
      await as(operator).get(
        `/api/painel/stock/history/?product_id=${combo.product_id}&color_id=${combo.color_id}&size_id=${combo.size_id}`,
      )
    ).json();
    expect(
      history.map((h: { reason: string; delta: number; quantity_after: number }) => [
        h.reason,
        h.delta,
        h.quantity_after,
      ]),
    ).toEqual([
      ['inventario', -1, 12],
      ['avaria', -2, 13],
      ['entrada', 10, 15],
      // What the product came with starts its history, so the movements add up to the stock.
      ['saldo_inicial', 5, 5],
    ]);
    expect(history[2]).toMatchObject({ note: 'Nota fiscal 123', staff_email: operator.email });
    const shop = (
      await t.app.inject({
        method: 'GET',
        url: `/api/products/${shirt.id}/?color=${combo.color_id}&size=${combo.size_id}`,
      })
    ).json();
    expect(shop.stock[0].quantity).toBe(12);
  });

  it('lists low stock up to the threshold, leaving out hidden products', async () => {
    const low = (await as(operator).get('/api/painel/stock/low/?limite=1')).json();
    expect(low).toContainEqual(
      expect.objectContaining({ product_id: shirt.id, size: 'G', quantity: 1, color: 'Preto' }),
    );
    expect(low.every((i: { quantity: number }) => i.quantity <= 1)).toBe(true);
    await editShirt({ oculto: true });
    const hidden = (await as(operator).get('/api/painel/stock/low/?limite=1')).json();
    expect(hidden.some((i: { product_id: number }) => i.product_id === shirt.id)).toBe(false);
    await editShirt({ oculto: false });
  });

  it('adds colours and sizes, refusing a name that exists', async () => {
    const color = await as(admin).send('POST', '/api/painel/colors/', { name: 'Verde Jade', hex: '#00a86b' });
    expect(color.statusCode).toBe(201);
    const again = await as(admin).send('POST', '/api/painel/colors/', { name: 'verde jade', hex: '#00a86b' });
    expect(again.statusCode).toBe(409);
    const size = await as(admin).send('POST', '/api/painel/sizes/', { name: 'XG' });
    expect(size.statusCode).toBe(201);
    const edit = await editShirt({
      color_ids: [color.json().id],
      size_ids: [size.json().id],
    });
    const combos = edit
      .json()
      .stock.map(
        (s: { color: { name: string }; size: { name: string } }) => `${s.color.name}/${s.size.name}`,
      );
    expect(combos).toEqual(
      expect.arrayContaining(['Preto/M', 'Preto/XG', 'Verde Jade/M', 'Verde Jade/G', 'Verde Jade/XG']),
    );
  });

  it('a PATCH with only the price changes only the price: home page, weight, freight and stock stay', async () => {
    const cap = await makeProduct(t.database.db, {
      name: 'Boné Passada Sol',
      showOnHome: true,
      weightGrams: 900,
      stock: [{ color: 'Preto', size: 'M', quantity: 7 }],
    });
    const url = `/api/painel/products/${cap.id}/`;
    const read = PainelProductSchema.parse((await as(admin).get(url)).json());
    expect(read).toMatchObject({ aparecer_home: true, weight_grams: 900, price: 99.9 });
    const res = await as(admin).send('PATCH', url, { versao: read.versao, price: 59.9 });
    expect(res.statusCode).toBe(200);
    const after = PainelProductSchema.parse(res.json());
    // Before the fix the schema's defaults filled what was not sent: off the home page, 300 g.
    expect(after).toMatchObject({ aparecer_home: true, weight_grams: 900, price: 59.9, oculto: false });
    expect(after.stock.map((s) => s.quantity)).toEqual([7]);
    expect(after.versao).toBe(read.versao + 1);
    // The shop's home page lists products by this flag.
    const shop = ProductSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/products/${cap.id}/` })).json(),
    );
    expect(shop).toMatchObject({ aparecer_home: true, price: 59.9 });
  });

  it('refuses a save from a form opened before another save (409), writing nothing; stock moves do not count', async () => {
    const url = `/api/painel/products/${shirt.id}/`;
    const opened = PainelProductSchema.parse((await as(admin).get(url)).json());
    // A stock entry meanwhile is not an edit of the product: the form opened before it still saves.
    const line = shirt.stock[0]!;
    const stockMove = await as(operator).send('POST', '/api/painel/stock/', {
      product_id: shirt.id,
      color_id: line.colorId,
      size_id: line.sizeId,
      modo: 'ajustar',
      quantidade: 2,
      motivo: 'entrada',
    });
    expect(stockMove.statusCode).toBe(200);
    const first = await as(admin).send('PATCH', url, { versao: opened.versao, name: 'Camiseta Maré Cheia' });
    expect(first.statusCode).toBe(200);
    const stale = await as(admin).send('PATCH', url, { versao: opened.versao, price: 12.5 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'versao_desatualizada',
      detail:
        'Este produto foi alterado por outra pessoa depois que você abriu o formulário. Recarregue a página para ver a versão atual; suas alterações não foram salvas.',
    });
    const now = PainelProductSchema.parse((await as(admin).get(url)).json());
    expect(now).toMatchObject({
      name: 'Camiseta Maré Cheia',
      price: first.json().price,
      versao: opened.versao + 1,
    });
    const missing = await as(admin).send('PATCH', url, { price: 12.5 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.versao).toBe(
      'Recarregue a página: falta a versão do registro que você abriu.',
    );
  });

  it('finds products by words of the name, accents and case aside, newest first', async () => {
    await makeProduct(t.database.db, { name: 'Bermuda Maçaranduba', description: 'Tecido leve.' });
    await makeProduct(t.database.db, { name: 'Meia Cano Alto', description: 'Bermuda não, meia.' });
    const found = (await as(operator).get('/api/painel/products/?busca=macaranduba')).json();
    expect(found.map((p: { name: string }) => p.name)).toEqual(['Bermuda Maçaranduba']);
    // The name only: the sock's description says "bermuda", but its name does not.
    const bermudas = (await as(admin).get('/api/painel/products/?busca=BERMUDA')).json();
    expect(bermudas.map((p: { name: string }) => p.name)).toEqual(['Bermuda Maçaranduba']);
    // A LIKE wildcard is a character like any other.
    expect((await as(admin).get('/api/painel/products/?busca=%25')).json()).toEqual([]);
    const all = (await as(admin).get('/api/painel/products/')).json();
    expect(all.length).toBeGreaterThan(2);
  });

  it('gives a photo its alt text and one of the product colours, and the shop tells both', async () => {
    const jacket = await makeProduct(t.database.db, {
      name: 'Jaqueta Brisa',
      imageUrls: [],
      stock: [
        { color: 'Preto', size: 'M', quantity: 2 },
        { color: 'Coral', size: 'M', quantity: 2, hex: '#ff6b57' },
      ],
    });
    const sent = await as(admin).upload(jacket.id, await picture('jpeg', 400), 'coral.jpg', 'image/jpeg');
    const [photo] = await settledImages(t.app, admin, jacket.id);
    expect(photo!.id).toBe(sent.json().id);
    const url = `/api/painel/products/${jacket.id}/images/${photo!.id}/`;

    const alt = 'Jaqueta Brisa coral vista de frente';
    const saved = await as(admin).send('PATCH', url, { alt: `  ${alt} `, color_id: jacket.colorIds.Coral });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ alt, color_id: jacket.colorIds.Coral });
    const shop = ProductSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/products/${jacket.id}/` })).json(),
    );
    expect(shop.photos).toEqual([{ url: photo!.url, alt, color_id: jacket.colorIds.Coral }]);

    const otherColor = await makeProduct(t.database.db, {
      stock: [{ color: 'Verde Mata', size: 'M', quantity: 1 }],
    });
    const wrong = await as(admin).send('PATCH', url, { alt, color_id: otherColor.colorIds['Verde Mata'] });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.color_id).toBe('Escolha uma das cores do produto.');
    const long = await as(admin).send('PATCH', url, { alt: 'x'.repeat(201), color_id: null });
    expect(long.json().errors.alt).toBe('O texto alternativo tem no máximo 200 caracteres.');
    expect((await as(operator).send('PATCH', url, { alt: '', color_id: null })).statusCode).toBe(403);
    const elsewhere = await as(admin).send('PATCH', `/api/painel/products/${shirt.id}/images/${photo!.id}/`, {
      alt: '',
      color_id: null,
    });
    expect(elsewhere.statusCode).toBe(404);

    const audit = (await as(admin).get('/api/painel/audit/?entity=produto')).json();
    const entry = audit.results.find((e: { action: string }) => e.action === 'foto_alterada');
    expect(entry.after).toMatchObject({ alt, cor: jacket.colorIds.Coral });
  });

  it('refuses colour and size names that are not names, or that exist in another letter case', async () => {
    const odd = await as(admin).send('POST', '/api/painel/colors/', { name: '<b>Azul</b>', hex: '#0000ff' });
    expect(odd.statusCode).toBe(400);
    expect(odd.json().errors.name).toBe('Use letras, números, espaços e hífen no nome da cor.');
    const blank = await as(admin).send('POST', '/api/painel/sizes/', { name: '   ' });
    expect(blank.json().errors.name).toBe('Informe o nome do tamanho.');
    const spaced = await as(admin).send('POST', '/api/painel/colors/', {
      name: '  Azul   Céu  ',
      hex: '#87ceeb',
    });
    expect(spaced.statusCode).toBe(201);
    expect(spaced.json().name).toBe('Azul Céu');
    const same = await as(admin).send('POST', '/api/painel/colors/', { name: 'AZUL CÉU', hex: '#87ceeb' });
    expect(same.statusCode).toBe(409);
    expect(same.json().detail).toBe('Já existe uma cor com esse nome.');
    const size = await as(admin).send('POST', '/api/painel/sizes/', { name: 'xgg' });
    expect(size.statusCode).toBe(201);
    const sameSize = await as(admin).send('POST', '/api/painel/sizes/', { name: 'XGG' });
    expect(sameSize.json()).toMatchObject({
      code: 'tamanho_existente',
      detail: 'Já existe um tamanho com esse nome.',
    });
    expect(
      (await as(operator).send('POST', '/api/painel/colors/', { name: 'Lilás', hex: '#c8a2c8' })).statusCode,
    ).toBe(403);
  });
});
