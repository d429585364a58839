import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousAxe, openEvent } from './fixtures.ts';

/** From the login a guest was sent to: "Crie uma conta", the account made, the login, and back. */
async function signUpFromLogin(page: Page, prefix: string) {
  const run = `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const loginUrl = new URL(page.url());
  const next = loginUrl.searchParams.get('next') ?? '';
  await page.getByRole('main').getByRole('link', { name: 'Crie uma conta' }).click();
  await expect(page).toHaveURL(`${loginUrl.origin}/criarconta?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Nome de usuário').fill(run);
  await page.getByLabel('Nome completo').fill('Rita Recém-Chegada');
  await page.getByLabel('E-mail').fill(`${run}@example.com`);
  await page.getByLabel('Senha').fill('uma senha de corrida longa');
  await page.getByRole('button', { name: 'Criar conta' }).click();
  const created = page.getByRole('dialog', { name: 'CONTA CRIADA COM SUCESSO!' });
  await expect(created).toBeVisible();
  await created.getByRole('button', { name: 'Fechar' }).click();
  await expect(page).toHaveURL(loginUrl.href);
  await page.getByLabel('Usuário ou e-mail').fill(run);
  await page.getByLabel('Senha').fill('uma senha de corrida longa');
  await page.getByRole('button', { name: 'Entrar' }).click();
}

test("the transfer link's login says why, and a new account made from it lands back on the link", async ({
  page,
}) => {
  const link = '/inscricoes/transferencia/um-link-do-email';
  await page.goto(link);
  const origin = new URL(page.url()).origin;
  await expect(page).toHaveURL(`${origin}/login?next=${encodeURIComponent(link)}`);
  await expect(page.getByText('Uma inscrição foi transferida para você.')).toBeVisible();
  await expectNoSeriousAxe(page);
  await signUpFromLogin(page, 'transfnova');
  await expect(page).toHaveURL(`${origin}${link}`);
});

test("the checkout's login guard keeps where the runner was going through a new account", async ({
  page,
  request,
}) => {
  const { event, categoryId } = await openEvent(request, 1);
  const finish = `/eventos/register/${event.id}/finalizar?paraMim=false&eventoId=${event.id}&categorias=${categoryId}`;
  await page.goto(finish);
  const origin = new URL(page.url()).origin;
  await expect(page).toHaveURL(`${origin}/login?next=${encodeURIComponent(finish)}`);
  await expect(page.getByText('As inscrições são feitas pela sua conta.')).toBeVisible();
  await signUpFromLogin(page, 'checknova');
  await expect(page).toHaveURL(`${origin}${finish}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
});
