import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { STAFF, signInStaff } from './fixtures.ts';

/** A new operator made by the demo admin through the API, so each test changes only its own account. */
async function newOperator(request: APIRequestContext, tag: string) {
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  expect(login.ok()).toBe(true);
  const headers = { authorization: `Token ${(await login.json()).token}` };
  const who = {
    email: `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@passada.com.br`,
    password: `senha-inicial-${Math.random().toString(36).slice(2, 9)}`,
    name: `Operadora ${tag}`,
  };
  const created = await request.post('/api/painel/staff/', {
    headers,
    data: { email: who.email, name: who.name, role: 'operador', password: who.password },
  });
  expect(created.status()).toBe(201);
  return who;
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/painel\/login/);
}

test('a staff member changes their own password and signs in with the new one', async ({ page, request }) => {
  const me = await newOperator(request, 'troca');
  await signInStaff(page, me, '/painel/seguranca');
  await expect(page.getByRole('heading', { level: 1, name: 'Segurança' })).toBeVisible();

  await page.getByLabel('Senha atual').fill('nao-e-a-minha-123');
  await page.getByLabel('Nova senha', { exact: true }).fill('minha-senha-nova-2026');
  await page.getByLabel('Repita a nova senha').fill('minha-senha-nova-2026');
  await page.getByRole('button', { name: 'Trocar senha' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Senha atual incorreta.' }).first()).toBeVisible();

  await page.getByLabel('Senha atual').fill(me.password);
  await page.getByRole('button', { name: 'Trocar senha' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Senha trocada.' })).toBeVisible();

  await signOut(page);
  await page.getByLabel('E-mail').fill(me.email);
  await page.getByLabel('Senha').fill(me.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toHaveText('E-mail ou senha incorretos.');
  await page.getByLabel('Senha').fill('minha-senha-nova-2026');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();
});

test('turning on two-step sign-in shows recovery codes, and one signs in without the phone', async ({
  page,
  request,
}) => {
  const me = await newOperator(request, 'recupera');
  await signInStaff(page, me, '/painel/seguranca');
  await page.getByRole('button', { name: 'Ativar com aplicativo autenticador' }).click();
  await expect(page.getByRole('img', { name: 'QR code para o aplicativo autenticador' })).toBeVisible();
  const secret = (await page.locator('code').first().textContent())?.trim() ?? '';
  const code = TOTP.generate({ secret: Secret.fromBase32(secret) });
  await page.getByLabel('Código de 6 dígitos').fill(code);
  await page.getByRole('button', { name: 'Confirmar e ativar' }).click();

  const list = page.getByRole('list', { name: 'Códigos de recuperação' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByRole('button', { name: 'Copiar códigos' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Imprimir códigos' })).toBeVisible();
  const recovery = (await list.getByRole('listitem').first().textContent())?.trim() ?? '';
  expect(recovery).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await page.getByRole('button', { name: 'Já guardei os códigos' }).click();
  await expect(list).toBeHidden();

  await signOut(page);
  await page.getByLabel('E-mail').fill(me.email);
  await page.getByLabel('Senha').fill(me.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByLabel('Código do aplicativo autenticador')).toBeVisible();
  await page.getByRole('button', { name: 'Usar código de recuperação' }).click();
  await page.getByLabel('Código de recuperação').fill(recovery);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();

  await page.getByRole('link', { name: 'Segurança' }).click();
  await expect(page.getByText('Verificação em duas etapas:')).toContainText(
    'ativa · códigos de recuperação restantes: 9',
  );
});

test('an admin sets a new password for someone on the staff screen', async ({ page, request }) => {
  const member = await newOperator(request, 'redefine');
  await signInStaff(page, STAFF.admin, '/painel/equipe');
  await page.getByRole('button', { name: `Redefinir senha de ${member.name}` }).click();
  await page.getByLabel(`Nova senha de ${member.name}`).fill('definida-pela-admin-77');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Nova senha definida para ${member.name}` }),
  ).toBeVisible();

  const old = await request.post('/api/painel/auth/login/', {
    data: { email: member.email, password: member.password },
  });
  expect(old.status()).toBe(401);
  const fresh = await request.post('/api/painel/auth/login/', {
    data: { email: member.email, password: 'definida-pela-admin-77' },
  });
  expect(fresh.status()).toBe(200);
});
