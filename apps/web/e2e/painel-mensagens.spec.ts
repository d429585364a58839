import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { STAFF, signInStaff } from './fixtures.ts';

test('the team previews every message: the HTML part in a sandboxed frame with the QR ticket, and the text part', async ({
  page,
}) => {
  await signInStaff(page, STAFF.admin, '/painel');
  await page.getByRole('navigation', { name: 'Painel' }).getByRole('link', { name: 'Mensagens' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Mensagens' })).toBeVisible();

  await page
    .getByRole('combobox', { name: 'Mensagem' })
    .selectOption({ label: 'Inscrição confirmada (com o QR da retirada do kit)' });
  const participant = page.getByRole('article', { name: /Inscrição confirmada .*: mensagem 1 de 2/ });
  await expect(participant.getByLabel(/^Versão em texto/)).toContainText('Sua inscrição está confirmada.');
  await expect(participant.getByLabel(/^Versão em texto/)).toContainText('Valor: R$\u00a0109,90');
  const frame = participant.frameLocator('iframe[title^="Prévia em HTML"]');
  await expect(frame.locator('p', { hasText: 'Sua inscrição está confirmada.' })).toBeVisible();
  await expect(frame.getByRole('img', { name: 'QR code da inscrição nº 3021' })).toBeVisible();
  await expect(participant.locator('iframe')).toHaveAttribute('sandbox', '');

  await page.getByRole('combobox', { name: 'Mensagem' }).selectOption({ label: 'Pedido enviado' });
  await expect(page.getByRole('article').getByLabel(/^Versão em texto/)).toContainText('AA123456785BR');

  // The messages' frames are sandboxed without scripts: axe's per-frame run cannot enter them and would
  // wait forever. Legacy mode checks the back office's own page and leaves the frames (the e-mails) out.
  const axe = await new AxeBuilder({ page }).setLegacyMode().analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
});

test('a role without the team permission does not see the previews', async ({ page }) => {
  await signInStaff(page, STAFF.operator, '/painel/mensagens');
  await expect(page.getByRole('alert')).toHaveText('Seu perfil não tem acesso a esta página.');
});
