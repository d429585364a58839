import { expect, type Page, test } from '@playwright/test';

async function openEvent(page: Page, name: string) {
  await page.goto('/eventos');
  await page.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

test('the event list pages to page 2 and back', async ({ page }) => {
  await page.goto('/eventos');
  const nav = page.getByRole('navigation', { name: 'Paginação dos eventos' });
  await expect(nav.getByText('Página 1 de 2')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Corrida do Sol Nascente' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(9);
  // Each card says where registration stands, and while it is open what a place starts at.
  const cards = page.getByRole('main').getByRole('listitem');
  const sun = cards.filter({ hasText: 'Corrida do Sol Nascente' });
  await expect(sun).toContainText('Inscrições encerradas');
  await expect(sun).not.toContainText('a partir de');
  const open = cards.filter({ hasText: /Inscrições abertas até \d{2}\/\d{2}\/\d{4}/ });
  await expect(open.first()).toContainText(/a partir de R\$\s\d+,\d{2}/);
  await expect(nav.getByRole('button', { name: 'Anterior' })).toBeDisabled();

  await nav.getByRole('button', { name: 'Próxima' }).click();
  await expect(nav.getByText('Página 2 de 2')).toBeVisible();
  await expect(page).toHaveURL(/\/eventos\?page=2$/);
  await expect(page.getByRole('heading', { name: 'Maratona Internacional de Fortaleza' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Corrida do Sol Nascente' })).toHaveCount(0);
  await expect(nav.getByRole('button', { name: 'Próxima' })).toBeDisabled();
  // Every card image declares its size, so the grid does not jump while posters load.
  for (const img of await page.getByRole('main').locator('img').all()) {
    await expect(img).toHaveAttribute('width', '800');
    await expect(img).toHaveAttribute('height', '500');
  }

  await nav.getByRole('button', { name: 'Anterior' }).click();
  await expect(nav.getByText('Página 1 de 2')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Corrida do Sol Nascente' })).toBeVisible();
});

test('choosing categories keeps one per day and shows the running total', async ({ page }) => {
  await openEvent(page, 'Desafio das Dunas');
  await expect(page.getByText('+ 1kg de alimento não perecível')).toBeVisible();
  await expect(page.getByText('Largada')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Regulamento' })).toHaveAttribute(
    'href',
    /^\/eventos\/regulamento\/\d+$/,
  );
  const confirm = page.getByRole('button', { name: 'Selecione uma categoria' });
  await expect(confirm).toBeDisabled();

  const fiveSaturday = page.getByRole('button', { name: /^5 km Via Costeira / });
  const tenSaturday = page.getByRole('button', { name: /^10 km Via Costeira / });
  const half = page.getByRole('button', { name: /^21 km / });
  await fiveSaturday.click();
  await expect(fiveSaturday).toHaveAttribute('aria-pressed', 'true');
  await tenSaturday.click();
  await expect(tenSaturday).toHaveAttribute('aria-pressed', 'true');
  await expect(fiveSaturday).toHaveAttribute('aria-pressed', 'false');
  await half.click();
  await expect(page.getByText('Total: R$ 259,80')).toBeVisible();
  expect(
    await page.evaluate(() => [localStorage.getItem('total'), localStorage.getItem('Nome_evento')]),
  ).toEqual(['259.8', 'Desafio das Dunas']);

  await half.click();
  await expect(half).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByText('Total: R$ 99,90')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirmar inscrição' })).toBeEnabled();

  await page.getByRole('link', { name: 'Regulamento' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Desafio das Dunas' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '4. IDOSOS (60+)' })).toBeVisible();
});

test('a closed event and a sold-out category cannot be picked', async ({ page }) => {
  await openEvent(page, 'Corrida do Sol Nascente');
  await expect(page.getByRole('status').filter({ hasText: 'Inscrições encerradas' })).toBeVisible();
  const categories = page.getByRole('button', { name: /km .*(R\$|Gratuita)/ });
  await expect(categories).toHaveCount(2);
  for (const button of await categories.all()) await expect(button).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Selecione uma categoria' })).toBeDisabled();

  await openEvent(page, 'Corrida Ponta do Seixas');
  const soldOut = page.getByRole('button', { name: /^10 km .*Esgotado$/ });
  await expect(soldOut).toBeDisabled();
  await expect(page.getByRole('button', { name: /^5 km R\$/ })).toBeEnabled();
});

test('confirming as a guest asks to sign in', async ({ page }) => {
  await openEvent(page, 'Corrida Ponta do Seixas');
  await page.getByRole('button', { name: /^5 km R\$/ }).click();
  await page.getByRole('button', { name: 'Confirmar inscrição' }).click();

  const who = page.getByRole('dialog', { name: 'Para quem é a inscrição?' });
  await who.getByRole('button', { name: 'Para outra pessoa' }).click();
  const alert = page.getByRole('alertdialog');
  await expect(alert).toHaveAccessibleName(
    'Você precisa possuir uma conta pra realizar inscrições para terceiros.',
  );
  await alert.getByRole('button', { name: 'OK' }).click();

  await page.getByRole('button', { name: 'Confirmar inscrição' }).click();
  await who.getByRole('button', { name: 'Para mim' }).click();
  await expect(alert).toHaveAccessibleName('Você precisa estar logado para se inscrever.');
  await alert.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Feventos%2Fregister%2F\d+$/);
});
