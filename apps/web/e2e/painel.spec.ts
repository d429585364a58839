import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousAxe, STAFF, signInStaff } from './fixtures.ts';

async function signIn(page: Page, who: { email: string; password: string }) {
  await signInStaff(page, who, '/painel/produtos');
  await expect(page.getByRole('heading', { level: 1, name: 'Produtos' })).toBeVisible();
}

/** A phone-sized photo, as the admin would pick from the computer. */
const photo = (background: string) =>
  sharp({ create: { width: 1500, height: 1800, channels: 3, background } })
    .jpeg()
    .toBuffer();

test('an admin adds a product with photos and stock, and the shop shows it at once', async ({ page }) => {
  await signIn(page, STAFF.admin);
  await page.getByRole('link', { name: 'Novo produto' }).click();
  await page.getByLabel('Nome').fill('Jaqueta Chuva de Caju');
  await page.getByLabel('Descrição').fill('Corta-vento leve para os treinos de inverno no litoral.');
  await page.getByLabel('Preço (R$)').fill('249,90');
  await page.getByLabel('Categoria').selectOption('masculino');
  await page.getByRole('group', { name: 'Cores' }).getByLabel('Coral').check();
  await page.getByRole('group', { name: 'Tamanhos' }).getByLabel('M', { exact: true }).check();
  await page.getByRole('button', { name: 'Criar produto' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Jaqueta Chuva de Caju' })).toBeVisible();
  const productId = Number(/\/painel\/produtos\/(\d+)$/.exec(page.url())?.[1]);
  expect(productId).toBeGreaterThan(0);

  const upload = page.locator('input[type=file]');
  await upload.setInputFiles([
    { name: 'frente.jpg', mimeType: 'image/jpeg', buffer: await photo('#ff6b57') },
    { name: 'costas.jpg', mimeType: 'image/jpeg', buffer: await photo('#1b2a4a') },
  ]);
  await expect(page.getByText('Fotos enviadas.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Fotos (2/19)' })).toBeVisible();
  // The server answers at once and resizes the photos in its queue, one at a time: the last one sent is
  // still "Processando…" when the list comes back.
  await expect(page.getByText('Processando…').first()).toBeVisible();
  // The list asks again until both are ready.
  await expect(page.getByAltText('Foto 2')).toBeVisible();
  await expect(page.getByAltText('Foto 1')).toBeVisible();
  await expect(page.getByText('Processando…')).toHaveCount(0);
  const first = await page.getByAltText('Foto 1').getAttribute('src');
  const second = await page.getByAltText('Foto 2').getAttribute('src');
  // Keyboard alternative to dragging: the second photo becomes the first.
  await page.getByRole('button', { name: 'Mover foto 2 para antes' }).click();
  await expect(page.getByText('Ordem das fotos salva.')).toBeVisible();
  await expect(page.getByAltText('Foto 1')).toHaveAttribute('src', second!);

  await page.getByLabel('Quantidade em Coral M').fill('5');
  await page.getByLabel('Motivo em Coral M').selectOption('entrada');
  await page.getByLabel('Observação em Coral M').fill('Primeiro lote');
  await page
    .getByRole('form', { name: 'Estoque de Coral M' })
    .getByRole('button', { name: 'Salvar' })
    .click();
  await expect(page.getByText('Estoque de Coral M: 5.')).toBeVisible();
  await page.getByRole('button', { name: 'Histórico' }).click();
  await expect(page.getByText(/\+5 \(Entrada, Primeiro lote\) → 5, por admin@passada.com.br/)).toBeVisible();

  // A new product is a draft (decision 0085): its launch can wait for a date, or it goes on sale now.
  const publishing = page.getByRole('region', { name: 'Publicação' });
  await expect(publishing.getByText('Rascunho: a loja ainda não mostra este produto.')).toBeVisible();
  const tomorrow = new Date(Date.now() + 86_400_000 - 3 * 3_600_000).toISOString().slice(0, 16);
  await publishing.getByLabel('Data e hora do lançamento').fill(tomorrow);
  await publishing.getByRole('button', { name: 'Agendar lançamento' }).click();
  await expect(publishing.getByText(/^Lançamento agendado para .+ \(horário de Fortaleza\)/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(publishing.getByRole('button', { name: 'Cancelar agendamento' })).toBeVisible();
  await expectNoSeriousAxe(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await publishing.getByRole('button', { name: 'Cancelar agendamento' }).click();
  await expect(publishing.getByText('Agendamento cancelado.')).toBeVisible();
  await publishing.getByRole('button', { name: 'Publicar agora' }).click();
  await expect(publishing.getByText('À venda na loja.', { exact: true })).toBeVisible();

  await page.goto(`/produto/${productId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Jaqueta Chuva de Caju' })).toBeVisible();
  const shopImage = page.locator(`img[src="${second}"]`).first();
  await expect(shopImage).toBeVisible();
  // The browser picks a width from the photo's srcset: whichever it is, it is one of this photo's copies.
  const photoName = second!.replace(/^.*\/|-\d+\.webp$/g, '');
  expect(await shopImage.evaluate((img: HTMLImageElement) => img.currentSrc)).toContain(photoName);
  expect(await shopImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(
    true,
  );
  expect(first).not.toBe(second);

  await page.goto('/painel/registro');
  await expect(page.getByRole('cell', { name: /Produto .+: fotos reordenadas/ })).toBeVisible();
});

test('an operator moves stock but cannot create products or open the staff page', async ({ page }) => {
  await signIn(page, STAFF.operator);
  await expect(page.getByRole('link', { name: 'Novo produto' })).toHaveCount(0);
  await expect(
    page.getByRole('navigation', { name: 'Painel' }).getByRole('link', { name: 'Equipe' }),
  ).toHaveCount(0);
  await page.getByRole('link', { name: 'Estoque baixo' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Estoque baixo' })).toBeVisible();
  await expect(page.getByRole('cell', { name: '0', exact: true }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/painel\/login$/);
});
