import { expect, test } from '@playwright/test';
import { expectNoSeriousAxe, outboxMails, STAFF } from './fixtures.ts';

interface Option {
  id: number;
  name: string;
}

test('at 390 px: the size guide folds out, a sold-out size takes an "Avise-me", and the unit back sends it', async ({
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

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/produto/${product.id}`);
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
