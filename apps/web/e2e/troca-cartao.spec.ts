import { expect, type Page, test } from '@playwright/test';
import { brl, createShopper, expectNoSeriousAxe, payWithPix, publishProduct, STAFF } from './fixtures.ts';

type Option = { id: number; name: string };

/** Types a card into the order page's card form, as the checkout's card test does. */
async function fillCard(page: Page, number: string) {
  const form = page.getByRole('form', { name: 'Pagamento com cartão' });
  const field = form.getByLabel('Número do cartão');
  await field.fill('');
  await field.pressSequentially(number.replace(/\D/g, ''), { delay: 20 });
  await expect(field).toHaveValue(number);
  await expect(form.getByLabel('Bandeira')).toHaveValue('Visa');
  await form.getByLabel('Nome impresso no cartão').fill('Cida Corredora');
  await form.getByLabel('Mês', { exact: true }).selectOption('12');
  await form.getByLabel('Ano', { exact: true }).selectOption(String(new Date().getFullYear() + 2));
  await form.getByLabel('CVV').fill('123');
  await form.getByLabel('CPF do titular').fill('403.644.788-29');
  await form.getByLabel('Data de nascimento do titular').fill('05/12/1990');
  await expect(form.getByLabel('Parcelas').locator('option[value="1"]')).toHaveCount(1);
  await form.getByLabel('Parcelas').selectOption('1');
  return form;
}

test('an exchange up in price: a refused card says why, an approved one pays the difference', async ({
  page,
  request,
}) => {
  // A product of its own (so no other spec sees its price change): one colour, two sizes in stock.
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const headers = { authorization: `Token ${(await login.json()).token}` };
  const [color] = (await (await request.get('/api/painel/colors/', { headers })).json()) as Option[];
  const [small, large] = (await (await request.get('/api/painel/sizes/', { headers })).json()) as Option[];
  const name = `Camiseta Troca no Cartão ${Date.now().toString(36)}`;
  const created = await request.post('/api/painel/products/', {
    headers,
    data: {
      name,
      description: 'Camiseta de corrida para o teste da troca paga com cartão.',
      price: 100,
      category: 'masculino',
      color_ids: [color!.id],
      size_ids: [small!.id, large!.id],
    },
  });
  expect(created.status()).toBe(201);
  const product = (await created.json()) as { id: number; versao: number };
  for (const size of [small!, large!])
    expect(
      (
        await request.post('/api/painel/stock/', {
          headers,
          data: {
            product_id: product.id,
            color_id: color!.id,
            size_id: size.id,
            modo: 'definir',
            quantidade: 3,
            motivo: 'entrada',
          },
        })
      ).status(),
    ).toBe(200);
  const versao = await publishProduct(request, headers, product.id);

  // Bought by Pix, shipped and delivered; then its price goes up by R$ 25,00.
  const shopper = await createShopper(request, 'trocacartao');
  const orderId = (
    await payWithPix(request, shopper.token, 'pedido', {
      items: [{ product: product.id, quantity: 1, color: color!.id, size: small!.id }],
      address_id: shopper.addressId,
      frete: 'PAC',
      metodo_pagamento: 'pix',
    })
  ).pedido_id as number;
  for (const step of [
    { status: 'em separação' },
    { status: 'enviado', codigo_rastreio: 'QB987654326BR' },
    { status: 'entregue' },
  ])
    expect(
      (await request.post(`/api/painel/orders/${orderId}/status/`, { headers, data: step })).status(),
    ).toBe(200);
  const raised = await request.patch(`/api/painel/products/${product.id}/`, {
    headers,
    data: { price: 125, versao },
  });
  expect(raised.status()).toBe(200);

  await page.addInitScript((t) => localStorage.setItem('token', t), shopper.token);
  await page.goto('/user/pedidos');
  const order = page.getByRole('article', { name: `Pedido ${orderId}` });
  await order.getByRole('button', { name: 'Quero trocar' }).click();
  const exchange = order.getByRole('form', { name: 'Trocar itens' });
  await exchange.getByLabel('Trocar por').selectOption(`${color!.id}-${large!.id}`);
  await exchange.getByRole('button', { name: 'Solicitar troca' }).click();
  await expect(order.getByRole('status')).toContainText(/Troca nº \d+ solicitada/);
  await expect(
    order.getByText(/Diferença de preço: R\$\s25,00 \(a pagar antes do envio da troca\)/),
  ).toBeVisible();

  // The card: the checkout's own form, for exactly the difference.
  await order.getByRole('button', { name: /^Pagar a diferença da troca nº \d+ com cartão$/ }).click();
  const refused = await fillCard(page, '4000 0000 0000 0002');
  await expect(refused.getByLabel('Parcelas')).toContainText(brl(2500));
  await expectNoSeriousAxe(page, `#pedido-${orderId}`);
  await refused.getByRole('button', { name: 'Pagar com cartão' }).click();
  await expect(refused.getByRole('alert')).toContainText('Erro ao gerar token ou pagar. Pagamento recusado');
  await expect(order.getByText(/\(a pagar antes do envio da troca\)/)).toBeVisible();

  const approved = await fillCard(page, '4111 1111 1111 1111');
  await approved.getByRole('button', { name: 'Pagar com cartão' }).click();
  await expect(order.getByText(/Diferença de preço: R\$\s25,00 \(paga\)/)).toBeVisible({ timeout: 20_000 });
  await expect(order.getByRole('button', { name: /com cartão$/ })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Pagamento com cartão' })).toHaveCount(0);

  // The product leaves the shop's shelves again, so no other spec picks it.
  const current = (await (await request.get(`/api/painel/products/${product.id}/`, { headers })).json()) as {
    versao: number;
  };
  await request.patch(`/api/painel/products/${product.id}/`, {
    headers,
    data: { oculto: true, versao: current.versao },
  });
});
