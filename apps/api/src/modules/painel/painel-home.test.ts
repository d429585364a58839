import { HomeSchema } from '@passada/core/contracts/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProduct } from '../../test/factories/catalog.ts';
import {
  createStaffAndLogin,
  multipartPhoto,
  picture,
  settledPhoto,
  type TestStaff,
} from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilSeen } from '../../test/wait-until.ts';

describe('painel: the home page (featured products and banners)', () => {
  let t: TestApp;
  let admin: TestStaff;
  let operator: TestStaff;

  const as = (who: TestStaff) => ({
    get: (url: string) => t.app.inject({ method: 'GET', url, headers: who.headers }),
    put: (url: string, payload: object) =>
      t.app.inject({ method: 'PUT', url, headers: who.headers, payload }),
  });
  const home = async () =>
    HomeSchema.parse((await t.app.inject({ method: 'GET', url: '/api/home/' })).json());

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
  });
  afterAll(() => t.close());

  it('shows every featured product in the order staff chose, accessories too, and no hidden one', async () => {
    const first = await makeProduct(t.database.db, { name: 'Regata Sol', showOnHome: true });
    const second = await makeProduct(t.database.db, {
      name: 'Short Duna',
      category: 'masculino',
      showOnHome: true,
    });
    const cap = await makeProduct(t.database.db, { name: 'Viseira Mar', category: 'acessorios' });
    // One after the other: each takes the next place at the end of the featured list.
    const many = [];
    for (let i = 0; i < 6; i++)
      many.push(await makeProduct(t.database.db, { name: `Top ${i}`, showOnHome: true }));
    // Read once: the answer is kept until the catalogue changes.
    expect((await home()).destaques.map((p) => p.id)).toEqual([
      first.id,
      second.id,
      ...many.map((p) => p.id),
    ]);

    const read = (await as(operator).get('/api/painel/home/featured/')).json();
    // Every role of the office reads the lists (finance included); the kit-desk volunteer does not.
    const finance = await createStaffAndLogin(t.app, 'financeiro');
    const desk = await createStaffAndLogin(t.app, 'checkin');
    expect((await as(finance).get('/api/painel/home/featured/')).json().ids).toEqual(read.ids);
    expect((await as(finance).get('/api/painel/home/banners/')).statusCode).toBe(200);
    expect((await as(desk).get('/api/painel/home/featured/')).statusCode).toBe(403);
    expect(read.ids).toEqual([first.id, second.id, ...many.map((p) => p.id)]);
    const order = [cap.id, second.id, ...many.map((p) => p.id), first.id];
    expect(
      (await as(operator).put('/api/painel/home/featured/', { versao: read.versao, ids: order })).statusCode,
    ).toBe(403);
    const saved = await as(admin).put('/api/painel/home/featured/', { versao: read.versao, ids: order });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().ids).toEqual(order);
    // Eight products, one of them an accessory, all in the chosen order: no longer five per gender.
    expect(await untilSeen(async () => (await home()).destaques.map((p) => p.id), order)).toEqual(order);
    const shown = await home();
    expect(shown.destaques[0]!.aparecer_home).toBe(true);

    // A save from the list as it was before is refused, and changes nothing.
    const stale = await as(admin).put('/api/painel/home/featured/', { versao: read.versao, ids: [first.id] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('versao_desatualizada');
    expect((await home()).destaques.map((p) => p.id)).toEqual(order);

    // Ticking "aparecer na home" in the product form puts it last; hiding it keeps it off the home page.
    const { versao } = (await as(admin).get(`/api/painel/products/${first.id}/`)).json();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/painel/products/${first.id}/`,
      headers: admin.headers,
      payload: { versao, oculto: true },
    });
    // On PostgreSQL the cached answer is dropped when the change's notification arrives, just after commit.
    expect(
      await untilSeen(async () => (await home()).destaques.map((p) => p.id), order.slice(0, -1)),
    ).toEqual(order.slice(0, -1));

    const audit = (await as(admin).get('/api/painel/audit/?entity=home')).json();
    expect(audit.results[0]).toMatchObject({ action: 'destaques_alterados', after: order });
  });

  it('refuses unknown products and repeated ones in the featured list', async () => {
    const { versao } = (await as(admin).get('/api/painel/home/featured/')).json();
    const unknown = await as(admin).put('/api/painel/home/featured/', { versao, ids: [999_999] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.ids).toBe('Produto não encontrado: 999999.');
    const p = await makeProduct(t.database.db);
    const twice = await as(admin).put('/api/painel/home/featured/', { versao, ids: [p.id, p.id] });
    expect(twice.json().errors.ids).toBe('Cada produto entra uma vez.');
  });

  it('edits the banners (uploaded image, text, link) and the home slider reads them', async () => {
    const read = (await as(operator).get('/api/painel/home/banners/')).json();
    // Every demo banner leads somewhere real.
    expect(read.banners).toEqual([
      {
        imagem: '/media/banner-colecao.svg',
        texto: 'Nova coleção Passada: roupas de corrida feitas para o calor do Nordeste',
        link: '/feminino',
      },
    ]);
    expect((await home()).banners).toEqual(read.banners);

    const body = multipartPhoto(await picture('jpeg', 1200), 'banner.jpg', 'image/jpeg');
    const upload = (who: TestStaff) =>
      t.app.inject({
        method: 'POST',
        url: '/api/painel/home/banners/image/',
        headers: { ...who.headers, ...body.headers },
        payload: body.payload,
      });
    expect((await upload(operator)).statusCode).toBe(403);
    const sent = await upload(admin);
    expect(sent.statusCode).toBe(202);
    const photo = await settledPhoto(t.app, admin, sent.json().id);
    expect(photo.status).toBe('pronta');
    expect(photo.url).toMatch(/^\/api\/media\/uploads\/banners\/[a-z0-9]{20}-800\.webp$/);
    expect((await t.app.inject({ method: 'GET', url: photo.url })).headers['content-type']).toBe(
      'image/webp',
    );

    const race = { imagem: photo.url, texto: 'Inscrições abertas para a Corrida do Caju', link: '/eventos' };
    const bad = await as(admin).put('/api/painel/home/banners/', {
      versao: read.versao,
      banners: [{ imagem: '', texto: 'x', link: 'javascript:alert(1)' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      'banners.0.imagem': 'Envie a imagem do banner.',
      'banners.0.texto': 'Descreva a imagem do banner.',
      'banners.0.link': 'Use um caminho da loja (/eventos) ou um endereço https://.',
    });
    const banners = [race, read.banners[0]];
    expect(
      (await as(operator).put('/api/painel/home/banners/', { versao: read.versao, banners })).statusCode,
    ).toBe(403);
    const saved = await as(admin).put('/api/painel/home/banners/', { versao: read.versao, banners });
    expect(saved.statusCode).toBe(200);
    // On PostgreSQL the cached answer is dropped when the change's notification arrives, just after commit.
    expect(await untilSeen(async () => (await home()).banners, banners)).toEqual(banners);
    const stale = await as(admin).put('/api/painel/home/banners/', { versao: read.versao, banners: [] });
    expect(stale.statusCode).toBe(409);
    expect((await home()).banners).toEqual(banners);
  });
});
