import { expect, test } from '@playwright/test';
import { expectNfeAuthorised, expectNoSeriousAxe, paidProductOrder, STAFF, signInStaff } from './fixtures.ts';
import { removeShopData, type Shop, shopContext, startShop } from './shop-process.ts';

/**
 * The tax reform on the back office (docs/decisions/0059), on a shop of its own (its regime changes) whose
 * clock stands on 2 December 2026 (`shifted-clock.mjs`), so the rules and rates in force are the same at
 * any date the spec runs: staff read which rules apply to the shop's regime today and from when the next
 * apply, switch the shop to the regime normal, and the next order's NF-e carries IBS and CBS; switched to
 * MEI (CRT 4), the next NF-e names CRT 4 with CSOSN and no group in 2026, and the screen warns the CBS
 * rate of 2027 is missing.
 */
const DEC_2026 = Date.UTC(2026, 11, 2, 15);
let shop: Shop | undefined;

test.afterAll(async () => {
  await shop?.stop();
  if (shop) removeShopData(shop);
});

test('staff switch the shop to the regime normal and the next order’s NF-e carries IBS and CBS', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(240_000);
  shop = await startShop({ clockOffsetMs: DEC_2026 - Date.now() });
  const context = await shopContext(browser, shop);
  const page = await context.newPage();
  await signInStaff(page, STAFF.admin, '/painel/fiscal');

  // The demo's Simples Nacional: the national NFS-e today, the IBS/CBS group from 01/01/2027.
  const reform = page.getByRole('region', { name: 'Reforma tributária: IBS e CBS' });
  await expect(reform).toContainText('Regime da loja: Simples Nacional (CRT 1).');
  await expect(reform).toContainText('As NF-e ainda não levam IBS e CBS neste regime.');
  await expect(reform.getByRole('heading', { name: 'Em vigor hoje (02/12/2026)' })).toBeVisible();
  await expect(reform.getByRole('heading', { name: 'A partir de 01/01/2027' })).toBeVisible();
  await expect(reform.getByRole('list', { name: 'Próximas regras' })).toContainText('LC 214/2025, art. 348');
  await expect(
    reform
      .getByRole('table', { name: 'Campos da NFS-e exigidos por município' })
      .getByRole('row', { name: /Natal\/RN/ }),
  ).toBeVisible();
  await expectNoSeriousAxe(page);

  // Staff switch the regime.
  await page
    .getByLabel('Regime tributário')
    .selectOption({ label: 'Regime normal (lucro presumido ou real)' });
  await page.getByRole('button', { name: 'Salvar configurações fiscais' }).click();
  await expect(page.getByText('Configurações fiscais salvas.')).toBeVisible();
  await expect(reform).toContainText('Regime da loja: Regime normal (lucro presumido ou real) (CRT 3).');
  await expect(reform).toContainText(
    'Cada NF-e leva IBS da UF 0,10 %, IBS do município 0,00 % e CBS 0,90 %.',
  );
  await expect(reform.getByRole('list', { name: 'Regras em vigor hoje' })).toContainText('Desde 05/01/2026');

  // The next order's NF-e, read by staff on the order page: its XML has the groups.
  const api = await playwright.request.newContext({ baseURL: shop.url });
  const { orderId } = await paidProductOrder(api, 'reforma');
  await page.goto(`/painel/pedidos/${orderId}`);
  await expectNfeAuthorised(page);
  const href = await page
    .getByRole('region', { name: 'Notas fiscais' })
    .getByRole('link', { name: 'XML' })
    .getAttribute('href');
  const xml = await (await api.get(href!)).text();
  await api.dispose();
  expect(xml).toContain('<CRT>3</CRT>');
  expect(xml).toMatch(
    /<IBSCBS><CST>000<\/CST><cClassTrib>000001<\/cClassTrib><gIBSCBS><vBC>\d+\.\d{2}<\/vBC>/,
  );
  expect(xml).toContain('<pIBSUF>0.1000</pIBSUF>');
  expect(xml).toContain('<pCBS>0.9000</pCBS>');
  expect(xml).toMatch(/<IBSCBSTot><vBCIBSCBS>\d+\.\d{2}<\/vBCIBSCBS>/);

  // MEI (CRT 4): like the Simples, no group until 2027; the screen warns the CBS of 2027 is missing.
  await page.goto('/painel/fiscal');
  await page.getByLabel('Regime tributário').selectOption({ label: 'MEI — Microempreendedor Individual' });
  await page.getByRole('button', { name: 'Salvar configurações fiscais' }).click();
  await expect(page.getByText('Configurações fiscais salvas.')).toBeVisible();
  await expect(reform).toContainText('Regime da loja: MEI — Microempreendedor Individual (CRT 4).');
  await expect(reform).toContainText('As NF-e ainda não levam IBS e CBS neste regime.');
  await expect(reform.getByRole('alert')).toContainText('Falta a alíquota da CBS de 2027');
  const meiApi = await playwright.request.newContext({ baseURL: shop.url });
  const mei = await paidProductOrder(meiApi, 'reforma-mei');
  await page.goto(`/painel/pedidos/${mei.orderId}`);
  await expectNfeAuthorised(page);
  const meiHref = await page
    .getByRole('region', { name: 'Notas fiscais' })
    .getByRole('link', { name: 'XML' })
    .getAttribute('href');
  const meiXml = await (await meiApi.get(meiHref!)).text();
  await meiApi.dispose();
  expect(meiXml).toContain('<CRT>4</CRT>');
  expect(meiXml).toContain('<CSOSN>');
  expect(meiXml).not.toContain('<IBSCBS>');
  await context.close();
});
