import { expect, test } from '@playwright/test';
import {
  createFreeRace,
  createShopper,
  expectNoSeriousAxe,
  fillMember,
  type Shopper,
  signIn,
} from './fixtures.ts';

/**
 * A team that pays a share of each place (docs/decisions/0079): the captain pays 60 % of 2 places by Pix
 * in "Minhas equipes"; a member opens the link, sees their part, fills in their own data and pays the
 * other 40 % by Pix; the captain sees the place used.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const EVENT_NAME = `Corrida da Parte ${run}`;
const TEAM = `Equipe Parceira ${run}`;
const CATEGORY = '10 km Parte';
let captain: Shopper;
let member: Shopper;
let link = '';

test.beforeAll(async ({ request }) => {
  const { eventId } = await createFreeRace(request, {
    name: EVENT_NAME,
    organizer: 'Liga das Empresas',
    city: 'Fortaleza',
    state: 'CE',
    category: CATEGORY,
    about: 'Corrida de quem a empresa ajuda a correr.',
    price: 100,
  });
  captain = await createShopper(request, 'cappart');
  member = await createShopper(request, 'membropart');
  const made = await request.post('/api/equipes/', {
    headers: { authorization: `Token ${captain.token}` },
    data: { nome: TEAM, evento: eventId },
  });
  expect(made.status()).toBe(201);
});

test('the captain pays 60 % of 2 places; the page says what each member pays', async ({ page }) => {
  await signIn(page, captain.token);
  await page.goto('/user/equipes');
  const card = page.getByRole('listitem', { name: TEAM });
  const form = card.getByRole('form', { name: `Comprar vagas para a equipe ${TEAM}` });
  await form.getByLabel('Distância').selectOption({ label: `${CATEGORY} — R$ 100,00 por vaga` });
  await form.getByLabel('Quantidade de vagas').fill('2');
  await form.getByLabel('Parte de cada vaga paga pela equipe (%)').fill('0');
  await form.getByRole('button', { name: 'Pagar com Pix' }).click();
  await expect(form.getByText('A parte paga pela equipe vai de 1% a 100%.')).toBeVisible();
  await form.getByLabel('Parte de cada vaga paga pela equipe (%)').fill('60');
  await expect(form.getByText('Total: R$ 120,00 · cada membro paga R$ 40,00 ao usar a vaga')).toBeVisible();
  await form.getByRole('button', { name: 'Pagar com Pix' }).click();
  await expect(form.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await form.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Vagas pagas!' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Fechar' }).click();

  await expect(card).toContainText('0 usadas · 2 restantes · R$ 60,00 cada');
  await expect(card).toContainText(
    'A equipe pagou 60% de cada vaga: cada membro paga R$ 40,00 ao usar a sua.',
  );
  const shown = (await card.getByText(/\/equipes\/vagas\/[A-Za-z0-9_-]{22}$/).textContent()) ?? '';
  link = new URL(shown).pathname;
});

test('a member pays their 40 % by Pix and is registered', async ({ page }) => {
  await signIn(page, member.token);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: `Vaga da equipe ${TEAM}` })).toBeVisible();
  await expect(page.getByText('A equipe pagou 60% da inscrição: a sua parte é R$ 40,00')).toBeVisible();
  // No confirmation without paying: the payment is the confirmation.
  await expect(page.getByRole('button', { name: 'Confirmar minha inscrição' })).toHaveCount(0);
  const pay = page.getByRole('region', { name: 'Pagar a minha parte: R$ 40,00' });
  // The form is checked before any Pix exists.
  await pay.getByRole('button', { name: 'Pix' }).click();
  await expect(page.getByText('Informe uma data de nascimento válida.').first()).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR Code Pix' })).toHaveCount(0);
  await fillMember(page, '1991-04-20');
  await expectNoSeriousAxe(page);
  await pay.getByRole('button', { name: 'Pix' }).click();
  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  // What the Pix is for is locked while it is open.
  await expect(page.getByLabel('Data de nascimento')).toBeDisabled();
  await expectNoSeriousAxe(page, 'section[aria-label="Pagamento com Pix"]');
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Inscrição confirmada!' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Fechar' }).click();
  await expect(page).toHaveURL(/\/user\/inscricoes$/);
  await expect(page.getByText(EVENT_NAME).first()).toBeVisible();
});

test('the captain sees the place used by the member', async ({ page }) => {
  await signIn(page, captain.token);
  await page.goto('/user/equipes');
  const card = page.getByRole('listitem', { name: TEAM });
  await expect(card).toContainText('1 usada · 1 restante');
  await expect(
    card
      .getByRole('table', { name: `Membros da equipe ${TEAM}` })
      .getByRole('cell', { name: member.full_name }),
  ).toBeVisible();
});
