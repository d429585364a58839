import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import {
  createShopper,
  expectNoSeriousAxe,
  outboxMails,
  payWithPix,
  publishProduct,
  STAFF,
} from './fixtures.ts';

interface Option {
  id: number;
  name: string;
}

test('at 390 px: a verified review written in "Meus pedidos" and published; the size guide folds out; a sold-out size takes an "Avise-me", and the unit back sends it', async ({
  page,
  request,
}) => {
  // A product of its own: one colour, the small size in stock, the large one sold out, with a guide.
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.manager });
  const headers = { authorization: `Token ${(await login.json()).token}` };
  const [color] = (await (await request.get('/api/painel/colors/', { headers })).json()) as Option[];
  const [small, large] = (await (await request.get('/api/painel/sizes/', { headers })).json()) as Option[];
  const created = await request.post('/api/painel/products/', {
    headers,
    data: {
      name: `Regata Guia ${Date.now().toString(36)}`,
      description: 'Regata de corrida para o teste do guia de medidas.',
      price: 79.9,
      category: 'masculino',
      color_ids: [color!.id],
      size_ids: [small!.id, large!.id],
    },
  });
  expect(created.status()).toBe(201);
  const product = (await created.json()) as { id: number; versao: number };
  const stock = (size: Option, quantidade: number) =>
    request.post('/api/painel/stock/', {
      headers,
      data: {
        product_id: product.id,
        color_id: color!.id,
        size_id: size.id,
        modo: 'ajustar',
        quantidade,
        motivo: 'entrada',
      },
    });
  expect((await stock(small!, 2)).status()).toBe(200);
  const guide = await request.put(`/api/painel/products/${product.id}/medidas/`, {
    headers,
    data: {
      versao: product.versao,
      colunas: ['Tórax', 'Comprimento'],
      linhas: [
        { tamanho_id: small!.id, valores: [48, 66] },
        { tamanho_id: large!.id, valores: [52.5, 70] },
      ],
    },
  });
  expect(guide.status()).toBe(200);
  await publishProduct(request, headers, product.id);

  // A buyer receives one small and reviews it from "Meus pedidos"; staff publish the review.
  const shopper = await createShopper(request, 'avaliacao');
  const { pedido_id: orderId } = await payWithPix(request, shopper.token, 'pedido', {
    items: [{ product: product.id, quantity: 1, color: color!.id, size: small!.id }],
    address_id: shopper.addressId,
    frete: 'PAC',
    metodo_pagamento: 'pix',
  });
  for (const step of [
    { status: 'em separação' },
    { status: 'enviado', codigo_rastreio: 'QB987654326BR' },
    { status: 'entregue' },
  ])
    expect(
      (await request.post(`/api/painel/orders/${orderId}/status/`, { headers, data: step })).status(),
    ).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript((t) => localStorage.setItem('token', t), shopper.token);
  await page.goto('/user/pedidos');
  const reviews = page.getByRole('region', { name: `Avaliações do pedido ${orderId}` });
  await reviews.getByRole('button', { name: /^Avaliar Regata Guia/ }).click();
  const form = reviews.getByRole('form', { name: /^Avaliar Regata Guia/ });
  await form.getByRole('radio', { name: '5 estrelas' }).check();
  await form.getByRole('textbox', { name: 'Comentário (opcional)' }).fill('Leve e seca rápido.');
  await form.getByRole('radio', { name: 'No tamanho' }).check();
  await form.getByLabel('Foto da peça (opcional)').setInputFiles({
    name: 'regata.jpg',
    mimeType: 'image/jpeg',
    buffer: await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#3a7d44' } })
      .jpeg()
      .toBuffer(),
  });
  await form.getByRole('button', { name: 'Enviar avaliação' }).click();
  await expect(reviews).toContainText('avaliação enviada. Obrigado! Ela aparece na loja depois de revisada.');
  await expectNoSeriousAxe(page);
  const queue = (await (await request.get('/api/painel/avaliacoes/', { headers })).json()) as Array<{
    id: number;
    produto_id: number;
  }>;
  const mine = queue.find((r) => r.produto_id === product.id)!;
  expect(
    (
      await request.post(`/api/painel/avaliacoes/${mine.id}/moderacao/`, {
        headers,
        data: { acao: 'publicar' },
      })
    ).status(),
  ).toBe(200);

  await page.goto(`/produto/${product.id}`);
  const published = page.getByRole('region', { name: 'Avaliações' });
  await expect(published).toContainText('5,0 de 5, 1 avaliação de quem comprou.');
  await expect(published).toContainText('Leve e seca rápido.');
  // The buyer's photo, re-encoded by the shop (800 px wide at most), with the review.
  const photo = published.getByRole('img', { name: /^Foto de .+ com a peça$/ });
  await photo.scrollIntoViewIfNeeded();
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBe(800);
  await page.getByText('Guia de medidas', { exact: true }).click();
  const table = page.getByRole('table', { name: 'Medidas da peça, em centímetros' });
  await expect(table.getByRole('row', { name: new RegExp(`^${large!.name}`) })).toContainText('52,5');

  await page.getByRole('group', { name: /^Cor/ }).getByRole('button', { name: color!.name }).click();
  await page
    .getByRole('group', { name: /^Tamanho/ })
    .getByRole('button', { name: large!.name, exact: true })
    .click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  const email = `avise.${Date.now().toString(36)}@example.com`;
  const ask = page.getByRole('form', { name: `Avise-me quando ${color!.name}, ${large!.name} chegar` });
  await ask.getByRole('textbox', { name: 'Seu e-mail' }).fill(email);
  await ask.getByRole('button', { name: 'Avise-me quando chegar' }).click();
  await expect(page.getByText(`Combinado: avisaremos ${email} uma vez`)).toBeVisible();
  await expectNoSeriousAxe(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // One unit back: the e-mail goes, once.
  expect((await stock(large!, 1)).status()).toBe(200);
  await expect.poll(() => outboxMails(email).length, { timeout: 30_000 }).toBe(1);
  expect(outboxMails(email)[0]).toContain(`/produto/${product.id}`);
});
