import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { outboxMails } from './fixtures.ts';

const run = Date.now().toString(36);
const user = {
  username: `ana_${run}`,
  fullName: 'Ana Teste',
  email: `ana_${run}@example.com`,
  password: 'uma senha de corrida',
};

/** The newest reset link mailed to `to`. */
function resetLinkFor(to: string): string | null {
  for (const text of outboxMails(to)) {
    const m = /https?:\/\/\S+\/login\/redefinir-senha\?token=[A-Za-z0-9_%-]+/.exec(text);
    if (m) return m[0];
  }
  return null;
}

async function logIn(page: Page, login: string, password: string) {
  await page.getByLabel('Usuário ou e-mail').fill(login);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Login realizado com sucesso!')).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test('sign up, log in, manage addresses with CEP autofill, log out', async ({ page }) => {
  const cartLine = {
    id: 1,
    name: 'Camiseta',
    price: 99.9,
    image: '/x.jpg',
    quantity: 2,
    size: 1,
    color: 1,
    product_size: 'M',
    product_color: 'Preto',
  };
  await page.goto('/criarconta');
  await page.evaluate((line) => localStorage.setItem('cart', JSON.stringify([line])), cartLine);

  await page.getByLabel('Nome de usuário').fill(user.username);
  await page.getByLabel('Nome completo').fill(user.fullName);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Senha').fill(user.password);
  await page.getByRole('button', { name: 'Criar conta' }).click();
  await expect(page.getByRole('dialog', { name: 'CONTA CRIADA COM SUCESSO!' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 8000 });

  await logIn(page, user.username, user.password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: `Bem-vindo, ${user.fullName}` })).toBeVisible();

  await page.goto('/enderecos');
  await page.getByRole('link', { name: 'Adicionar endereço' }).click();
  await expect(page).toHaveURL(/\/adicionar-endereco$/);
  await page.getByLabel('Nome completo').fill(user.fullName);
  await page.getByLabel('CEP').fill('60165-121');
  await expect(page.getByLabel('Estado')).toHaveValue('CE');
  await page.getByLabel('Cidade').fill('Fortaleza');
  await page.getByLabel('Bairro').fill('Meireles');
  await page.getByLabel('Rua', { exact: true }).fill('Av. Beira Mar');
  await page.getByLabel('Número').fill('100');
  await page.getByLabel('Telefone').fill('85999999999');
  await page.getByRole('button', { name: 'Salvar endereço' }).click();

  await expect(page).toHaveURL(/\/enderecos$/);
  const radio = page.getByRole('radio', { name: /Ana Teste \(principal\), Av\. Beira Mar, 100/ });
  await expect(radio).toBeChecked();
  await expect(page.getByText('Fortaleza - CE, CEP 60165-121 · (85) 99999-9999')).toBeVisible();

  await page.getByRole('link', { name: 'Editar Av. Beira Mar, 100' }).click();
  await expect(page.getByLabel('Cidade')).toHaveValue('Fortaleza');
  await page.getByLabel('CEP').fill('01310-100');
  await expect(page.getByLabel('Estado')).toHaveValue('SP');
  await page.getByLabel('Cidade').fill('São Paulo');
  await page.getByLabel('Bairro').fill('Bela Vista');
  await page.getByLabel('Rua', { exact: true }).fill('Av. Paulista');
  await page.getByLabel('Número').fill('1000');
  await page.getByRole('button', { name: 'Salvar endereço' }).click();
  await expect(page).toHaveURL(/\/enderecos$/);
  await expect(page.getByText('São Paulo - SP, CEP 01310-100')).toBeVisible();

  await page.getByRole('button', { name: 'Excluir Av. Paulista, 1000' }).click();
  await page
    .getByRole('alertdialog', { name: 'Excluir o endereço Av. Paulista, 1000?' })
    .getByRole('button', { name: 'Excluir' })
    .click();
  await expect(page.getByText('Você ainda não cadastrou nenhum endereço.')).toBeVisible();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(
    page.getByRole('alertdialog', { name: 'Por favor, escolha um endereço para entrega.' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();

  await page.getByRole('banner').getByRole('button', { name: 'Sair' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Entrar' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('cart'))) ?? 'null')).toEqual([cartLine]);

  // A guest sent to login from an account page comes back to it.
  await page.goto('/user/pessoal-data');
  await expect(page).toHaveURL(/\/login\?next=%2Fuser%2Fpessoal-data$/);
  await logIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/user\/pessoal-data$/);
  await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveValue(user.email);

  // LGPD: the person downloads what the shop holds about them.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Baixar meus dados' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe('passada-dados-pessoais.json');
  const data = JSON.parse(readFileSync((await file.path()) ?? '', 'utf8'));
  expect(data.perfil).toMatchObject({ username: user.username, email: user.email });
  expect(JSON.stringify(data)).not.toMatch(/argon2|password/i);

  // The reminders by WhatsApp too (decision 0084): an opt-in of its own, checked, and a way out.
  await page.goto(`/user/${user.username}`);
  const byWhatsApp = page.getByRole('form', { name: 'Lembrete também pelo WhatsApp' });
  const number = byWhatsApp.getByLabel('Quero o lembrete também pelo WhatsApp, neste número');
  await number.fill('123');
  await byWhatsApp.getByRole('button', { name: 'Receber pelo WhatsApp' }).click();
  await expect(byWhatsApp.getByText('Digite um telefone válido com DDD.')).toBeVisible();
  await number.fill('(85) 98123-4567');
  await byWhatsApp.getByRole('button', { name: 'Receber pelo WhatsApp' }).click();
  await expect(page.getByText(/^Também pelo WhatsApp, no número \(85\) 98123-4567\./)).toBeVisible();
  await page.getByRole('button', { name: 'Parar pelo WhatsApp' }).click();
  await expect(page.getByRole('button', { name: 'Receber pelo WhatsApp' })).toBeVisible();
  await page.goto('/user/pessoal-data');

  // A new e-mail asks for the current password.
  await page.getByRole('textbox', { name: 'E-mail' }).fill(`novo_${user.email}`);
  await page.getByRole('button', { name: 'Salvar dados' }).click();
  await expect(page.getByText('Informe sua senha atual para trocar o e-mail.')).toBeVisible();
  await page.getByLabel('Senha atual').first().fill(user.password);
  await page.getByRole('button', { name: 'Salvar dados' }).click();
  await expect(page.getByText('Dados atualizados com sucesso.')).toBeVisible();
  user.email = `novo_${user.email}`;
});

test('recover the password through the e-mailed link', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await expect(page).toHaveURL(/\/login\/recuperar-senha$/);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Se houver uma conta com este e-mail')).toBeVisible();

  // The link is mailed by a background job, shortly after the answer.
  await expect.poll(() => resetLinkFor(user.email), { timeout: 15_000 }).not.toBeNull();
  const link = resetLinkFor(user.email);
  await page.goto(link!);
  await page.getByLabel('Nova senha', { exact: true }).fill('outra senha de corrida');
  await page.getByLabel('Confirme a nova senha').fill('outra senha de corrida');
  await page.getByRole('button', { name: 'Redefinir senha' }).click();
  await expect(page.getByText('Senha redefinida com sucesso.')).toBeVisible();

  await page.getByRole('link', { name: 'Ir para o login' }).click();
  await page.getByLabel('Usuário ou e-mail').fill(user.username);
  await page.getByLabel('Senha').fill(user.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Credenciais inválidas')).toBeVisible();
  await page.getByLabel('Senha').fill('outra senha de corrida');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Login realizado com sucesso!')).toBeVisible();
});
