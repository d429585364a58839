import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { chooseColorAndSize, STAFF, signInStaff } from './fixtures.ts';

async function noSeriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

/** The stock's batches (decision 0081), on a product of its own so the demo's stock stays as it was. */
test('a goods receipt in one save, then a count sent as a file, checked before it is applied', async ({
  page,
}) => {
  const name = `Regata Recebimento ${Date.now().toString(36)}`;
  await signInStaff(page, STAFF.admin, '/painel/produtos');
  await page.getByRole('link', { name: 'Novo produto' }).click();
  await page.getByLabel('Nome').fill(name);
  await page.getByLabel('Descrição').fill('Regata para conferir o recebimento de mercadoria.');
  await page.getByLabel('Preço (R$)').fill('79,90');
  await page.getByLabel('Categoria').selectOption('feminino');
  await page.getByRole('group', { name: 'Cores' }).getByLabel('Coral').check();
  await page.getByRole('group', { name: 'Cores' }).getByLabel('Preto').check();
  await page.getByRole('group', { name: 'Tamanhos' }).getByLabel('M', { exact: true }).check();
  await page.getByRole('group', { name: 'Tamanhos' }).getByLabel('G', { exact: true }).check();
  await page.getByRole('button', { name: 'Criar produto' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // The delivery: 2 × 2 cells, three filled, one save.
  const receipt = page.getByRole('form', { name: 'Recebimento de mercadoria' });
  await receipt.getByLabel('Entrada de Coral M (há 0)').fill('6');
  await receipt.getByLabel('Entrada de Coral G (há 0)').fill('4');
  await receipt.getByLabel('Entrada de Preto G (há 0)').fill('3');
  await receipt.getByLabel('Observação (nota do fornecedor)').fill('NF 9921');
  await noSeriousViolations(page);
  await receipt.getByRole('button', { name: 'Salvar recebimento (3 combinações, +13)' }).click();
  await expect(page.getByText('Recebimento salvo: 3 combinações, +13 unidades.')).toBeVisible();
  const stock = page.getByRole('table', { name: 'Estoque por cor e tamanho' });
  await expect(stock.getByRole('row', { name: /Coral M/ })).toContainText('6');
  await expect(stock.getByRole('row', { name: /Preto G/ })).toContainText('3');
  await expect(receipt.getByLabel('Entrada de Coral M (há 6)')).toHaveValue('');

  // The count: export, change one line in the spreadsheet, send it back.
  await page.goto('/painel/estoque-baixo');
  await expect(page.getByRole('heading', { level: 1, name: 'Estoque baixo' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar estoque (CSV)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('estoque.csv');
  const csv = readFileSync((await file.path())!, 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('SKU;Produto;Cor;Tamanho;Estoque');
  const mine = lines.filter((l) => l.split(';')[1] === name);
  expect(mine.map((l) => l.split(';').slice(2).join(' '))).toEqual([
    'Coral M 6',
    'Coral G 4',
    'Preto M 0',
    'Preto G 3',
  ]);
  const counted = [
    'SKU;Produto;Cor;Tamanho;Estoque',
    ...mine.map((l) => l.replace(/;Coral;M;6$/, ';Coral;M;5')),
  ];
  await page.getByLabel('O arquivo traz').selectOption('definir');
  await page.getByLabel('Observação', { exact: true }).fill('Contagem de dezembro');
  await page.getByLabel('Arquivo de estoque (CSV)').setInputFiles({
    name: 'contagem.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${counted.join('\r\n')}\r\n`),
  });
  await page.getByRole('button', { name: 'Conferir arquivo' }).click();
  const changes = page.getByRole('table', { name: 'Mudanças do arquivo' });
  await expect(changes.getByRole('row')).toHaveCount(2);
  await expect(changes.getByRole('row').nth(1)).toHaveText(new RegExp(`${name}\\s*Coral\\s*M\\s*6\\s*5$`));
  await expect(page.getByText('1 mudança; 3 sem mudança.')).toBeVisible();
  await noSeriousViolations(page);
  await page.getByRole('button', { name: 'Aplicar 1 mudança' }).click();
  await expect(page.getByText('Estoque atualizado em 1 combinação.')).toBeVisible();

  await page.goto('/painel/produtos');
  await page.getByRole('link', { name }).click();
  await expect(
    page.getByRole('table', { name: 'Estoque por cor e tamanho' }).getByRole('row', { name: /Coral M/ }),
  ).toContainText('5');

  // A sale (decision 0082) that started an hour ago and ends tomorrow, in the store's time (UTC−3).
  const storeLocal = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 16);
  const sale = page.getByRole('form', { name: 'Preço promocional' });
  await sale.getByLabel('Preço promocional (R$)').fill('59,90');
  await sale.getByLabel('Início da promoção').fill(storeLocal(Date.now() - 3_600_000));
  await sale.getByLabel('Fim da promoção').fill(storeLocal(Date.now() + 86_400_000));
  await sale.getByRole('button', { name: 'Salvar promoção' }).click();
  await expect(page.getByText('Promoção salva.')).toBeVisible();
  await expect(page.getByText(/^De R\$\s79,90 por R\$\s59,90, de /)).toBeVisible();

  // A new product is a draft: the shop sells it once it has a photo and is published.
  const publishing = page.getByRole('region', { name: 'Publicação' });
  await expect(
    publishing.getByText('Para colocar à venda, falta uma foto pronta.', { exact: false }),
  ).toBeVisible();
  await expect(publishing.getByRole('button', { name: 'Publicar agora' })).toBeDisabled();
  await page.locator('input[type=file]').setInputFiles({
    name: 'regata.jpg',
    mimeType: 'image/jpeg',
    buffer: await sharp({ create: { width: 800, height: 960, channels: 3, background: '#ff6b57' } })
      .jpeg()
      .toBuffer(),
  });
  await expect(page.getByAltText('Foto 1')).toBeVisible();
  await publishing.getByRole('button', { name: 'Publicar agora' }).click();
  await expect(publishing.getByText('Produto publicado: já está à venda na loja.')).toBeVisible();
  await expect(publishing.getByText('À venda na loja.', { exact: true })).toBeVisible();
  await noSeriousViolations(page);

  // The shop shows it at once: the list price struck through, read out as "De … por …".
  const productId = /\/painel\/produtos\/(\d+)$/.exec(page.url())?.[1];
  await page.goto(`/produto/${productId}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const price = page.locator('s', { hasText: /79,90/ }).locator('..');
  await expect(price).toHaveText(/^De R\$\s79,90por R\$\s59,90$/);
  await expect(page.getByText(/^Promoção até /)).toBeVisible();
  await noSeriousViolations(page);

  // The same sale limited to one colour × size: only it shows and takes the sale price.
  await page.goto(`/painel/produtos/${productId}`);
  const limited = page.getByRole('form', { name: 'Preço promocional' });
  await limited
    .getByRole('group', { name: 'Só nestas cores e tamanhos (nenhuma marcada: todas)' })
    .getByLabel('Coral M')
    .check();
  await limited.getByRole('button', { name: 'Salvar promoção' }).click();
  await expect(page.getByText(/^De R\$\s79,90 por R\$\s59,90, só em Coral M, de /)).toBeVisible();
  await page.goto(`/produto/${productId}`);
  await expect(page.getByText(/^Promoção em algumas cores e tamanhos até /)).toBeVisible();
  const headline = page.locator('main h1 + *').first();
  await expect(headline).toHaveText(/^R\$\s79,90$/);
  await chooseColorAndSize(page, 'Coral', 'G');
  await expect(headline).toHaveText(/^R\$\s79,90$/);
  await chooseColorAndSize(page, 'Coral', 'M');
  await expect(headline).toHaveText(/^De R\$\s79,90por R\$\s59,90$/);
});
