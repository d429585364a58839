import { AuditPageSchema, type PainelProduct, PainelProductSchema } from '@passada/core/contracts/painel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MadeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeQuickBuyer, orderDraft } from '../../test/factories/orders.ts';
import {
  createStaffAndLogin,
  picture,
  settledImages,
  type TestStaff,
  uploadProductPhoto,
} from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * Drafts and scheduled publishing (decision 0085): a product staff create is a draft the shop does not
 * show or sell; it is published by hand or at a chosen minute ("lançamento"), and only with a ready photo
 * and stock; a product on sale never loses its last photo.
 */
describe('painel: drafts and scheduled publishing', () => {
  let t: TestApp;
  let now = new Date('2026-12-01T12:00:00Z');
  let admin: TestStaff;
  let operator: TestStaff;

  const send = (who: TestStaff, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const read = async (id: number) =>
    PainelProductSchema.parse((await send(admin, 'GET', `/api/painel/products/${id}/`)).json());
  const publish = async (id: number, publicar_em?: string | null, who = admin) =>
    send(who, 'POST', `/api/painel/products/${id}/publicar/`, {
      versao: (await read(id)).versao,
      ...(publicar_em === undefined ? {} : { publicar_em }),
    });
  /** What the shop answers for the product's page, and whether its list, search, home and sitemap name it. */
  const shop = async (p: PainelProduct) => {
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    const ids = (res: { json: () => unknown }) => (res.json() as Array<{ id: number }>).map((x) => x.id);
    return {
      page: (await get(`/api/products/${p.id}/`)).statusCode,
      list: ids(await get('/api/products/')).includes(p.id),
      search: ids(await get(`/api/products/search/?q=${encodeURIComponent(p.name.split(' ')[1]!)}`)).includes(
        p.id,
      ),
      home: ((await get('/api/home/')).json() as { destaques: Array<{ id: number }> }).destaques.some(
        (x) => x.id === p.id,
      ),
      sitemap: (await get('/sitemap.xml')).body.includes(`/produto/${p.id}<`),
    };
  };
  let colorId: number;
  let sizeId: number;
  const create = async (name: string) => {
    const res = await send(admin, 'POST', '/api/painel/products/', {
      name,
      description: 'Peça nova da coleção de verão.',
      price: 119.9,
      category: 'feminino',
      aparecer_home: true,
      color_ids: [colorId],
      size_ids: [sizeId],
    });
    expect(res.statusCode).toBe(201);
    return PainelProductSchema.parse(res.json());
  };
  const setStock = async (p: PainelProduct, quantidade: number) => {
    const res = await send(operator, 'POST', '/api/painel/stock/', {
      product_id: p.id,
      color_id: p.stock[0]!.color.id,
      size_id: p.stock[0]!.size.id,
      modo: 'definir',
      quantidade,
      motivo: quantidade ? 'entrada' : 'inventario',
    });
    expect(res.statusCode).toBe(200);
  };
  const addPhoto = async (p: PainelProduct) => {
    const sent = await uploadProductPhoto(t.app, admin, p.id, {
      bytes: await picture('jpeg', 400),
      filename: 'frente.jpg',
      type: 'image/jpeg',
    });
    expect(sent.statusCode).toBe(202);
    const images = await settledImages(t.app, admin, p.id);
    expect(images.map((i) => i.status)).toContain('pronta');
    return images;
  };
  /** The minute's job, as the schedule runs it, at `at`. */
  const tick = async (at: Date) => {
    now = at;
    await t.app.jobs.send('catalog.scheduled-publish', {});
    await untilJobsDone(t.app.db, 'catalog.scheduled-publish');
  };
  const auditOf = async (id: number) =>
    AuditPageSchema.parse(
      (await send(admin, 'GET', `/api/painel/audit/?entity=produto`)).json(),
    ).results.filter((e) => e.entity_id === String(id));

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
    colorId = (await send(admin, 'POST', '/api/painel/colors/', { name: 'Areia', hex: '#e8d8b0' })).json().id;
    sizeId = (await send(admin, 'POST', '/api/painel/sizes/', { name: 'M' })).json().id;
  });
  afterAll(() => t.close());

  it('keeps a new product out of the shop until it is published with a photo and stock', async () => {
    const draft = await create('Regata Brisa Nova');
    expect(draft).toMatchObject({ rascunho: true, falta_para_vender: ['foto', 'estoque'] });
    const hidden = { page: 404, list: false, search: false, home: false, sitemap: false };
    expect(await shop(draft)).toEqual(hidden);

    const early = await publish(draft.id);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      code: 'produto_incompleto',
      detail:
        'Para colocar o produto à venda, falta uma foto pronta e estoque em ao menos uma cor e tamanho.',
    });
    await setStock(draft, 4);
    expect((await read(draft.id)).falta_para_vender).toEqual(['foto']);
    const noPhoto = await publish(draft.id);
    expect(noPhoto.json()).toMatchObject({
      code: 'produto_incompleto',
      detail: 'Para colocar o produto à venda, falta uma foto pronta.',
    });

    // A buyer who knows the id cannot buy the draft either.
    const buyer = await makeQuickBuyer(t.app);
    const made: MadeProduct = {
      id: draft.id,
      name: draft.name,
      priceCents: 11990,
      colorIds: {},
      sizeIds: {},
      stock: [
        {
          colorId: draft.stock[0]!.color.id,
          sizeId: draft.stock[0]!.size.id,
          color: '',
          size: '',
          quantity: 4,
        },
      ],
    };
    const order = orderDraft(buyer, [{ product: made }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, order, [made]);
    const refused = await createOrderPix(t.app, buyer.headers, order, total);
    expect(refused.statusCode).toBe(409);

    await addPhoto(draft);
    expect((await publish(draft.id, null, operator)).statusCode).toBe(403);
    const published = await publish(draft.id);
    expect(published.statusCode).toBe(200);
    expect(PainelProductSchema.parse(published.json())).toMatchObject({
      rascunho: false,
      publicar_em: null,
      falta_para_vender: [],
    });
    expect(await shop(draft)).toEqual({ page: 200, list: true, search: true, home: true, sitemap: true });
    expect((await createOrderPix(t.app, buyer.headers, order, total)).statusCode).toBe(201);

    expect((await publish(draft.id)).json()).toMatchObject({ code: 'ja_publicado' });
    const [entry] = await auditOf(draft.id);
    expect(entry).toMatchObject({
      action: 'publicado',
      before: { rascunho: true, publicar_em: null },
      after: { rascunho: false, publicar_em: null },
    });
  });

  it('publishes a scheduled draft at its minute, not before, and only once it has what it lacks', async () => {
    const drop = await create('Shorts Lançamento Sertão');
    await setStock(drop, 6);
    await addPhoto(drop);
    const at = '2026-12-01T15:00:00-03:00';
    // A colleague's save since the form was opened: the form's version is refused.
    const opened = await read(drop.id);
    await send(admin, 'PATCH', `/api/painel/products/${drop.id}/`, { versao: opened.versao, price: 109.9 });
    const stale = await send(admin, 'POST', `/api/painel/products/${drop.id}/publicar/`, {
      versao: opened.versao,
      publicar_em: at,
    });
    expect(stale.json()).toMatchObject({ code: 'versao_desatualizada' });
    const scheduled = await publish(drop.id, at);
    expect(scheduled.statusCode).toBe(200);
    expect(scheduled.json()).toMatchObject({ rascunho: true, publicar_em: '2026-12-01T18:00:00.000Z' });
    expect((await auditOf(drop.id))[0]).toMatchObject({
      action: 'lancamento_agendado',
      after: { rascunho: true, publicar_em: '2026-12-01T18:00:00.000Z' },
    });

    await tick(new Date('2026-12-01T17:59:00Z'));
    expect((await shop(drop)).page).toBe(404);
    expect((await read(drop.id)).rascunho).toBe(true);

    // The last units leave before the minute: the draft waits for stock, keeping its time.
    await setStock(drop, 0);
    await tick(new Date('2026-12-01T18:00:00Z'));
    expect(await read(drop.id)).toMatchObject({
      rascunho: true,
      publicar_em: '2026-12-01T18:00:00.000Z',
      falta_para_vender: ['estoque'],
    });
    expect((await shop(drop)).page).toBe(404);

    await setStock(drop, 6);
    await tick(new Date('2026-12-01T18:01:00Z'));
    expect(await read(drop.id)).toMatchObject({ rascunho: false, publicar_em: null });
    expect((await shop(drop)).list).toBe(true);
    expect((await auditOf(drop.id))[0]).toMatchObject({ action: 'publicado', staff_email: 'sistema' });
  });

  it('schedules a launch before the goods arrive, cancels it, and refuses a time that is not one', async () => {
    const later = await create('Top Lançamento Cancelado');
    const bad = await publish(later.id, 'amanhã cedo');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ publicar_em: 'Informe a data e a hora do lançamento.' });
    const cancel = async () =>
      send(admin, 'POST', `/api/painel/products/${later.id}/publicar/cancelar/`, {
        versao: (await read(later.id)).versao,
      });
    expect((await cancel()).json()).toMatchObject({ code: 'sem_agendamento' });
    const scheduled = await publish(later.id, '2026-12-01T16:30:00-03:00');
    expect(scheduled.json()).toMatchObject({
      rascunho: true,
      publicar_em: '2026-12-01T19:30:00.000Z',
      falta_para_vender: ['foto', 'estoque'],
    });
    const cancelled = await cancel();
    expect(cancelled.json()).toMatchObject({ rascunho: true, publicar_em: null });
    await tick(new Date('2026-12-01T19:30:00Z'));
    expect((await read(later.id)).rascunho).toBe(true);
    expect((await auditOf(later.id)).map((e) => e.action).slice(0, 2)).toEqual([
      'lancamento_cancelado',
      'lancamento_agendado',
    ]);
  });

  it('never leaves a product on sale without a photo', async () => {
    const shirt = await create('Camiseta Última Foto');
    await setStock(shirt, 3);
    const [photo] = await addPhoto(shirt);
    await publish(shirt.id);
    const removeLast = await send(admin, 'DELETE', `/api/painel/products/${shirt.id}/images/${photo!.id}/`);
    expect(removeLast.statusCode).toBe(409);
    expect(removeLast.json().code).toBe('ultima_foto');
    expect((await read(shirt.id)).images).toHaveLength(1);

    // Hidden, it may lose its photo; shown again, it needs one.
    const hide = await send(admin, 'PATCH', `/api/painel/products/${shirt.id}/`, {
      versao: (await read(shirt.id)).versao,
      oculto: true,
    });
    expect(hide.statusCode).toBe(200);
    expect(
      (await send(admin, 'DELETE', `/api/painel/products/${shirt.id}/images/${photo!.id}/`)).statusCode,
    ).toBe(204);
    const show = await send(admin, 'PATCH', `/api/painel/products/${shirt.id}/`, {
      versao: (await read(shirt.id)).versao,
      oculto: false,
    });
    expect(show.statusCode).toBe(409);
    expect(show.json()).toMatchObject({
      code: 'produto_incompleto',
      detail: 'Para colocar o produto à venda, falta uma foto pronta.',
    });
    expect((await read(shirt.id)).oculto).toBe(true);
  });
});
