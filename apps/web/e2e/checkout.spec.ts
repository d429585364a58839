import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { brl, chooseColorAndSize, fillCpfNaNota } from './fixtures.ts';

const run = Date.now().toString(36);
const user = {
  username: `bia_${run}`,
  full_name: 'Bia Corredora',
  email: `bia_${run}@example.com`,
  password: 'passada de domingo cedo',
};
const CEP = '60165-121';
let token = '';

interface StockEntry {
  color: { id: number; name: string };
  size: { id: number; name: string };
  quantity: number;
}
interface Product {
  id: number;
  name: string;
  price: number;
  stock: StockEntry[];
}
interface Choice {
  product: Product;
  entry: StockEntry;
}

const auth = () => ({ authorization: `Token ${token}` });

const toCents = (reais: number) => Math.round(reais * 100);

/** A combination with at least 3 units, read from the API now: earlier tests may have sold some. */
async function pickInStock(request: APIRequestContext): Promise<Choice> {
  const res = await request.get('/api/products/');
  expect(res.ok()).toBe(true);
  const products = (await res.json()) as Product[];
  for (const product of products) {
    const entry = product.stock.find((s) => s.quantity >= 3);
    if (entry && product.price >= 20) return { product, entry };
  }
  throw new Error('no product combination with 3 units in stock');
}

async function shippingCents(
  request: APIRequestContext,
  items: Array<{ product: number; quantity: number }>,
  service: 'PAC' | 'SEDEX' = 'PAC',
) {
  const res = await request.post('/api/calcular-frete/', { data: { cepDestino: CEP, items } });
  expect(res.ok()).toBe(true);
  const quote = (await res.json()) as { precoFinalPAC: string; precoFinalSEDEX: string };
  const price = service === 'PAC' ? quote.precoFinalPAC : quote.precoFinalSEDEX;
  return Number(price.replace(/\./g, '').replace(',', ''));
}

async function orderCount(request: APIRequestContext): Promise<number> {
  const res = await request.get('/api/orders/', { headers: auth() });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as unknown[]).length;
}

async function chooseCombo(page: Page, { product, entry }: Choice) {
  await page.goto(`/produto/${product.id}`);
  await chooseColorAndSize(page, entry.color.name, entry.size.name);
}

/** Product → cart → Fechar pedido → the primary address → /revisar-pedido. */
async function checkoutThroughCart(page: Page, choice: Choice) {
  await chooseCombo(page, choice);
  await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
  await page.getByRole('button', { name: /^Carrinho: 1 item/ }).click();
  await page
    .getByRole('dialog', { name: 'Seu carrinho' })
    .getByRole('button', { name: 'Fechar pedido' })
    .click();
  await chooseAddress(page);
}

async function chooseAddress(page: Page) {
  await expect(page).toHaveURL(/\/enderecos$/);
  await expect(page.getByRole('radio', { name: /Bia Corredora \(principal\)/ })).toBeChecked();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/revisar-pedido$/);
}

async function choosePac(page: Page) {
  await page.getByRole('radio', { name: /^PAC/ }).check();
}

async function expectSuccessThenOrders(page: Page, totalCents: number, count: number) {
  await expect(page.getByRole('dialog', { name: 'Pedido realizado com sucesso!' })).toBeVisible({
    timeout: 20_000,
  });
  // Spec §4: the confirmation stays 10 s, then the buyer lands on the order history.
  await expect(page).toHaveURL(/\/user\/pedidos$/, { timeout: 15_000 });
  const orders = page.getByRole('article');
  await expect(orders).toHaveCount(count);
  await expect(orders.first()).toContainText(brl(totalCents));
  await expect(orders.first()).toContainText(/Total\s*R\$/);
  const storage = await page.evaluate(() => ({
    cart: localStorage.getItem('cart'),
    orderData: localStorage.getItem('orderData'),
    endereco: localStorage.getItem('enderecoEscolhido'),
  }));
  expect(JSON.parse(storage.cart ?? '[]')).toEqual([]);
  expect(storage.orderData).toBeNull();
  expect(storage.endereco).toBeNull();
}

async function fillCard(page: Page, number: string) {
  // Typed as bare digits, the number shows in groups of four.
  const field = page.getByLabel('Número do cartão');
  await field.pressSequentially(number.replace(/\D/g, ''), { delay: 20 });
  await expect(field).toHaveValue(number);
  await expect(page.getByLabel('Bandeira')).toHaveValue('Visa');
  await page.getByLabel('Nome impresso no cartão').fill('Bia Corredora Silva');
  await page.getByLabel('Mês', { exact: true }).selectOption('12');
  await page.getByLabel('Ano', { exact: true }).selectOption(String(new Date().getFullYear() + 2));
  await page.getByLabel('CVV').fill('123');
  await page.getByLabel('CPF do titular').fill('529.982.247-25');
  await page.getByLabel('Data de nascimento do titular').fill('05/12/1990');
  await expect(page.getByLabel('Parcelas').locator('option[value="3"]')).toHaveCount(1);
  await page.getByLabel('Parcelas').selectOption('3');
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL: baseURL ?? undefined });
  expect((await api.post('/api/users/', { data: user })).status()).toBe(201);
  const login = await api.post('/api/token-auth/', {
    data: { username: user.username, password: user.password },
  });
  token = ((await login.json()) as { token: string }).token;
  const address = await api.post('/api/users/addresses/', {
    headers: auth(),
    data: {
      full_name: user.full_name,
      zip_code: CEP,
      state: 'CE',
      city: 'Fortaleza',
      neighborhood: 'Meireles',
      street: 'Av. Beira Mar',
      number: '200',
      phone: '85988887777',
      is_primary: true,
    },
  });
  expect(address.status()).toBe(201);
  await api.dispose();
});

test.beforeEach(async ({ page }) => {
  await page.addInitScript((t) => {
    if (!localStorage.getItem('token')) localStorage.setItem('token', t);
  }, token);
});

test('cart → address → PAC → Pix paid at the simulated bank → the order in /user/pedidos', async ({
  page,
  request,
}) => {
  const choice = await pickInStock(request);
  const shipping = await shippingCents(request, [{ product: choice.product.id, quantity: 1 }]);
  const total = toCents(choice.product.price) + shipping;
  await checkoutThroughCart(page, choice);

  await expect(page.getByText(choice.product.name)).toBeVisible();
  await expect(page.getByText('Você pode corrigir o pedido antes de pagar.')).toBeVisible();
  await expect(page.getByRole('complementary')).toContainText(/CNPJ [0-9A-Z./-]+/);
  // Paying before choosing the shipping is refused.
  await page.getByRole('radio', { name: 'Pix' }).click();
  await expect(
    page.getByRole('alertdialog', { name: 'ESCOLHA UMA OPÇÃO DE FRETE ANTES DE CONTINUAR!' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('radio', { name: 'Pix' })).not.toBeChecked();

  await choosePac(page);
  // The NF-e needs the buyer's CPF: paying without a valid one is refused at the field.
  const cpf = page.getByRole('textbox', { name: 'CPF na nota' });
  await page.getByRole('radio', { name: 'Pix' }).click();
  await expect(cpf).toHaveAccessibleDescription('Informe o CPF para a nota fiscal.');
  await expect(cpf).toBeFocused();
  await cpf.fill('529.982.247-26');
  await page.getByRole('radio', { name: 'Pix' }).click();
  await expect(cpf).toHaveAccessibleDescription('CPF inválido.');
  await expect(page.getByRole('radio', { name: 'Pix' })).not.toBeChecked();
  await fillCpfNaNota(page);
  await expect(page.getByTestId('total-pedido')).toHaveText(brl(total));
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('frete'))) ?? '{}')).toMatchObject({
    servico: 'PAC',
  });
  await page.getByRole('radio', { name: 'Pix' }).check();
  await expect(page.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await expect(page.getByLabel('Pix copia e cola')).toHaveValue(/^000201/);
  await page.getByRole('button', { name: 'Simular pagamento' }).click();

  await expectSuccessThenOrders(page, total, 1);
  await expect(page.getByRole('article').first()).toContainText(choice.product.name);
});

test('card in 3 instalments without interest → the order with the right total', async ({ page, request }) => {
  const choice = await pickInStock(request);
  const shipping = await shippingCents(request, [{ product: choice.product.id, quantity: 1 }]);
  const total = toCents(choice.product.price) + shipping;
  const before = await orderCount(request);
  await checkoutThroughCart(page, choice);
  await choosePac(page);
  await fillCpfNaNota(page);
  await page.getByRole('radio', { name: 'Cartão de crédito' }).check();
  await fillCard(page, '4111 1111 1111 1111');
  // Another total (SEDEX, then PAC again) keeps the card typed and asks for the instalments again.
  await page.getByRole('radio', { name: /^SEDEX/ }).check();
  await page.getByRole('radio', { name: /^PAC/ }).check();
  await expect(page.getByLabel('Número do cartão')).toHaveValue('4111 1111 1111 1111');
  await expect(page.getByLabel('CVV')).toHaveValue('123');
  await expect(page.getByLabel('Parcelas')).toHaveValue('');
  await page.getByLabel('Parcelas').selectOption('3');
  // Decreto 5.903: number, each value, interest and total before paying.
  await expect(page.getByRole('complementary')).toContainText(/3× de R\$\s[\d.,]+ sem juros/);
  await expect(page.getByTestId('total-pedido')).toHaveText(brl(total));
  const tokenized = page.waitForRequest((r) => r.url().endsWith('/api/simulador/cartao/token'));
  await page.getByRole('button', { name: 'Pagar com cartão' }).click();
  // The groups are only shown: the tokenizer gets the digits.
  expect((await tokenized).postDataJSON()).toMatchObject({ number: '4111111111111111' });

  await expectSuccessThenOrders(page, total, before + 1);
  await expect(page.getByRole('article').first()).toContainText('Cartão de crédito, 3×');
});

test("the last unit: one's own open Pix never blocks a new Pix or the card", async ({ page, request }) => {
  const products = (await (await request.get('/api/products/')).json()) as Product[];
  const last = products.flatMap((product) =>
    product.stock.filter((s) => s.quantity === 1).map((entry) => ({ product, entry })),
  )[0];
  if (!last) throw new Error('no last unit in the demo catalogue');
  const items = [{ product: last.product.id, quantity: 1 }];
  const total = toCents(last.product.price) + (await shippingCents(request, items, 'SEDEX'));
  const before = await orderCount(request);
  await chooseCombo(page, last);
  await expect(page.getByText('Última unidade!')).toBeVisible();
  await page.getByRole('button', { name: 'Comprar agora' }).click();
  await chooseAddress(page);

  // The Pix holds the last unit for this buyer...
  await choosePac(page);
  await fillCpfNaNota(page);
  await page.getByRole('radio', { name: 'Pix' }).check();
  const code = page.getByLabel('Pix copia e cola');
  await expect(code).toHaveValue(/^000201/);
  const first = await code.inputValue();
  // ...and changing the shipping asks a new Pix for the same unit: the earlier one gives way.
  await page.getByRole('radio', { name: /^SEDEX/ }).check();
  await page.getByRole('radio', { name: 'Pix' }).check();
  await expect(code).toHaveValue(/^000201/);
  expect(await code.inputValue()).not.toBe(first);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  // So does the card.
  await page.getByRole('radio', { name: 'Cartão de crédito' }).check();
  await fillCard(page, '4111 1111 1111 1111');
  await page.getByRole('button', { name: 'Pagar com cartão' }).click();
  await expectSuccessThenOrders(page, total, before + 1);
  const sold = (await (await request.get(`/api/products/${last.product.id}/`)).json()) as Product;
  const entry = sold.stock.find(
    (s) => s.color.id === last.entry.color.id && s.size.id === last.entry.size.id,
  );
  expect(entry?.quantity).toBe(0);
});

test('a Pix code counts down, expires, and a new code pays the order', async ({ page, request }) => {
  // The e2e server gives a Pix 60 s (PIX_EXPIRATION_SECONDS in playwright.config.ts): this test waits
  // for one to expire.
  test.setTimeout(180_000);
  const choice = await pickInStock(request);
  const items = [{ product: choice.product.id, quantity: 1 }];
  const total = toCents(choice.product.price) + (await shippingCents(request, items));
  const before = await orderCount(request);
  const charges: string[] = [];
  page.on('response', async (r) => {
    if (r.url().endsWith('/api/pagar-pix/') && r.status() === 201) charges.push((await r.json()).txid);
  });
  await chooseCombo(page, choice);
  await page.getByRole('button', { name: 'Comprar agora' }).click();
  await chooseAddress(page);
  await choosePac(page);
  await fillCpfNaNota(page);
  await page.getByRole('radio', { name: 'Pix' }).check();

  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  const timer = pix.getByRole('timer');
  await expect(timer).toHaveText(/^Expira em 0[01]:\d\d$/);
  const shown = await timer.textContent();
  await expect(timer).not.toHaveText(shown ?? '');
  const first = await pix.getByLabel('Pix copia e cola').inputValue();

  await expect(pix.getByText('Pix expirado', { exact: true })).toBeVisible({ timeout: 90_000 });
  await expect(timer).toHaveCount(0);
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toHaveCount(0);
  await expect(pix.getByRole('button', { name: 'Simular pagamento' })).toHaveCount(0);
  await expect(
    pix.getByRole('status').filter({ hasText: 'Pix expirado. Gere um novo Pix para pagar.' }),
  ).toHaveCount(1);
  // The server agrees: the expired code can no longer be paid.
  expect(charges).toHaveLength(1);
  const late = await request.post(`/api/simulador/pix/${charges[0]}/pagar`, { headers: auth() });
  expect(late.status()).toBe(409);

  await pix.getByRole('button', { name: 'Gerar novo Pix' }).click();
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await expect(pix.getByLabel('Pix copia e cola')).toHaveValue(/^000201/);
  expect(await pix.getByLabel('Pix copia e cola').inputValue()).not.toBe(first);
  await expect(timer).toHaveText(/^Expira em 0[01]:\d\d$/);
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expectSuccessThenOrders(page, total, before + 1);
  expect(charges).toHaveLength(2);
});

test('a refused card creates no order and keeps the cart', async ({ page, request }) => {
  const choice = await pickInStock(request);
  const before = await orderCount(request);
  await checkoutThroughCart(page, choice);
  await choosePac(page);
  await fillCpfNaNota(page);
  await page.getByRole('radio', { name: 'Cartão de crédito' }).check();
  await fillCard(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pagar com cartão' }).click();

  await expect(page.getByRole('alert').filter({ hasText: 'Erro ao gerar token ou pagar' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Pedido realizado com sucesso!' })).toHaveCount(0);
  expect(await orderCount(request)).toBe(before);
  const cart = JSON.parse((await page.evaluate(() => localStorage.getItem('cart'))) ?? '[]') as unknown[];
  expect(cart).toHaveLength(1);
  await expect(page).toHaveURL(/\/revisar-pedido$/);

  // The buyer can still correct the order: removing the only item leaves nothing to pay for.
  await page.getByRole('button', { name: `Remover ${choice.product.name}` }).click();
  await expect(page.getByText('Você ainda não tem nenhum item no carrinho.')).toBeVisible();
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('cart'))) ?? '[]')).toEqual([]);
});

test('"Comprar agora" buys just that product with Pix', async ({ page, request }) => {
  const choice = await pickInStock(request);
  const shipping = await shippingCents(request, [{ product: choice.product.id, quantity: 2 }]);
  const total = toCents(choice.product.price) * 2 + shipping;
  const before = await orderCount(request);
  await chooseCombo(page, choice);
  await page.getByRole('button', { name: 'Aumentar quantidade' }).click();
  await page.getByRole('button', { name: 'Comprar agora' }).click();
  await chooseAddress(page);

  await expect(page.getByRole('list', { name: 'Itens do pedido' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText('Quantidade: 2')).toBeVisible();
  await choosePac(page);
  await fillCpfNaNota(page);
  await page.getByRole('radio', { name: 'Pix' }).check();
  await page.getByRole('button', { name: 'Simular pagamento' }).click();

  await expectSuccessThenOrders(page, total, before + 1);
});
