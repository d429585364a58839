import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { STAFF, signInStaff } from './fixtures.ts';

async function expectNoSeriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

test('staff add a colour, give it a described photo, feature the product first, and the home page shows it', async ({
  page,
}) => {
  const name = `Regata Areia ${Date.now() % 100_000}`;
  const color = `Areia ${Date.now() % 100_000}`;
  const alt = `${name} cor areia, vista de frente`;

  await signInStaff(page, STAFF.admin, '/painel/produtos');
  await expect(page.getByRole('heading', { level: 1, name: 'Produtos' })).toBeVisible();
  await page.getByRole('link', { name: 'Novo produto' }).click();
  await page.getByLabel('Nome', { exact: true }).fill(name);
  await page.getByLabel('Descrição').fill('Regata leve para treinar na areia da praia.');
  await page.getByLabel('Preço (R$)').fill('89,90');
  // A new colour, made from the form and ticked at once; a second time it is refused.
  await page.getByLabel('Nova cor', { exact: true }).fill(color);
  await page.getByRole('button', { name: 'Adicionar cor' }).click();
  await expect(page.getByRole('group', { name: 'Cores' }).getByLabel(color)).toBeChecked();
  await page.getByLabel('Nova cor', { exact: true }).fill(color.toUpperCase());
  await page.getByRole('button', { name: 'Adicionar cor' }).click();
  await expect(page.getByText('Já existe uma cor com esse nome.')).toBeVisible();
  await page.getByLabel('Nova cor', { exact: true }).fill('');
  await page.getByRole('group', { name: 'Tamanhos' }).getByLabel('M', { exact: true }).check();
  await page.getByRole('button', { name: 'Criar produto' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  await page.locator('input[type=file]').setInputFiles({
    name: 'areia.jpg',
    mimeType: 'image/jpeg',
    buffer: await sharp({ create: { width: 900, height: 1080, channels: 3, background: '#d8c19a' } })
      .jpeg()
      .toBuffer(),
  });
  await expect(page.getByAltText('Foto 1')).toBeVisible();
  await page.getByLabel('Texto alternativo da foto 1').fill(alt);
  await page.getByLabel('Cor da foto 1').selectOption({ label: color });
  await page.getByRole('button', { name: 'Salvar foto 1' }).click();
  await expect(page.getByRole('form', { name: 'Detalhes da foto 1' }).getByRole('status')).toHaveText(
    'Salvo.',
  );
  await expectNoSeriousViolations(page);

  // Removing a photo asks first; cancelling keeps it.
  await page.getByRole('button', { name: 'Remover foto 1' }).click();
  const confirm = page.getByRole('alertdialog', { name: /Remover a foto 1\?/ });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByAltText('Foto 1')).toBeVisible();

  // A new product is a draft: with its photo and its first units it goes on sale.
  const receipt = page.getByRole('form', { name: 'Recebimento de mercadoria' });
  await receipt.getByLabel(`Entrada de ${color} M (há 0)`).fill('4');
  await receipt.getByRole('button', { name: 'Salvar recebimento (1 combinação, +4)' }).click();
  await expect(page.getByText('Recebimento salvo: 1 combinação, +4 unidades.')).toBeVisible();
  await page.getByRole('button', { name: 'Publicar agora' }).click();
  await expect(page.getByText('Produto publicado: já está à venda na loja.')).toBeVisible();

  await page.getByRole('navigation', { name: 'Painel' }).getByRole('link', { name: 'Home da loja' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home da loja' })).toBeVisible();
  await page.getByLabel('Produto para destacar').selectOption({ label: name });
  await page.getByRole('button', { name: 'Destacar no início' }).click();
  const order = page.getByRole('list', { name: 'Ordem dos destaques na home' });
  await expect(order.getByRole('listitem').first()).toContainText(name);
  await page.getByRole('button', { name: 'Salvar destaques' }).click();
  await expect(page.getByText('Destaques salvos.', { exact: false })).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.goto('/');
  const featured = page.getByRole('region', { name: 'Em destaque' }).getByRole('listitem');
  await expect(featured.first()).toContainText(name);
  await expect(featured.first().getByRole('img')).toHaveAttribute('alt', alt);
});
