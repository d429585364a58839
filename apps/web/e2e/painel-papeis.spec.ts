import AxeBuilder from '@axe-core/playwright';
import type { Event } from '@passada/core/contracts/events';
import { expect, type Page, test } from '@playwright/test';
import { createShopper, STAFF, signInStaff } from './fixtures.ts';

async function noSeriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

test('a check-in volunteer sees only the check-in of their one event', async ({ page, request }) => {
  const events = (await (await request.get('/api/events/')).json()) as Event[];
  const mine = events.find((e) => e.nome_evento === 'Corrida do Sol Nascente')!;
  const other = events.find((e) => e.id !== mine.id)!;

  await signInStaff(page, STAFF.volunteer, '/painel');
  await expect(page.getByRole('heading', { level: 1, name: 'Check-in: retirada de kits' })).toBeVisible();
  // The menu holds the check-in and nothing else.
  await expect(page.getByRole('navigation', { name: 'Painel' }).getByRole('link')).toHaveText(['Check-in']);
  await expect(page.getByRole('link', { name: /^Abrir o check-in de/ })).toHaveText([mine.nome_evento]);
  await page.getByRole('link', { name: `Abrir o check-in de ${mine.nome_evento}` }).click();
  await expect(page.getByText(`Evento: ${mine.nome_evento}`)).toBeVisible();

  // Another event's desk, typed in the address bar, is refused; so is any other page.
  await page.goto(`/painel/checkin/${other.id}`);
  await expect(page.getByRole('alert')).toHaveText(/Você não está designado para o check-in deste evento\./);
  await page.goto('/painel/pedidos');
  await expect(page.getByRole('alert')).toHaveText('Seu perfil não tem acesso a esta página.');
});

test('the staff page, the audit log and the customer screen pass axe', async ({ page, request }) => {
  const shopper = await createShopper(request, 'notas');
  await signInStaff(page, STAFF.admin, '/painel/equipe');
  await expect(page.getByRole('heading', { level: 1, name: 'Equipe' })).toBeVisible();
  await page.getByLabel('Perfil', { exact: true }).selectOption('checkin');
  await expect(page.getByRole('group', { name: 'Eventos do check-in', exact: true })).toBeVisible();
  await noSeriousViolations(page);
  await page.getByRole('link', { name: 'Registro de alterações' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Registro de alterações/ })).toBeVisible();
  await noSeriousViolations(page);
  await page.getByRole('link', { name: 'Clientes' }).click();
  await page.getByLabel('Nome, e-mail ou CPF').fill('.com');
  await page.getByRole('button', { name: 'Buscar' }).click();
  const results = page.getByRole('table', { name: 'Clientes encontrados' });
  await expect(results).toBeVisible();
  await expect(results).not.toContainText('Carregando');
  await noSeriousViolations(page);

  // Notes and tags on a customer (decision 0080): written, found by the tag, removed.
  await page.getByLabel('Nome, e-mail ou CPF').fill(shopper.email);
  await page.getByRole('button', { name: 'Buscar' }).click();
  // The previous search's rows stay while the new one loads: wait for this person's row alone.
  const found = results.getByRole('row', { name: new RegExp(shopper.email) });
  await expect(results.getByRole('rowheader')).toHaveCount(1);
  await found.getByRole('button', { name: shopper.full_name }).click();
  const card = page.getByRole('region', { name: `Cliente ${shopper.full_name}` });
  await card.getByLabel('Nova etiqueta').fill('Assessoria Sol');
  await card.getByRole('button', { name: 'Dar etiqueta' }).click();
  await expect(card.getByRole('list', { name: `Etiquetas de ${shopper.full_name}` })).toHaveText(
    /assessoria sol/,
  );
  await card.getByLabel('Nova nota').fill('Prefere retirar o kit na loja.');
  await card.getByRole('button', { name: 'Salvar nota' }).click();
  await expect(card.getByRole('list', { name: `Notas sobre ${shopper.full_name}` })).toContainText(
    'Prefere retirar o kit na loja.',
  );
  await expect(card.getByText('A pessoa recebe estas notas se pedir os seus dados (LGPD).')).toBeVisible();
  await noSeriousViolations(page);
  await page.getByLabel('Nome, e-mail ou CPF').fill('');
  await page.getByLabel('Etiqueta', { exact: true }).selectOption('assessoria sol');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(results.getByRole('rowheader')).toHaveText([shopper.full_name]);
  await found.getByRole('button', { name: shopper.full_name }).click();
  await card.getByRole('button', { name: 'Tirar a etiqueta assessoria sol' }).click();
  await expect(card.getByText('Nenhuma etiqueta.')).toBeVisible();
  await card.getByRole('button', { name: /^Apagar a nota de / }).click();
  await expect(card.getByText('Nenhuma nota.')).toBeVisible();
});
