import { isS10Code } from '@passada/core/s10';
import { expect, test } from '@playwright/test';
import {
  expectNfeAuthorised,
  expectNoSeriousAxe,
  generateLabel,
  paidProductOrder,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

test('from paid to posted: the nota authorised, the label bought, and the buyer’s order shows the DANFE and the tracking code', async ({
  page,
  request,
  browser,
}) => {
  // Paid by Pix with the "CPF na nota": the offline issuer authorises the NF-e on its own.
  const { orderId, shopper } = await paidProductOrder(request, 'nfetq');
  await signInStaff(page, STAFF.admin, `/painel/pedidos/${orderId}`);
  await expectNfeAuthorised(page);

  // The label, bought by staff after the nota (its key goes on the label).
  const code = await generateLabel(page, orderId);
  expect(isS10Code(code)).toBe(true);

  // The buyer, in a browser of their own: one order card with both.
  const context = await browser.newContext();
  const buyer = await context.newPage();
  await signIn(buyer, shopper.token);
  await buyer.goto('/user/pedidos');
  const order = buyer.getByRole('article', { name: `Pedido ${orderId}` });
  await expect(order.getByRole('link', { name: /^DANFE \(PDF\) da NF-e nº \d+$/ })).toBeVisible();
  await expect(order.getByRole('link', { name: code })).toHaveAttribute('href', new RegExp(`objeto=${code}`));
  await expectNoSeriousAxe(buyer);
  await context.close();
});
