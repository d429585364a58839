import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

test('the privacy page, from the footer: the data kept, for how long, and the encarregado', async ({
  page,
}) => {
  await page.goto('/sobrenos');
  await page.getByRole('navigation', { name: 'Rodapé' }).getByRole('link', { name: 'Privacidade' }).click();
  await expect(page).toHaveURL(/\/privacidade$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacidade' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Dados pessoais guardados pela loja' });
  await expect(table.getByRole('row', { name: /Informação de pessoa com deficiência/ })).toContainText(
    '30 dias após o fim do evento',
  );
  await expect(page.getByRole('link', { name: 'privacidade@passada.com.br' })).toHaveAttribute(
    'href',
    'mailto:privacidade@passada.com.br',
  );
  // The server wrote the page's head, as for the other static pages.
  const html = await (await page.request.get('/privacidade')).text();
  expect(html).toContain('<title>Privacidade');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
});
