import { expect, test } from '@playwright/test';

test('the shop opens', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Início' })).toBeVisible();
});
