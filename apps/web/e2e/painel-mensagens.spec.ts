import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousAxe, STAFF, signInStaff } from './fixtures.ts';

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

test('the team records that a person asked by phone to stop WhatsApp, and sees the number listed', async ({
  page,
}) => {
  await signInStaff(page, STAFF.admin, '/painel/mensagens');
  const section = page.getByRole('region', { name: 'Quem não recebe mais WhatsApp' });
  await section.getByLabel('Número do WhatsApp').fill('(88) 97777-3104');
  await section.getByLabel('Como a pessoa pediu').fill('Ligou para a loja pedindo para parar');
  await section.getByRole('button', { name: 'Registrar pedido' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'O número 5588977773104 não recebe mais mensagens pelo WhatsApp.',
  );
  const row = section
    .getByRole('table', { name: /Números que não recebem mais WhatsApp/ })
    .getByRole('row', { name: /5588977773104/ });
  await expect(row).toContainText('Ligou para a loja pedindo para parar');
  await expect(row).toContainText(STAFF.admin.email);
  // A number that is not one is refused with the reason, nothing listed.
  await section.getByLabel('Número do WhatsApp').fill('12345');
  await section.getByLabel('Como a pessoa pediu').fill('Por e-mail');
  await section.getByRole('button', { name: 'Registrar pedido' }).click();
  await expect(section.getByRole('alert')).toContainText('Digite um telefone válido com DDD.');
});

test('a role without the team permission does not see the previews', async ({ page }) => {
  await signInStaff(page, STAFF.operator, '/painel/mensagens');
  await expect(page.getByRole('alert')).toHaveText('Seu perfil não tem acesso a esta página.');
});

test('the team sends the logo the e-mails show, sees it at once, and goes back to the default', async ({
  page,
}) => {
  await signInStaff(page, STAFF.admin, '/painel/mensagens');
  const section = page.getByRole('region', { name: 'Logo dos e-mails' });
  await expect(section.getByRole('img', { name: 'Logo padrão dos e-mails' })).toBeVisible();
  await section.getByLabel('Enviar novo logo').setInputFiles({
    name: 'marca.png',
    mimeType: 'image/png',
    buffer: await sharp({ create: { width: 600, height: 600, channels: 3, background: '#c2410c' } })
      .png()
      .toBuffer(),
  });
  await expect(section.getByRole('status')).toHaveText('Logo dos e-mails salvo.');
  const logo = section.getByRole('img', { name: 'Logo atual dos e-mails' });
  await expect(logo).toBeVisible();
  // What the e-mails load: the 128 px square the server made, not the file sent.
  await expect
    .poll(() => logo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBe(128);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(section.getByRole('button', { name: 'Voltar ao logo padrão' })).toBeVisible();
  await expectNoSeriousAxe(page, 'section[aria-labelledby="logo-emails"]');
  await section.getByRole('button', { name: 'Voltar ao logo padrão' }).click();
  await expect(section.getByRole('status')).toHaveText('Os e-mails voltaram ao logo padrão.');
  await expect(section.getByRole('img', { name: 'Logo padrão dos e-mails' })).toBeVisible();
});
