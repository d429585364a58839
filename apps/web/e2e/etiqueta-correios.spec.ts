import { readFileSync } from 'node:fs';
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
import { type Fake, removeShopData, type Shop, shopContext, startFake, startShop } from './shop-process.ts';

/**
 * Labels from the shop's own Correios contract (LABEL_PROVIDER=correios, pré-postagem, decision 0049):
 * a shop of its own runs with it, against the strict fake of the Correios API served over HTTP from
 * another process; the default end-to-end server keeps the offline label provider.
 */

const CONTRACT = { user: 'passada-e2e', accessCode: 'codigo-e2e-123', postingCard: '0067599079' };
let fake: Fake;
let shop: Shop;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFake('fake-correios-prepostagem.ts', {
    FAKE_CORREIOS_USER: CONTRACT.user,
    FAKE_CORREIOS_ACCESS_CODE: CONTRACT.accessCode,
    FAKE_CORREIOS_POSTING_CARD: CONTRACT.postingCard,
  });
  shop = await startShop({
    env: {
      LABEL_PROVIDER: 'correios',
      CORREIOS_API_URL: fake.url,
      CORREIOS_USER: CONTRACT.user,
      CORREIOS_ACCESS_CODE: CONTRACT.accessCode,
      CORREIOS_POSTING_CARD: CONTRACT.postingCard,
    },
  });
});

test.afterAll(async () => {
  await shop?.stop();
  if (shop) removeShopData(shop);
  await fake?.stop();
});

test('Correios contract: staff buy and print a paid order’s pré-postagem, and the buyer’s order shows its object code', async ({
  browser,
  playwright,
}) => {
  const request = await playwright.request.newContext({ baseURL: shop.url });
  const { orderId, shopper } = await paidProductOrder(request, 'correios');

  // The Correios take the label only with the NF-e's key: the offline issuer authorises it first.
  const staff = await shopContext(browser, shop);
  const page = await staff.newPage();
  await signInStaff(page, STAFF.admin, `/painel/pedidos/${orderId}`);
  await expectNfeAuthorised(page);

  // "Gerar etiquetas": the pré-postagem is made and the carrier fills in the object code.
  const code = await generateLabel(page, orderId);
  expect(isS10Code(code)).toBe(true);

  // "Imprimir etiquetas": the Correios' own rótulo (the fake draws "Rotulo <code>").
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Imprimir etiquetas' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^etiquetas-\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdf = readFileSync((await file.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.includes(Buffer.from(`Rotulo ${code}`))).toBe(true);

  // "Imprimir romaneios": the packing slips of the same selection, one PDF of the shop's own.
  const slips = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Imprimir romaneios' }).click();
  const slipsFile = await slips;
  expect(slipsFile.suggestedFilename()).toMatch(/^romaneios-\d{4}-\d{2}-\d{2}\.pdf$/);
  const slipsPdf = readFileSync((await slipsFile.path())!);
  expect(slipsPdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(slipsPdf.includes(Buffer.from(`pedido-${orderId}`))).toBe(true);

  await page.goto(`/painel/pedidos/${orderId}`);
  const label = page.getByRole('region', { name: 'Etiqueta de envio' });
  await expect(label).toContainText('Etiqueta comprada');
  await expect(label).toContainText(`Rastreio: ${code}`);
  await staff.close();

  // The buyer, in a browser of their own: the Correios object code is the order's tracking code.
  const own = await shopContext(browser, shop);
  const buyer = await own.newPage();
  await signIn(buyer, shopper.token);
  await buyer.goto('/user/pedidos');
  const order = buyer.getByRole('article', { name: `Pedido ${orderId}` });
  await expect(order.getByRole('link', { name: code })).toHaveAttribute('href', new RegExp(`objeto=${code}`));
  await expectNoSeriousAxe(buyer);
  await own.close();
  await request.dispose();
});
