import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  createShopper,
  expectNfeAuthorised,
  productWithStock,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

const BUYER_CPF = '40364478829';

/** An order paid by card through the public API (the card checkout asks the buyer's CPF, which the NF-e needs). */
async function paidCardOrder(request: APIRequestContext) {
  const { product, entry } = await productWithStock(request, '/api/products/', 2);
  const shopper = await createShopper(request, 'nfe');
  const headers = { authorization: `Token ${shopper.token}` };
  const pedido = {
    items: [{ product: product.id, quantity: 1, color: entry.color.id, size: entry.size.id }],
    address_id: shopper.addressId,
    frete: 'PAC',
    metodo_pagamento: 'cartao',
  };
  // The server says the total it expects (products + shipping) when asked with a wrong one.
  const asked = await request.post('/api/pagar-pix/', {
    headers,
    data: { total: 0.01, finalidade: 'pedido', pedido: { ...pedido, metodo_pagamento: 'pix' } },
  });
  const total = (await asked.json()).total_correto as number;
  const token = await request.post('/api/simulador/cartao/token', {
    data: {
      brand: 'visa',
      number: '4111111111111111',
      cvv: '123',
      expirationMonth: '12',
      expirationYear: '2030',
      reuse: false,
      holderName: shopper.full_name,
      holderDocument: BUYER_CPF,
    },
  });
  const paid = await request.post('/api/pagar-cartao/', {
    headers: { ...headers, 'idempotency-key': `nfe-${Date.now()}-${Math.random()}` },
    data: {
      payment_token: (await token.json()).payment_token,
      name: shopper.full_name,
      cpf: BUYER_CPF,
      phone: '(85) 98888-7777',
      email: shopper.email,
      birth: '1990-05-17',
      total,
      installments: 1,
      finalidade: 'pedido',
      pedido,
    },
  });
  expect(paid.status()).toBe(200);
  return { orderId: (await paid.json()).pedido_id as number, shopper };
}

async function noSeriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

test('staff see a paid order’s NF-e authorised and the buyer gets the DANFE link', async ({
  page,
  request,
  browser,
}) => {
  const { orderId, shopper } = await paidCardOrder(request);

  await signInStaff(page, STAFF.admin, `/painel/pedidos/${orderId}`);
  await expectNfeAuthorised(page);
  await noSeriousViolations(page);

  await page.goto('/painel/fiscal');
  await expect(page.getByRole('heading', { name: 'Configurações fiscais' })).toBeVisible();
  await expect(page.getByLabel('CNPJ')).toHaveValue('12ABC34501DE35');
  await expect(page.getByLabel('CFOP (dentro do estado)')).toHaveValue('5102');
  await noSeriousViolations(page);

  // The buyer, in a browser of their own.
  const context = await browser.newContext();
  const buyer = await context.newPage();
  await signIn(buyer, shopper.token);
  await buyer.goto('/user/pedidos');
  const order = buyer.getByRole('article', { name: `Pedido ${orderId}` });
  const danfe = order.getByRole('link', { name: /^DANFE \(PDF\) da NF-e nº \d+$/ });
  await expect(danfe).toBeVisible();
  await expect(order.getByRole('link', { name: /^XML da NF-e nº \d+$/ })).toBeVisible();
  const pdf = await request.get((await danfe.getAttribute('href'))!);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await noSeriousViolations(buyer);
  await context.close();
});
