import { STORE_TIME_ZONE } from '@passada/core/calendar';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  expectNoSeriousAxe,
  paidRegistration,
  type Shopper,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';
import { removeShopData, type Shop, shopContext, startShop } from './shop-process.ts';

/**
 * One NFS-e per event per month (NFSE_GROUPING=event_month, decision 0049) on a shop of its own. The
 * shop has no clock setting, and "Emitir agora" takes only a month already over, so the registrations
 * are paid while the shop process runs with its clock moved to the 15th of last month
 * (`shifted-clock.mjs`): their charges are dated there, as a Pix paid last month is. The same data
 * folder is then started on today's clock for staff to issue last month's nota. A registration paid
 * after its month's nota was made (a late confirmation) gets an NFS-e of its own: that needs a third
 * start on last month's clock here, so it is held in the API test instead (`fiscal-month.test.ts`,
 * "a payment of last month confirmed after its month's nota"), where the clock is the test's.
 */

/** From now to 12:00 on the 15th of last month in the store's time zone (UTC−3, no daylight saving). */
function toMiddleOfLastMonth(): number {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: STORE_TIME_ZONE }).format(new Date());
  const [y, m] = today.split('-').map(Number) as [number, number];
  const target = Date.UTC(m === 1 ? y - 1 : y, m === 1 ? 11 : m - 2, 15, 15);
  return target - Date.now();
}

const SETTINGS = { NFSE_GROUPING: 'event_month' };
let shop: Shop | undefined;
let dataDir: string | undefined;

async function restart(clockOffsetMs?: number) {
  await shop?.stop();
  shop = await startShop({
    env: SETTINGS,
    ...(dataDir ? { dataDir } : {}),
    ...(clockOffsetMs ? { clockOffsetMs } : {}),
  });
  dataDir = shop.dataDir;
  return shop;
}

test.afterAll(async () => {
  await shop?.stop();
  if (shop) removeShopData(shop);
});

/** A token of today for an account made last month (its first token has expired by now). */
async function signInAgain(
  url: string,
  playwright: { request: { newContext(o: object): Promise<APIRequestContext> } },
  who: Shopper,
) {
  const api = await playwright.request.newContext({ baseURL: url });
  const login = await api.post('/api/token-auth/', {
    data: { username: who.username, password: who.password },
  });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  await api.dispose();
  return token;
}

/**
 * The NFS-e link of the runner's only registration on "Minhas inscrições", reloading the page as a
 * runner would while the nota is being issued (the page reads the notas once). Each load is given 15 s:
 * on a loaded machine the page and its notas have taken longer than 3 s to arrive, and a reload every
 * 3 s then never let one finish (the link was on the page the moment the test gave up).
 */
async function registrationNfseLink(page: Page) {
  const link = page
    .getByRole('region', { name: 'Nota fiscal de serviço' })
    .getByRole('link', { name: /^NFS-e \(PDF\) da NFS-e nº \d+$/ });
  await expect(async () => {
    await page.goto('/user/inscricoes');
    await expect(link).toBeVisible({ timeout: 15_000 });
  }).toPass({ timeout: 60_000 });
  return link;
}

test('the month’s NFS-e: staff issue last month’s nota and the runner’s registration links it', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(200_000);
  const lastMonth = toMiddleOfLastMonth();

  // Last month: a runner registers and pays; nothing is issued at payment.
  let current = await restart(lastMonth);
  const api = await playwright.request.newContext({ baseURL: current.url });
  const onTime = await paidRegistration(api, { nome_completo: 'Otávio Pontual' });
  await api.dispose();

  // Today: staff issue last month's nota ("Emitir agora", the month already over).
  current = await restart();
  const staffContext = await shopContext(browser, current);
  const staff = await staffContext.newPage();
  await signInStaff(staff, STAFF.admin, '/painel/fiscal');
  const month = staff.getByRole('region', { name: 'NFS-e do mês por evento' });
  await expect(month.getByText(/^Nenhuma NFS-e do mês para \d{4}-\d{2}\.$/)).toBeVisible();
  await month.getByRole('button', { name: 'Emitir agora' }).click();
  await expect(month.getByText('1 nota(s) do mês na fila ou emitida(s).')).toBeVisible();
  const table = month.getByRole('table', { name: /^NFS-e do mês \d{4}-\d{2}$/ });
  const row = table.getByRole('row', { name: new RegExp(onTime.event.nome_evento) });
  await expect(row).toContainText('Autorizada', { timeout: 20_000 });
  await expect(row.getByRole('cell').nth(1)).toHaveText('1');
  const monthPdf = await row.getByRole('link', { name: /^NFS-e \d+$/ }).getAttribute('href');
  expect(monthPdf).toMatch(/^\/api\/notas\/\d+\/[\w-]+\/nfse\.pdf$/);
  await expectNoSeriousAxe(staff);
  await staffContext.close();

  // The runner's registration links the month's nota.
  const runnerContext = await shopContext(browser, current);
  const runner = await runnerContext.newPage();
  await signIn(runner, await signInAgain(current.url, playwright, onTime.shopper));
  await expect(await registrationNfseLink(runner)).toHaveAttribute('href', monthPdf!);
  await runnerContext.close();
});
