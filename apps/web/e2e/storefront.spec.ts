import { expect, test } from '@playwright/test';
import {
  chooseColorAndSize as choose,
  colorSlug,
  createShopper,
  fillCpfNaNota,
  findProducts,
  type Shopper,
  signIn,
  slowCpu,
} from './fixtures.ts';

let shopper: Shopper;

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL: baseURL ?? undefined });
  shopper = await createShopper(api, 'loja');
  await api.dispose();
});

test('the quantity stops at the stock, on the product page and on the review page', async ({
  page,
  request,
}) => {
  const products = await findProducts(request);
  const last = products.flatMap((p) =>
    p.stock.filter((s) => s.quantity === 1).map((entry) => ({ p, entry })),
  )[0];
  const few = products
    .flatMap((p) => p.stock.filter((s) => s.quantity >= 3 && s.quantity <= 5).map((entry) => ({ p, entry })))
    .find((c) => c.p.id !== last?.p.id);
  if (!last || !few) throw new Error('the demo catalogue has no last unit or no combination with 3–5 units');

  await page.goto(`/produto/${last.p.id}`);
  await choose(page, last.entry.color.name, last.entry.size.name);
  await expect(page.getByText('Última unidade!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Aumentar quantidade' })).toBeDisabled();
  await expect(page.getByText('Só há 1 unidade desta cor e tamanho.')).toBeVisible();

  // The review page changes quantities too, up to what is in stock.
  await signIn(page, shopper.token);
  await page.goto(`/produto/${few.p.id}`);
  await choose(page, few.entry.color.name, few.entry.size.name);
  await expect(page.getByText(`${few.entry.quantity} unidades disponíveis`)).toBeVisible();
  await page.getByRole('button', { name: 'Comprar agora' }).click();
  await expect(page).toHaveURL(/\/enderecos$/);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/revisar-pedido$/);
  const more = page.getByRole('button', { name: `Aumentar quantidade de ${few.p.name}` });
  for (let n = 1; n < few.entry.quantity; n++) await more.click();
  await expect(page.getByText(`Quantidade: ${few.entry.quantity}`)).toBeVisible();
  await expect(more).toBeDisabled();
  await expect(page.getByText(`Só há ${few.entry.quantity} unidades desta cor e tamanho.`)).toBeVisible();
  await page.getByRole('button', { name: `Diminuir quantidade de ${few.p.name}` }).click();
  await expect(page.getByText(`Quantidade: ${few.entry.quantity - 1}`)).toBeVisible();
  const draft = JSON.parse((await page.evaluate(() => localStorage.getItem('orderData'))) ?? '{}') as {
    items: Array<{ quantity: number }>;
  };
  expect(draft.items[0]?.quantity).toBe(few.entry.quantity - 1);
});

test("the gallery and the cart show the chosen colour's pictures", async ({ page, request }) => {
  const product = (await findProducts(request)).find(
    (p) => new Set(p.stock.map((s) => s.color.id)).size >= 2 && p.stock.some((s) => s.quantity > 0),
  );
  if (!product) throw new Error('no product in two colours');
  const firstColor = product.stock[0]?.color.name ?? '';
  const entry = product.stock.find((s) => s.color.name !== firstColor && s.quantity > 0);
  if (!entry) throw new Error(`${product.name}: no second colour in stock`);
  const slug = colorSlug(entry.color.name);

  await page.goto(`/produto/${product.id}`);
  const main = page.getByRole('img', { name: new RegExp(`^${product.name}, imagem 1 de`) });
  await expect(main).toHaveAttribute('src', product.images[0] ?? '');
  await choose(page, entry.color.name, entry.size.name);
  await expect(main).toHaveAttribute('src', new RegExp(`-frente-${slug}\\.`));
  for (const thumb of await page.getByRole('list', { name: 'Imagens do produto' }).locator('img').all()) {
    await expect(thumb).toHaveAttribute('src', new RegExp(`-${slug}\\.`));
  }

  await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
  await page.getByRole('button', { name: /^Carrinho: 1 item$/ }).click();
  const cart = page.getByRole('dialog', { name: 'Seu carrinho' });
  await expect(cart.locator('img').first()).toHaveAttribute('src', new RegExp(`-${slug}\\.`));
});

test('the header search, Top Avaliados and a price slider that searches once', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  const search = page.getByRole('search');
  await search.getByLabel('Pesquisar produtos').fill('camiseta');
  await search.getByLabel('Pesquisar produtos').press('Enter');
  await expect(page).toHaveURL(/\/pesquisa\?q=camiseta$/);
  await expect(page.getByText(/\d+ produtos? encontrados?/)).toBeVisible();

  const searches: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/products/search/')) searches.push(r.url());
  });
  const slider = page.getByLabel(/^Mínimo:/);
  await slider.focus();
  for (let i = 0; i < 5; i++) await slider.press('ArrowRight');
  await expect(page.getByText('Mínimo: R$ 50,00')).toBeVisible();
  await expect(page).toHaveURL(/min_price=50/);
  await page.waitForTimeout(800);
  expect(searches).toHaveLength(1);
  expect(searches[0]).toContain('min_price=50');

  await page.getByRole('contentinfo').getByRole('link', { name: 'Top Avaliados' }).click();
  await expect(page).toHaveURL(/\/topavaliados$/);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Abrir menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu.getByRole('link', { name: 'Top Avaliados' })).toBeVisible();
  await menu.getByLabel('Pesquisar produtos').fill('boné');
  await menu.getByRole('button', { name: 'Buscar' }).click();
  await expect(page).toHaveURL(/\/pesquisa\?q=bon%C3%A9$/);
  await expect(menu).toBeHidden();
  await expect(page.getByLabel('Pesquisar produtos').last()).toHaveValue('boné');
});

test('Sair ends on the home page, and another username shows one’s own page under one’s own name', async ({
  page,
  request,
}) => {
  // A login of its own: Sair ends that token on the server, not the one the other tests use.
  const login = await request.post('/api/token-auth/', {
    data: { username: shopper.username, password: shopper.password },
  });
  const { token } = (await login.json()) as { token: string };
  await signIn(page, token);
  await page.goto('/user/outra_pessoa');
  await expect(page).toHaveURL(new RegExp(`/user/${shopper.username}$`));
  await expect(page.getByText(shopper.username, { exact: true })).toBeVisible();

  await page.goto('/user/pessoal-data');
  await page.getByRole('navigation', { name: /conta/i }).getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Entrar' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('the events pager: past the last page shows the last, and no "Página 1 de 1" while loading', async ({
  page,
  request,
}) => {
  // Other specs add events, so the last page is read from the API rather than assumed.
  const first = (await (await request.get('/api/events/?page=1&page_size=9')).json()) as { pages: number };
  const last = (await (await request.get(`/api/events/?page=${first.pages}&page_size=9`)).json()) as {
    results: Array<{ nome_evento: string }>;
  };
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/events/?page=*', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/eventos?page=${first.pages + 3}`);
  await expect(page.getByText('Carregando eventos...')).toBeVisible();
  await expect(page.getByText(/Página \d+ de \d+/)).toHaveCount(0);
  release();
  const nav = page.getByRole('navigation', { name: 'Paginação dos eventos' });
  await expect(nav.getByText(`Página ${first.pages} de ${first.pages}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/eventos\\?page=${first.pages}$`));
  await expect(page.getByRole('heading', { name: last.results[0]!.nome_evento }).first()).toBeVisible();
});

test('the banner only moves on its own without reduced motion', async ({ page }) => {
  await page.clock.install();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/');
  const second = page.getByRole('button', { name: 'Ir para o slide 2' });
  await expect(second).toHaveAttribute('aria-current', 'false');
  await page.clock.runFor(16_000);
  await expect(second).toHaveAttribute('aria-current', 'false');

  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.reload();
  await expect(second).toHaveAttribute('aria-current', 'false');
  // The autoplay counts from when the app has taken the page over (it starts after the first paint).
  await expect(page.getByRole('button', { name: 'Tema escuro' })).toBeEnabled();
  await page.clock.runFor(16_000);
  await expect(second).toHaveAttribute('aria-current', 'true');
});

test('/lojas embeds OpenStreetMap online and shows the whole drawing offline', async ({ page, context }) => {
  // No test reaches the internet: the map's page is answered here.
  await page.route('https://www.openstreetmap.org/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Mapa</title><p>OpenStreetMap</p>' }),
  );
  await page.goto('/lojas');
  const frame = page.locator('iframe[title^="Mapa da loja"]');
  await expect(frame).toHaveAttribute('src', /^https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?/);
  await expect(page.frameLocator('iframe[title^="Mapa da loja"]').getByText('OpenStreetMap')).toBeVisible();

  await context.setOffline(true);
  await expect(frame).toHaveCount(0);
  const drawing = page.getByRole('img', { name: /Mapa da loja/ });
  await expect(drawing).toBeVisible();
  const [map, label] = await Promise.all([
    drawing.boundingBox(),
    drawing.getByText('Oceano Atlântico').boundingBox(),
  ]);
  expect(map && label).toBeTruthy();
  if (map && label) {
    expect(label.x).toBeGreaterThanOrEqual(map.x);
    expect(label.x + label.width).toBeLessThanOrEqual(map.x + map.width);
  }
  await context.setOffline(false);
  await expect(frame).toHaveCount(1);
});

test('masks while typing an address, digits sent', async ({ page }) => {
  await signIn(page, shopper.token);
  await page.goto('/adicionar-endereco');
  await page.getByLabel('Nome completo').fill('Cida Corredora');
  // Typed key by key at a person's pace on a page slowed down 8 times: the mask follows each key and
  // keeps every one, however far the page lags behind the keyboard.
  const restoreCpu = await slowCpu(page, 8);
  const typing = { delay: 40 };
  const cep = page.getByLabel('CEP');
  await cep.pressSequentially('60165121', typing);
  await expect(cep).toHaveValue('60165-121');
  await expect(page.getByLabel('Estado')).toHaveValue('CE');
  await page.getByLabel('Cidade').fill('Fortaleza');
  await page.getByLabel('Bairro').fill('Aldeota');
  await page.getByLabel('Rua', { exact: true }).fill('Rua Silva Paulet');
  await page.getByLabel('Número').fill('10');
  const phone = page.getByLabel('Telefone');
  await phone.pressSequentially('8532345678', typing);
  await expect(phone).toHaveValue('(85) 3234-5678');
  await phone.clear();
  await phone.pressSequentially('85932345678', typing);
  await expect(phone).toHaveValue('(85) 93234-5678');
  await restoreCpu();
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/users/addresses/'));
  await page.getByRole('button', { name: 'Salvar endereço' }).click();
  // What goes to the server stays digits; the list shows them punctuated again.
  expect((await sent).postDataJSON()).toMatchObject({ zip_code: '60165121', phone: '85932345678' });
  await expect(page).toHaveURL(/\/enderecos$/);
  await expect(page.getByText('(85) 93234-5678')).toBeVisible();
});

test('a paid order asks no new charge, clears its shipping, and deleting an address asks first', async ({
  page,
  request,
}) => {
  const product = (await findProducts(request)).find(
    (p) => p.stock.some((s) => s.quantity >= 6) && p.price >= 20,
  );
  const entry = product?.stock.find((s) => s.quantity >= 6);
  if (!product || !entry) throw new Error('no combination with 6 units');
  await signIn(page, shopper.token);
  await page.goto(`/produto/${product.id}`);
  await choose(page, entry.color.name, entry.size.name);
  await page.getByRole('button', { name: 'Comprar agora' }).click();
  await expect(page).toHaveURL(/\/enderecos$/);
  // No price before a shipping choice.
  await expect(page.getByText(/^Frete/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByRole('radio', { name: /^PAC/ }).check();
  await fillCpfNaNota(page);
  await page.getByRole('radio', { name: 'Pix' }).check();
  await expect(page.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();

  const charges: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/pagar-pix/')) charges.push(r.postData() ?? '');
  });
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  const success = page.getByRole('dialog', { name: 'Pedido realizado com sucesso!' });
  await expect(success).toBeVisible({ timeout: 20_000 });
  await success.getByRole('button', { name: 'Fechar' }).first().click();
  await expect(page).toHaveURL(/\/user\/pedidos$/);
  await page.waitForTimeout(500);
  expect(charges).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('frete'))).toBeNull();

  await page.goto('/enderecos');
  await expect(page.getByText(/^Frete/)).toHaveCount(0);
  const remove = page.getByRole('button', { name: 'Excluir Av. Beira Mar, 500' });
  await remove.click();
  const confirm = page.getByRole('alertdialog', { name: 'Excluir o endereço Av. Beira Mar, 500?' });
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(remove).toBeVisible();
  await remove.click();
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(remove).toHaveCount(0);
});

/** Words of zod's and Fastify's English messages (as the API's own test lists them); none may reach a person. */
const ENGLISH =
  /\b(too small|too big|expected|invalid input|invalid option|received|required|must|unrecognized|body)\b/i;

test('messages about bad input read in Portuguese, from the browser and from the API', async ({ page }) => {
  // The browser's own checks, under each field.
  await page.goto('/criarconta');
  await page.getByLabel('E-mail').fill('cida@');
  await page.getByLabel('Senha').fill('curta');
  await page.getByRole('button', { name: 'Criar conta' }).click();
  const errors = page.locator('[id$="-erro"]');
  await expect(errors).toHaveCount(4);
  for (const text of await errors.allTextContents()) expect(text).not.toMatch(ENGLISH);

  // The server's answers, put under the same fields: a taken user name and e-mail.
  await page.getByLabel('Nome de usuário').fill(shopper.username);
  await page.getByLabel('Nome completo').fill('Cida Corredora');
  await page.getByLabel('E-mail').fill(`${shopper.username}@example.com`);
  await page.getByLabel('Senha').fill('passada de sábado cedo');
  await page.getByRole('button', { name: 'Criar conta' }).click();
  const failure = page.getByRole('dialog', { name: 'ERRO AO CRIAR CONTA!' });
  await expect(failure).toBeVisible();
  await failure.getByRole('button', { name: 'Fechar' }).first().click();
  await expect(page.getByText('Este nome de usuário já está em uso.')).toBeVisible();
  await expect(page.getByText('Este e-mail já está cadastrado.')).toBeVisible();
  for (const text of await errors.allTextContents()) expect(text).not.toMatch(ENGLISH);

  // What the API answers to malformed calls the pages make, whole and per field.
  const headers = { authorization: `Token ${shopper.token}` };
  const answers = await Promise.all([
    page.request.post('/api/calcular-frete/', {
      data: { cepDestino: '60165121', items: [{ product: 'um', quantity: 0 }] },
    }),
    page.request.post('/api/users/addresses/', { headers, data: { street: '', phone: 12 } }),
    page.request.post('/api/pagar-pix/', { headers, data: { finalidade: 'boleto', total: 'dez' } }),
    page.request.get('/api/products/search/?min_price=-5&sizes=XG'),
  ]);
  for (const answer of answers) {
    expect(answer.status()).toBe(400);
    const body = (await answer.json()) as { detail: string; errors?: Record<string, string | string[]> };
    const messages = [body.detail, ...Object.values(body.errors ?? {}).flat()];
    expect(messages.length).toBeGreaterThan(1);
    // "Dados inválidos: items.0.product: …" names the wire fields; only the words after them are read.
    for (const message of messages) expect(message.replace(/[\w.]+: /g, '')).not.toMatch(ENGLISH);
  }
});
