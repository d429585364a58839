import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { findProducts } from './fixtures.ts';

test('the header shows the six links and the guest links', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Principal' });
  for (const name of ['Masculino', 'Feminino', 'Acessórios', 'Eventos', 'Sobre nós', 'Lojas']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Entrar' })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('link', { name: 'Crie uma conta' })).toHaveAttribute('href', '/criarconta');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Contato', exact: true })).toHaveAttribute('href', '/lojas');
  await expect(footer.getByText('CNPJ 12.ABC.345/01DE-35')).toBeVisible();
});

test('the home page shows the featured products and the banner, whose slides all lead somewhere', async ({
  page,
  request,
}) => {
  const home = await (await request.get('/api/home/')).json();
  await page.goto('/');
  const banner = page.getByRole('region', { name: 'Destaques' });
  await expect(banner).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ir para o slide 2' })).toBeVisible();
  for (const link of await banner.getByRole('link').all()) {
    expect(await link.getAttribute('href')).toMatch(/^\/[a-z]/);
  }
  const section = page.getByRole('region', { name: 'Em destaque' });
  await expect(section.getByRole('listitem')).toHaveCount(home.destaques.length);
  await page
    .getByRole('navigation', { name: 'Espaços da loja' })
    .getByRole('link', { name: 'Espaço Masculino' })
    .click();
  await expect(page).toHaveURL(/\/masculino$/);
});

test("the banner's second slide opens the collection it shows", async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Tema escuro' })).toBeEnabled();
  await page.getByRole('button', { name: 'Ir para o slide 2' }).click();
  const slide = page.getByRole('group', { name: /^2 de \d+$/ });
  await slide.getByRole('link', { name: /^Nova coleção Passada/ }).click();
  await expect(page).toHaveURL(/\/feminino$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Espaço Feminino' })).toBeVisible();
});

test('the theme is kept after a reload', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  const toggle = page.getByRole('button', { name: 'Tema escuro' });
  await toggle.click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'Tema escuro' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Tema escuro' }).click();
  await page.reload();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});

test('an unknown address shows the 404 page with a way home', async ({ page }) => {
  await page.goto('/nao-existe');
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  await expect(page.getByText('Oops! Página não encontrada.')).toBeVisible();
  await page.getByRole('link', { name: 'Voltar para a página inicial' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the slide-in menu opens, navigates and closes', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Principal' })).toBeHidden();
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Entrar' })).toBeVisible();
    await menu.getByRole('link', { name: 'Lojas' }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Lojas' })).toBeVisible();
    await expect(page.getByText('Segunda a sábado: 9:00–11:30 e 14:00–18:00')).toBeVisible();
  });
});

test('no serious accessibility violations on the home and product pages', async ({ page, request }) => {
  const [product] = await findProducts(request);
  for (const url of ['/', `/produto/${product!.id}`]) {
    await page.goto(url);
    await expect(
      page
        .getByRole('main')
        .getByRole('listitem')
        .or(page.getByRole('button', { name: 'Comprar agora' }))
        .first(),
    ).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${url}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
});

test('while payments are simulated every page says so', async ({ page }) => {
  for (const url of ['/', '/eventos', '/sobrenos', '/nao-existe']) {
    await page.goto(url);
    await expect(page.getByRole('status', { name: 'Aviso de demonstração' })).toHaveText(
      /^Loja de demonstração: pagamentos simulados/,
    );
  }
});
