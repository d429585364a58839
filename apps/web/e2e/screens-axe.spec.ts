import AxeBuilder from '@axe-core/playwright';
import { addDays, dateInTimeZone, formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { Event } from '@passada/core/contracts/events';
import type { Order } from '@passada/core/contracts/orders';
import { expect, type Page, test } from '@playwright/test';
import {
  brl,
  CPF_NA_NOTA,
  createShopper,
  freshCpf,
  outboxMails,
  paidProductOrder,
  paidRegistration,
  payWithPix,
  productWithStock,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

/**
 * axe over the page: nothing serious or critical, no two landmarks of one name (`landmark-unique`, a
 * moderate rule a page of several orders or registrations breaks first), and every visible label
 * inside its control's name (`label-content-name-mismatch`, experimental in axe, so turned on here).
 */
async function expectAxeClean(page: Page) {
  const axe = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  const found = axe.violations.filter(
    (v) =>
      v.impact === 'serious' ||
      v.impact === 'critical' ||
      v.id === 'landmark-unique' ||
      v.id === 'label-content-name-mismatch',
  );
  expect(found.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Nothing wider than the screen: no text cut at a card's edge, no sideways scrolling. */
async function expectNoSidewaysOverflow(page: Page) {
  const wide = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return Array.from(document.querySelectorAll('main section, main article, main dd, main p'))
      .filter((el) => el.getBoundingClientRect().right > width + 1 || el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').slice(0, 40)}`);
  });
  expect(wide).toEqual([]);
}

for (const width of [390, 1280]) {
  test(`the screens of issue 40 pass axe at ${width} px`, async ({ page, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });

    // Two orders (two cards, each with its own landmarks) and two registrations of one account.
    const { product, entry } = await productWithStock(request, '/api/products/', 4);
    const { shopper, orderId } = await paidProductOrder(request, `axe${width}`);
    await payWithPix(request, shopper.token, 'pedido', {
      items: [{ product: product.id, quantity: 2, color: entry.color.id, size: entry.size.id }],
      address_id: shopper.addressId,
      frete: 'PAC',
      metodo_pagamento: 'pix',
      cpf: '529.982.247-25',
    });
    const first = await paidRegistration(
      request,
      { nome_completo: 'Marina Com Um Nome Bem Comprido de Corredora' },
      shopper,
    );
    await paidRegistration(request, { nome_completo: 'Joana Segunda' }, shopper);

    await signIn(page, shopper.token);
    await page.goto('/user/pedidos');
    await expect(page.getByRole('article', { name: `Pedido ${orderId}` })).toBeVisible();
    await expect(page.getByRole('list', { name: `Andamento do pedido ${orderId}` })).toBeVisible();
    await page.getByRole('button', { name: 'Quero desistir' }).first().click();
    await expectAxeClean(page);
    await expectNoSidewaysOverflow(page);

    await page.goto('/enderecos');
    await expect(page.getByRole('radiogroup', { name: 'Endereço de entrega' })).toBeVisible();
    await expectAxeClean(page);

    await page.goto(`/produto/${product.id}`);
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    await expectAxeClean(page);

    const event = first.event as Event;
    // The event page: each category a button whose name holds every line it shows.
    await page.goto(`/eventos/register/${event.id}`);
    await expect(
      page.getByRole('button', {
        name: new RegExp(`^${first.category.nome_categoria.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `),
      }),
    ).toBeVisible();
    await expectAxeClean(page);
    await expectNoSidewaysOverflow(page);

    await page.goto(
      `/eventos/register/${event.id}/finalizar?paraMim=false&eventoId=${event.id}&categorias=${first.category.id}`,
    );
    await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
    await expectAxeClean(page);
    await expectNoSidewaysOverflow(page);

    // Two registrations of one account: a summary each, the participant's data on request.
    await page.goto('/user/inscricoes');
    const card = page.getByRole('region', { name: new RegExp(`^${event.nome_evento}`) }).filter({
      hasText: 'Marina Com Um Nome Bem Comprido de Corredora',
    });
    await expect(card.getByText(shopper.email)).toBeHidden();
    await card.getByText('Dados do participante e retirada do kit').click();
    await expect(card.getByText(shopper.email)).toBeVisible();
    await expect(card.getByRole('button', { name: 'Cancelar inscrição' })).toBeVisible();
    await expectAxeClean(page);
    await expectNoSidewaysOverflow(page);

    await page.goto('/login?next=%2Finscricoes%2Ftransferencia%2Fabc');
    await expectAxeClean(page);
    await page.goto('/criarconta?next=%2Finscricoes%2Ftransferencia%2Fabc');
    await expectAxeClean(page);
  });
}

test('the after-sale rules of the back-office event form pass axe at 390 and 1280 px', async ({
  page,
  request,
}) => {
  const events = (await (await request.get('/api/events/')).json()) as Event[];
  await signInStaff(page, STAFF.admin, `/painel/eventos/${events[0]!.id}/editar`);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await expect(page.getByRole('form', { name: 'Depois da venda' })).toBeVisible();
    await expectAxeClean(page);
  }
});

test('an order packed, shipped and partly withdrawn: each step dated, what was refunded, axe clean at 390 and 1280 px', async ({
  page,
  request,
}) => {
  const { product, entry } = await productWithStock(request, '/api/products/', 3);
  const shopper = await createShopper(request, 'andamento');
  const headers = { authorization: `Token ${shopper.token}` };
  const { pedido_id: orderId } = await payWithPix(request, shopper.token, 'pedido', {
    items: [{ product: product.id, quantity: 2, color: entry.color.id, size: entry.size.id }],
    address_id: shopper.addressId,
    frete: 'PAC',
    metodo_pagamento: 'pix',
    cpf: CPF_NA_NOTA,
  });
  const orders = (await (await request.get('/api/orders/', { headers })).json()) as Order[];
  const line = orders.find((o) => o.id === orderId)!.items[0]!;
  // One of the two units withdrawn before shipping: its price goes back.
  const withdrawn = await request.post(`/api/orders/${orderId}/desistencia/`, {
    headers,
    data: { itens: [{ item_id: line.item_id, quantidade: 1 }] },
  });
  expect(withdrawn.status()).toBe(201);
  // The shop packs it, then ships it.
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const staff = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  const move = (data: object) =>
    request.post(`/api/painel/orders/${orderId}/status/`, { headers: staff, data });
  expect((await move({ status: 'em separação' })).status()).toBe(200);
  expect((await move({ status: 'enviado', codigo_rastreio: 'AB123456785BR' })).status()).toBe(200);

  // Each step's day as the store's calendar reads the order's own instants.
  const moved = ((await (await request.get('/api/orders/', { headers })).json()) as Order[]).find(
    (o) => o.id === orderId,
  )!;
  const day = (iso: string) => formatIsoDateBR(dateInTimeZone(new Date(iso), STORE_TIME_ZONE));
  const [packed, shipped] = moved.andamento!.map((m) => day(m.em));
  const refunded = brl(Math.round(line.product_price * 100));
  await signIn(page, shopper.token);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await page.goto('/user/pedidos');
    const card = page.getByRole('article', { name: `Pedido ${orderId}` });
    const steps = card.getByRole('list', { name: `Andamento do pedido ${orderId}` }).getByRole('listitem');
    await expect(steps).toHaveText([
      `Pago${day(moved.order_date)}`,
      `Em separação${packed}`,
      `Enviado${shipped}`,
      'Entreguea seguir',
    ]);
    // What went back, said once, under the order's total.
    await expect(card.getByText('Reembolsado', { exact: true })).toHaveCount(1);
    await expect(card.locator('dl', { hasText: 'Reembolsado' })).toContainText(
      new RegExp(`Total.*Reembolsado${refunded.source}$`),
    );
    await expectAxeClean(page);
    await expectNoSidewaysOverflow(page);
  }
});

test("a registration's change forms, the transfer link's page and the regulation pass axe at 390 and 1280 px", async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // A race of its own whose rules let a runner transfer and change distance (two distances, one day).
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const staff = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const created = await request.post('/api/painel/events/', {
    headers: staff,
    data: {
      nome_evento: `Corrida das Telas ${Date.now().toString(36)}`,
      organizer: 'Associação dos Corredores',
      city: 'Fortaleza',
      state: 'CE',
      prazo_inscricao: addDays(today, 20),
      hora_evento: '06:00',
      descricao_evento: 'Corrida de rua.',
      regulamento: 'Regulamento da corrida.',
      kit_tamanhos: [{ tamanho: 'M', capacidade: 20 }],
      dias_evento: [
        {
          data: addDays(today, 25),
          categorias: [
            { nome_categoria: '5 km', preco_inscricao: 50, capacidade: 50 },
            { nome_categoria: '10 km', preco_inscricao: 80, capacidade: 50 },
          ],
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const eventId = ((await created.json()) as { id: number }).id;
  const rulesUrl = `/api/painel/events/${eventId}/pos-venda/`;
  const { texto: _, ...rules } = await (await request.get(rulesUrl, { headers: staff })).json();
  const saved = await request.put(rulesUrl, {
    headers: staff,
    data: { ...rules, transferencia_taxa: 12, troca_distancia_taxa: 5 },
  });
  expect(saved.status()).toBe(200);
  const event = (await (await request.get(`/api/events/${eventId}/`)).json()) as Event;

  const holder = await createShopper(request, 'telas');
  const { inscricao_id: id } = await payWithPix(request, holder.token, 'inscricao', {
    nome_completo: 'Helena Das Telas',
    cpf: freshCpf(),
    data_nascimento: '1988-02-14',
    genero: 'Feminino',
    numero_contato: '(85) 98888-1234',
    email: holder.email,
    evento: eventId,
    categoria_evento: [event.dias_evento[0]!.categorias[0]!.id],
    street: 'Rua do Sol, 10',
    zip_code: '60165-121',
    state: 'CE',
    city: 'Fortaleza',
    neighborhood: 'Meireles',
    tamanho_camisa: event.kit.tamanhos[0]!.id,
    contato_emergencia_nome: 'Ana Contato',
    contato_emergencia_telefone: '(85) 96666-5555',
    aceite_termo: true,
    termo_versao: event.termo_versao,
  });
  // The holder names a friend: the friend's link comes by e-mail.
  const friend = await createShopper(request, 'telas-amiga');
  const asked = await request.post(`/api/inscricoes/${id}/transferir/`, {
    headers: { authorization: `Token ${holder.token}` },
    data: { nome_completo: 'Fernanda Amiga', cpf: freshCpf(), email: friend.email },
  });
  expect(asked.status()).toBe(201);
  await expect.poll(() => outboxMails(friend.email).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const token = outboxMails(friend.email)[0]!.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)![1];
  const friendContext = await browser.newContext();
  const friendPage = await friendContext.newPage();
  await signIn(friendPage, friend.token);
  await signIn(page, holder.token);

  for (const width of [390, 1280]) {
    const viewport = { width, height: width < 500 ? 844 : 900 };
    await page.setViewportSize(viewport);
    await page.goto('/user/inscricoes');
    const card = page.getByRole('region', { name: new RegExp(`^${event.nome_evento}`) });
    await card.getByRole('button', { name: 'Cancelar inscrição' }).click();
    await expect(card.getByRole('button', { name: 'Confirmar cancelamento' })).toBeVisible();
    await card.getByRole('button', { name: 'Trocar de distância' }).click();
    const change = page.getByRole('region', { name: `Trocar de distância — inscrição nº ${id}` });
    await change.getByLabel('Nova distância').selectOption({ label: '10 km' });
    await expect(change.getByRole('button', { name: /Pagar R\$\s35,00 com Pix/ })).toBeVisible();
    await card.getByRole('button', { name: 'Transferir inscrição' }).click();
    await expect(card.getByText(/Aguardando Fernanda Amiga/)).toBeVisible();
    await expectAxeClean(page);
    await expectNoSidewaysOverflow(page);

    await friendPage.setViewportSize(viewport);
    await friendPage.goto(`/inscricoes/transferencia/${token}`);
    await expect(
      friendPage.getByRole('heading', { level: 1, name: 'Concluir transferência de inscrição' }),
    ).toBeVisible();
    await expectAxeClean(friendPage);
    await expectNoSidewaysOverflow(friendPage);

    await page.goto(`/eventos/regulamento/${eventId}`);
    await expect(page.getByText('Regulamento da corrida.')).toBeVisible();
    await expectAxeClean(page);
  }
  await friendContext.close();
});
