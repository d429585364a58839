import { formatBRL } from '@passada/core/money';
import { expect, test } from '@playwright/test';
import {
  brl,
  chooseColorAndSize,
  createShopper,
  fillRaceFields,
  openEvent,
  outboxMails,
  payReviewWithPix,
  productWithStock,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

test('a coupon applied on the review page lowers the Pix charge, and the order history shows the discount', async ({
  page,
  request,
}) => {
  const shopper = await createShopper(request, 'cupom');
  await signIn(page, shopper.token);
  const { product, entry } = await productWithStock(request, '/api/products/', 2);
  const quote = await request.post('/api/calcular-frete/', {
    data: { cepDestino: '60165121', items: [{ product: product.id, quantity: 1 }] },
  });
  const pac = Number(((await quote.json()) as { precoFinalPAC: string }).precoFinalPAC.replace(/\D/g, ''));
  const priceCents = Math.round(product.price * 100);
  // BEMVINDO10, the demo seed's shop coupon: 10% of the products, never of the shipping.
  const discount = Math.round(priceCents / 10);
  const total = priceCents + pac - discount;

  await page.goto(`/produto/${product.id}`);
  await chooseColorAndSize(page, entry.color.name, entry.size.name);
  await page.getByRole('button', { name: 'Comprar agora' }).click();
  await expect(page).toHaveURL(/\/enderecos$/);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/revisar-pedido$/);

  const field = page.getByRole('textbox', { name: 'Cupom de desconto' });
  const apply = page.getByRole('button', { name: 'Aplicar' });
  // The discount depends on the shipping chosen: first the shipping.
  await field.fill('bemvindo10');
  await apply.click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Escolha o frete antes de aplicar o cupom.' }),
  ).toBeVisible();

  await page.getByRole('radio', { name: /^PAC/ }).check();
  await expect(page.getByTestId('total-pedido')).toHaveText(brl(priceCents + pac));
  await field.fill('naoexiste');
  await apply.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Cupom inválido.' })).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');

  await field.fill('bemvindo10');
  await apply.click();
  await expect(page.getByRole('status').filter({ hasText: 'Cupom BEMVINDO10 aplicado' })).toContainText(
    brl(total),
  );
  await expect(page.getByTestId('total-pedido')).toHaveText(brl(total));
  await expect(page.getByRole('complementary')).toContainText('Desconto (cupom BEMVINDO10)');

  await payReviewWithPix(page);
  const order = page.getByRole('article').first();
  await expect(order).toContainText('Desconto (cupom BEMVINDO10)');
  await expect(order).toContainText(brl(discount));
  await expect(order).toContainText(brl(total));
});

test('an admin creates a race coupon at /painel/cupons, sees its uses and deactivates it', async ({
  page,
}) => {
  await signInStaff(page, STAFF.admin, '/painel/cupons');
  await expect(page.getByRole('heading', { level: 1, name: 'Cupons de desconto' })).toBeVisible();
  // The demo coupons are there, with their uses counted.
  await expect(page.getByRole('row', { name: /BEMVINDO10/ })).toContainText(/\d+ pagos/);
  await expect(page.getByRole('row', { name: /CORRIDA20/ })).toContainText('Corridas');

  // A code of this run's own: a retry must not meet the first attempt's coupon.
  const code = `MARATONA${Date.now().toString(36).toUpperCase()}`;
  await page.getByLabel('Código', { exact: true }).fill(code.toLowerCase());
  await page.getByLabel('Vale para', { exact: true }).selectOption('corridas');
  await page.getByLabel('Tipo de desconto', { exact: true }).selectOption('fixo');
  await page.getByLabel('Valor (R$)', { exact: true }).fill('15');
  await page.getByLabel('Usos no total (vazio: sem limite)', { exact: true }).fill('50');
  await page.getByRole('button', { name: 'Criar cupom' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Cupom criado.' })).toBeVisible();
  const created = page.getByRole('row', { name: new RegExp(code) });
  await expect(created).toContainText(brl(1500));
  await expect(created).toContainText('0 de 50 pagos');

  // A code already taken, in any case, is refused on its field.
  await page.getByLabel('Código', { exact: true }).fill('Bemvindo10');
  await page.getByLabel('Percentual', { exact: true }).fill('5');
  await page.getByRole('button', { name: 'Criar cupom' }).click();
  await expect(page.getByText('Já existe um cupom com este código.').first()).toBeVisible();

  await created.getByRole('button', { name: `Desativar ${code}` }).click();
  await expect(created).toContainText('Inativo');
  await expect(created.getByRole('button', { name: `Reativar ${code}` })).toBeVisible();
});

test('a race coupon on the registration checkout lowers the Pix charge, and the paid registration records it', async ({
  page,
  request,
}) => {
  const shopper = await createShopper(request, 'corrida');
  await signIn(page, shopper.token);
  const { event, categoryId } = await openEvent(request);
  // A CPF no other end-to-end test registers: CORRIDA20 is good for one registration per CPF.
  const cpf = '39053344705';
  const birthDate = '1992-07-08';
  const price = await request.get(
    `/api/events/${event.id}/preco/?categorias=${categoryId}&data_nascimento=${birthDate}`,
  );
  const fullCents = ((await price.json()) as { total_centavos: number }).total_centavos;
  // CORRIDA20, the demo seed's race coupon: R$ 20,00 off any race.
  const totalCents = fullCents - 2000;
  expect(totalCents).toBeGreaterThan(0);

  await page.goto(
    `/eventos/register/${event.id}/finalizar?paraMim=true&eventoId=${event.id}&categorias=${categoryId}`,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
  await expect(page.getByLabel('Nome completo')).toHaveValue(shopper.full_name);
  await page.getByLabel('CPF', { exact: true }).fill(cpf);
  await page.getByLabel('Data de nascimento').fill(birthDate);
  await page.getByLabel('Feminino').check();
  await fillRaceFields(page, event.kit.tamanhos.find((k) => k.quantidade_disponivel > 0)!.tamanho);
  await expect(page.getByTestId('registration-total')).toHaveText(brl(fullCents));

  const coupons = page.getByRole('region', { name: 'Cupom de desconto' });
  const field = coupons.getByRole('textbox', { name: 'Cupom de desconto' });
  const apply = coupons.getByRole('button', { name: 'Aplicar' });
  await field.fill('naoexiste');
  await apply.click();
  await expect(coupons.getByRole('alert')).toHaveText('Cupom inválido.');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  // The shop's coupon is not for races.
  await field.fill('bemvindo10');
  await apply.click();
  await expect(coupons.getByRole('alert')).toHaveText('Cupom vale apenas para compras na loja.');

  await field.fill('corrida20');
  await apply.click();
  const applied = coupons.getByRole('status').filter({ hasText: 'Cupom CORRIDA20 aplicado' });
  await expect(applied).toContainText(brl(2000));
  await expect(applied).toContainText(`Novo total: ${formatBRL(totalCents)}`);
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  // The price box at the top says the same as the Pix: the discount and the new total.
  await expect(page.getByTestId('registration-total')).toHaveText(brl(totalCents));
  await expect(page.getByRole('region', { name: 'Categorias escolhidas' })).toContainText(
    new RegExp(`Desconto \\(cupom CORRIDA20\\)−${brl(2000).source}`),
  );

  // The Pix is for the discounted total, as the server priced it.
  await page.getByRole('button', { name: 'Pix' }).click();
  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await expect(pix.getByText(/^Valor:/)).toHaveText(brl(totalCents));
  // The page asks the server for what the paid charge created: the registration, with its coupon.
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/participantes/cadastrar/') && r.request().method() === 'POST',
  );
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible({
    timeout: 20_000,
  });
  const registration = await (await created).json();
  expect(registration).toMatchObject({ cupom: 'CORRIDA20', desconto: 20, total: totalCents / 100 });

  // The confirmation e-mail names the coupon, its discount and the total paid.
  const confirmation = () =>
    outboxMails(shopper.email).find((m) => m.includes(`Inscrição nº ${registration.id}`)) ?? '';
  await expect.poll(confirmation, { timeout: 15_000 }).toContain(`Evento: ${event.nome_evento}`);
  expect(confirmation()).toContain(`Desconto (cupom CORRIDA20): −${formatBRL(2000)}`);
  expect(confirmation()).toContain(`Valor: ${formatBRL(totalCents)}`);
});
