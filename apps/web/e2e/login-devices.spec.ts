import { expect, type Page, test } from '@playwright/test';
import { outboxMails } from './fixtures.ts';

// docs/decisions/0024-device-cookies-login.md: the browser, the stranger and the shop share one address
// here, as customers behind a carrier's NAT do. The stranger locks the account for untrusted browsers
// only (10 failures); filling the address's limit too would lock every later spec out of this server.
const run = Date.now().toString(36);
const owner = {
  username: `bia_${run}`,
  email: `bia_${run}@example.com`,
  full_name: 'Bia Corredora',
  password: 'passo firme na orla',
};

async function signIn(page: Page, password: string) {
  await page.goto('/login');
  await page.getByLabel('Usuário ou e-mail').fill(owner.email);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

function newestLink(): string | null {
  for (const text of outboxMails(owner.email)) {
    const m = /https?:\/\/\S+\/login\/acesso\?token=[A-Za-z0-9_%-]+/.exec(text);
    if (m) return m[0];
  }
  return null;
}

test('a browser that signed in before still signs in after a stranger’s failures; a new one gets a link', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const created = await page.request.post('/api/users/', { data: owner });
  expect(created.status()).toBe(201);

  // The owner's own browser signs in once and keeps its device cookie.
  await signIn(page, owner.password);
  await expect(page.getByText('Login realizado com sucesso!')).toBeVisible();
  await page.waitForURL('/');
  await page.evaluate(() => localStorage.clear());

  // A stranger on the same address fills the account's limit; even the right password is refused to them.
  const stranger = await playwright.request.newContext({ baseURL });
  for (let i = 0; i < 10; i++) {
    const res = await stranger.post('/api/token-auth/', {
      data: { username: owner.username, password: `chute ${i}` },
    });
    expect(res.status()).toBe(400);
  }
  const blocked = await stranger.post('/api/token-auth/', {
    data: { username: owner.username, password: 'mais um chute' },
  });
  expect(blocked.status()).toBe(429);
  await stranger.dispose();

  // The owner's browser: a typo is a typo, the right password gets in.
  await signIn(page, 'senha quase certa');
  await expect(page.getByRole('alert')).toHaveText('Credenciais inválidas');
  await signIn(page, owner.password);
  await expect(page.getByText('Login realizado com sucesso!')).toBeVisible();

  // A browser the account never used: blocked, told a link went to the e-mail if the password was right.
  const other = await browser.newContext();
  const fresh = await other.newPage();
  await signIn(fresh, owner.password);
  await expect(fresh.getByRole('alert')).toContainText(
    'Se a senha estiver correta, enviamos um link de acesso para o e-mail da conta.',
  );
  await expect.poll(newestLink, { timeout: 15_000 }).not.toBeNull();
  const link = newestLink() ?? '';
  await fresh.goto(link);
  await expect(fresh.getByRole('heading', { name: 'Entrar com o link de acesso' })).toBeVisible();
  await fresh.getByRole('button', { name: 'Entrar na minha conta' }).click();
  await expect(fresh.getByText('Login realizado com sucesso!')).toBeVisible();
  await fresh.waitForURL('/');

  // Spent: the same link again is refused; the browser it trusted signs in with the password.
  await fresh.evaluate(() => localStorage.clear());
  await fresh.goto(link);
  await fresh.getByRole('button', { name: 'Entrar na minha conta' }).click();
  await expect(fresh.getByRole('alert')).toContainText('Link de acesso inválido ou expirado');
  await signIn(fresh, owner.password);
  await expect(fresh.getByText('Login realizado com sucesso!')).toBeVisible();
  await other.close();
});
