import type { Event } from '@passada/core/contracts/events';
import { ageGroup } from '@passada/core/events';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousAxe, fillRaceFields, openEvent, slowCpu } from './fixtures.ts';

const run = Date.now().toString(36);
const account = {
  username: `inscrita_${run}`,
  full_name: 'Beatriz Corredora',
  email: `beatriz_${run}@example.com`,
  password: 'uma senha de corrida longa',
};
// Two valid CPFs (check digits): the account holder and the friend she registers.
const OWN_CPF = '403.644.788-29';
const FRIEND_CPF = '52998224725';

test.describe.configure({ mode: 'serial' });

let token = '';
let event: Event;
let categoryId = 0;

test.beforeAll(async ({ request }) => {
  const signUp = await request.post('/api/users/', { data: account });
  expect(signUp.status()).toBe(201);
  const login = await request.post('/api/token-auth/', {
    data: { username: account.username, password: account.password },
  });
  token = ((await login.json()) as { token: string }).token;
  const address = await request.post('/api/users/addresses/', {
    headers: { authorization: `Token ${token}` },
    data: {
      full_name: account.full_name,
      zip_code: '60165-121',
      state: 'CE',
      city: 'Fortaleza',
      neighborhood: 'Meireles',
      street: 'Av. Beira Mar',
      number: '100',
      phone: '(85) 98888-7777',
      is_primary: true,
    },
  });
  expect(address.status()).toBe(201);
  ({ event, categoryId } = await openEvent(request));
});

async function signedIn(page: Page) {
  await page.goto('/');
  await page.evaluate((t) => localStorage.setItem('token', t), token);
}

const finishUrl = (paraMim: boolean) =>
  `/eventos/register/${event.id}/finalizar?paraMim=${paraMim}&eventoId=${event.id}&categorias=${categoryId}`;

test("for oneself, the account's data look and behave read-only; the rest stays editable", async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(finishUrl(true));
  await expect(page.getByLabel('Telefone de contato')).toHaveValue('(85) 98888-7777');
  const locked = {
    'Nome completo': account.full_name,
    'E-mail': account.email,
    'Endereço (rua e número)': 'Av. Beira Mar, 100',
    Bairro: 'Meireles',
    Cidade: 'Fortaleza',
    Estado: 'CE',
    CEP: '60165-121',
    'Telefone de contato': '(85) 98888-7777',
  };
  for (const [label, value] of Object.entries(locked)) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveValue(value);
    await expect(field).not.toBeEditable();
    // Drawn like the other read-only fields: dashed border on grey.
    await expect(field).toHaveCSS('border-top-style', 'dashed');
    // Keys change nothing.
    await field.focus();
    await field.press('End');
    await field.press('Backspace');
    await field.press('9');
    await expect(field).toHaveValue(value);
  }
  // The state is no select one could change, only its read-only value.
  await expect(page.getByRole('combobox', { name: 'Estado' })).toHaveCount(0);
  await expect(
    page.getByText('Os campos em cinza vêm da sua conta e do seu endereço principal'),
  ).toBeVisible();
  for (const label of ['CPF', 'Data de nascimento']) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toBeEditable();
    await expect(field).not.toHaveCSS('border-top-style', 'dashed');
  }
});

test('registers oneself with Pix, then finds the registration by CPF', async ({ page }) => {
  await signedIn(page);
  await page.goto(finishUrl(true));
  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();

  // Prefilled from the profile and the primary address, and read-only.
  const name = page.getByLabel('Nome completo');
  await expect(name).toHaveValue(account.full_name);
  await expect(name).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('E-mail')).toHaveValue(account.email);
  await expect(page.getByLabel('Endereço (rua e número)')).toHaveValue('Av. Beira Mar, 100');
  await expect(page.getByLabel('Telefone de contato')).toHaveValue('(85) 98888-7777');
  const category = event.dias_evento.flatMap((d) => d.categorias).find((c) => c.id === categoryId)!;
  await expect(page.getByText(category.nome_categoria, { exact: false }).first()).toBeVisible();

  // Pix needs CPF, birth date and gender first.
  await page.getByRole('button', { name: 'Pix' }).click();
  const alert = page.getByRole('alertdialog', {
    name: 'DIGITE O SEU CPF, DATA DE NASCIMENTE E SELECIONE O SEU GÊNERO ANTES DE CONTINUAR!',
  });
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'OK' }).click();

  await page.getByLabel('CPF', { exact: true }).fill(OWN_CPF);
  await page.getByLabel('Data de nascimento').fill('1990-04-15');
  await page.getByLabel('Feminino').check();
  // A size that ran out is listed, and cannot be chosen.
  const soldOut = event.kit.tamanhos.find((k) => k.quantidade_disponivel === 0);
  if (soldOut)
    await expect(page.getByRole('option', { name: `${soldOut.tamanho} — Esgotado` })).toBeDisabled();
  await fillRaceFields(page, 'M');
  await page.getByRole('button', { name: 'Pix' }).click();

  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  // The same countdown as on the order review (the e2e server gives a Pix 60 s).
  await expect(pix.getByRole('timer')).toHaveText(/^Expira em 0[01]:\d\d$/);
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible();
  await page.getByRole('button', { name: 'Fechar' }).click();
  // docs/product.md §4: ten seconds later, the lookup page.
  await expect(page).toHaveURL(new RegExp(`/eventos/register/${event.id}/ja-me-inscrevi$`), {
    timeout: 15_000,
  });

  await expect(page.getByRole('heading', { level: 1, name: event.nome_evento })).toBeVisible();
  await page.getByRole('button', { name: 'Buscar Inscrição' }).click();
  const empty = page.getByRole('alertdialog', { name: 'Por favor, insira um CPF válido!' });
  await expect(empty).toBeVisible();
  await empty.getByRole('button', { name: 'OK' }).click();

  await page.getByLabel('CPF do participante').fill(OWN_CPF);
  await page.getByRole('button', { name: 'Buscar Inscrição' }).click();
  const found = page.getByRole('region', { name: 'Inscrição encontrada' });
  await expect(found.getByText(account.full_name)).toBeVisible();
  await expect(found.getByText(account.email)).toBeVisible();
  await expect(found.getByText(category.nome_categoria)).toBeVisible();
  await expect(found.getByText('Av. Beira Mar, 100 - Meireles, Fortaleza - CE, 60165-121')).toBeVisible();

  // A CPF this account did not register is not found. It replaces the earlier one whole, also on a slow
  // page (the field's mask once read a stale caret there and kept "403.644.788").
  const restoreCpu = await slowCpu(page, 4);
  await page.getByLabel('CPF do participante').fill('11144477735');
  await expect(page.getByLabel('CPF do participante')).toHaveValue('111.444.777-35');
  await restoreCpu();
  await page.getByRole('button', { name: 'Buscar Inscrição' }).click();
  const missing = page.getByRole('alertdialog', { name: 'Inscrição não encontrada!' });
  await expect(missing).toBeVisible();
  await missing.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Inscrição não encontrada para o CPF fornecido.')).toBeVisible();
});

test('registers another person with a card', async ({ page }) => {
  await signedIn(page);
  await page.goto(finishUrl(false));
  await expect(page.getByLabel('Nome completo')).toHaveValue('');
  await page.getByLabel('Nome completo').fill('Carlos Amigo');
  await page.getByLabel('CPF', { exact: true }).fill(FRIEND_CPF);
  await page.getByLabel('Data de nascimento').fill('1985-09-30');
  await page.getByLabel('Masculino').check();
  await page.getByLabel('Endereço (rua e número)').fill('Rua das Flores, 20');
  await page.getByLabel('Bairro').fill('Aldeota');
  await page.getByLabel('Cidade').fill('Fortaleza');
  await page.getByLabel('Estado').selectOption('CE');
  await page.getByLabel('CEP').fill('60150-160');
  await page.getByLabel('Telefone de contato').fill('(85) 97777-6666');
  await page.getByLabel('E-mail').fill(`carlos_${run}@example.com`);
  await page.getByLabel('Equipe ou assessoria (opcional)').fill('Corre Aldeota');
  await fillRaceFields(page, 'GG');
  await page.getByRole('button', { name: 'Cartão de crédito' }).click();

  const card = page.getByRole('form', { name: 'Pagamento com cartão' });
  await card.getByLabel('Número do cartão').fill('4111 1111 1111 1111');
  await card.getByLabel('Nome impresso no cartão').fill('Beatriz Corredora');
  await card.getByLabel('Mês').selectOption('12');
  const years = await card.getByLabel('Ano').locator('option').allTextContents();
  await card.getByLabel('Ano').selectOption(years.at(-1)!);
  await card.getByLabel('CVV').fill('123');
  await card.getByLabel('CPF do titular').fill(OWN_CPF);
  await card.getByLabel('Data de nascimento do titular').fill('05/12/1990');
  await expect(card.getByLabel('Parcelas').locator('option')).not.toHaveCount(1);
  await card.getByLabel('Parcelas').selectOption('1');
  await card.getByRole('button', { name: 'Pagar com cartão' }).click();

  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible();
  await page.getByRole('button', { name: 'Fechar' }).click();

  await page.goto(`/eventos/register/${event.id}/ja-me-inscrevi`);
  await page.getByLabel('CPF do participante').fill(FRIEND_CPF);
  await page.getByRole('button', { name: 'Buscar Inscrição' }).click();
  const found = page.getByRole('region', { name: 'Inscrição encontrada' });
  await expect(found.getByText('Carlos Amigo')).toBeVisible();
  await expect(found.getByText('(85) 97777-6666')).toBeVisible();
  await expect(found.getByText('GG', { exact: true })).toBeVisible();
  await expect(found.getByText(ageGroup('1985-09-30', event.start_data_evento))).toBeVisible();
  await expect(found.getByText('Corre Aldeota')).toBeVisible();

  // Paid on the event page, it is also in "Minha conta", ticket and actions included.
  await page.goto('/user/pedidos');
  await page
    .getByRole('navigation', { name: 'Minha conta' })
    .getByRole('link', { name: 'Inscrições' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Inscrições' })).toBeVisible();
  const mine = page.getByRole('region', { name: new RegExp(`^${event.nome_evento}`) }).filter({
    hasText: 'Carlos Amigo',
  });
  await expect(mine.getByRole('img', { name: /QR code da inscrição nº \d+/ })).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Cancelar inscrição' })).toBeVisible();
  await expectNoSeriousAxe(page);
});
