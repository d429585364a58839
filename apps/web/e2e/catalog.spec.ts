import { expect, test } from '@playwright/test';
import { productWithSoldOutCombination, productWithStock, slowCpu } from './fixtures.ts';

test('home → category → product → stock → cart badge → reload → quantity → remove', async ({
  page,
  request,
}) => {
  const { product, entry } = await productWithStock(request, '/api/products/category/feminino/');

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Em destaque' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Feminino' }).click();
  await expect(page).toHaveURL(/\/feminino$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Espaço Feminino' })).toBeVisible();
  await page.getByRole('link', { name: `Ver mais sobre ${product.name}` }).click();

  await expect(page).toHaveURL(new RegExp(`/produto/${product.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await page.getByRole('group', { name: /^Cor/ }).getByRole('button', { name: entry.color.name }).click();
  const size = page
    .getByRole('group', { name: /^Tamanho/ })
    .getByRole('button', { name: entry.size.name, exact: true });
  await size.click();
  await expect(size).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText(`${entry.quantity} unidades disponíveis`)).toBeVisible();

  await page.getByRole('button', { name: 'Aumentar quantidade' }).click();
  await expect(page.getByLabel('Quantidade selecionada', { exact: true })).toHaveText('2');
  await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
  await expect(page.getByRole('button', { name: 'Carrinho: 2 itens' })).toBeVisible();

  // Adding the same product, colour and size again merges into the same line.
  await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
  await expect(page.getByRole('button', { name: 'Carrinho: 4 itens' })).toBeVisible();

  await page.reload();
  await page.getByRole('button', { name: 'Carrinho: 4 itens' }).click();
  const cart = page.getByRole('dialog', { name: 'Seu carrinho' });
  await expect(cart.getByRole('listitem')).toHaveCount(1);
  await expect(cart.getByLabel(`Quantidade de ${product.name}`, { exact: true })).toHaveText('4');

  await cart.getByRole('button', { name: `Diminuir quantidade de ${product.name}` }).click();
  await expect(cart.getByLabel(`Quantidade de ${product.name}`, { exact: true })).toHaveText('3');
  await cart.getByRole('button', { name: `Aumentar quantidade de ${product.name}` }).click();
  await cart.getByRole('button', { name: `Aumentar quantidade de ${product.name}` }).click();
  await expect(cart.getByLabel(`Quantidade de ${product.name}`, { exact: true })).toHaveText('5');
  const subtotal = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(
    product.price * 5,
  );
  await expect(cart.getByTestId('cart-subtotal')).toHaveText(subtotal);

  await cart.getByRole('button', { name: `Remover ${product.name}` }).click();
  await expect(cart.getByText('Você ainda não tem nenhum item no carrinho.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Carrinho: 0 itens' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('cart'))).toBe('[]');
});

test('a sold-out combination opens the dialog and cannot be added', async ({ page, request }) => {
  const { product, entry } = await productWithSoldOutCombination(request);
  await page.goto(`/produto/${product.id}`);
  await page.getByRole('group', { name: /^Cor/ }).getByRole('button', { name: entry.color.name }).click();
  await page
    .getByRole('group', { name: /^Tamanho/ })
    .getByRole('button', { name: entry.size.name, exact: true })
    .click();

  const dialog = page.getByRole('alertdialog', { name: 'COMBINAÇÃO NÃO DISPONÍVEL NO MOMENDO!' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('ESGOTADO!')).toBeVisible();

  await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('button', { name: 'Carrinho: 0 itens' })).toBeVisible();
});

test('buying needs a colour and size, then a login', async ({ page, request }) => {
  const { product, entry } = await productWithStock(request, '/api/products/');
  await page.goto(`/produto/${product.id}`);
  await page.getByRole('button', { name: 'Comprar agora' }).click();
  const choose = page.getByRole('alertdialog', { name: 'VOCÊ PRECISA SELECIONAR A COR E O TAMANHO ANTES!' });
  await expect(choose).toBeVisible();
  await choose.getByRole('button', { name: 'OK' }).click();

  await page.getByRole('group', { name: /^Cor/ }).getByRole('button', { name: entry.color.name }).click();
  await page
    .getByRole('group', { name: /^Tamanho/ })
    .getByRole('button', { name: entry.size.name, exact: true })
    .click();
  await expect(page.getByText(/unidades disponíveis|Última unidade!/)).toBeVisible();
  await page.getByRole('button', { name: 'Comprar agora' }).click();
  const login = page.getByRole('alertdialog', { name: 'Você precisa estar logado para fazer uma compra.' });
  await expect(login).toBeVisible();
  await login.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(`/produto/${product.id}`)}$`));
});

test('shipping quote: empty CEP, a valid CEP, and the API message for a bad one', async ({
  page,
  request,
}) => {
  const { product } = await productWithStock(request, '/api/products/');
  await page.goto(`/produto/${product.id}`);
  const calculate = page.getByRole('button', { name: 'Calcular', exact: true });
  await calculate.click();
  await expect(page.getByText('Digite um CEP válido!')).toBeVisible();

  await page.getByLabel('CEP').fill('01310-100');
  await calculate.click();
  await expect(
    page.getByText(/PAC: R\$\s?\d+,\d{2}, entrega em até \d+ dias úteis \(\d{2}\/\d{2}\/\d{4}\)/),
  ).toBeVisible();
  await expect(
    page.getByText(/SEDEX: R\$\s?\d+,\d{2}, entrega em até \d+ dias úteis \(\d{2}\/\d{2}\/\d{4}\)/),
  ).toBeVisible();

  await page.getByLabel('CEP').fill('00000-000');
  await calculate.click();
  await expect(page.getByText('Digite um CEP válido!')).toBeVisible();
});

test('an unknown product says so', async ({ page }) => {
  await page.goto('/produto/999999');
  await expect(page.getByRole('heading', { name: 'Produto não encontrado.' })).toBeVisible();
});

test('search filters live in the URL', async ({ page }) => {
  await page.goto('/pesquisa');
  await page.getByLabel('Categoria').selectOption('acessorios');
  await expect(page).toHaveURL(/category=acessorios/);
  // The checkbox follows the URL, which updates right after the click.
  await page.getByRole('checkbox', { name: 'GG' }).click();
  await expect(page).toHaveURL(/sizes=GG/);
  await page.reload();
  await expect(page.getByLabel('Categoria')).toHaveValue('acessorios');
  await expect(page.getByRole('checkbox', { name: 'GG' })).toBeChecked();
  await page.getByLabel('Categoria').selectOption('');
  await page.getByRole('checkbox', { name: 'GG' }).click();
  await expect(page.getByRole('checkbox', { name: 'GG' })).not.toBeChecked();
  await page.getByRole('main').getByRole('searchbox', { name: 'Pesquisar produtos' }).fill('camiseta');
  await page.getByRole('main').getByRole('button', { name: 'Buscar' }).click();
  await expect(page).toHaveURL(/q=camiseta/);
  await expect(page.getByText(/produtos? encontrados?$/)).toBeVisible();
  await expect(page.getByRole('link', { name: /^Ver mais sobre .*Camiseta/i }).first()).toBeVisible();
});

test("a CEP pasted before the page's code has started is the one quoted, on a 4× slower CPU", async ({
  page,
  request,
}) => {
  const { product } = await productWithStock(request, '/api/products/category/feminino/');
  const restoreCpu = await slowCpu(page, 4);
  // The page's scripts wait until the CEP is in the field: it is typed into the server's HTML alone.
  let typed!: () => void;
  const cepTyped = new Promise<void>((resolve) => {
    typed = resolve;
  });
  await page.route('**/assets/*.js', async (route) => {
    await cepTyped;
    await route.continue();
  });
  await page.goto(`/produto/${product.id}`, { waitUntil: 'domcontentloaded' });
  const calculator = page.getByRole('region', { name: 'Calcular frete' });
  await calculator.getByLabel('CEP').fill('60165121');
  const calculate = calculator.getByRole('button', { name: 'Calcular' });
  await expect(calculate).toBeDisabled();
  typed();
  await calculate.click();
  await expect(calculator.getByText(/^PAC: R\$/)).toBeVisible();
  await expect(calculator).not.toContainText('Digite um CEP válido!');
  await restoreCpu();
});
