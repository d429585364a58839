import { expect, type Page, test } from '@playwright/test';
import {
  confirmFreeRegistration,
  createFreeRace,
  createShopper,
  expectNoSeriousAxe,
  openFreeRegistrationForMe,
  type Shopper,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

/**
 * Start waves (docs/decisions/0066) in the browser: the organiser sets a category's waves on the back
 * office's page, gives one to a runner registered before they existed, and a runner who states a fast
 * time at registration gets the first wave on the ticket.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const EVENT_NAME = `Corrida das Ondas ${run}`;
const RACE = '10 km Ondas';
let eventId = 0;
let early: Shopper;
let fast: Shopper;

test.beforeAll(async ({ request }) => {
  ({ eventId } = await createFreeRace(request, {
    name: EVENT_NAME,
    organizer: 'Liga das Ondas',
    city: 'Natal',
    state: 'RN',
    category: RACE,
    about: 'Corrida com largada por ondas.',
  }));
  early = await createShopper(request, 'onda_cedo');
  fast = await createShopper(request, 'onda_rapida');
});

/** A free registration for oneself from the event page; `time` is the estimate, when the form asks one. */
async function registerFree(page: Page, who: Shopper, time?: string): Promise<string> {
  await signIn(page, who.token);
  await page.goto(`/eventos/register/${eventId}`);
  await openFreeRegistrationForMe(page, RACE);
  const estimate = page.getByLabel(`Tempo estimado nos ${RACE} (h:mm)`);
  if (time) await estimate.fill(time);
  else await expect(estimate).toHaveCount(0);
  return confirmFreeRegistration(page, eventId, { birth: '1990-08-09', gender: 'Feminino' });
}

test('a runner registers before the race has waves: no estimate asked', async ({ page }) => {
  await registerFree(page, early);
});

test('the organiser sets two waves and gives the last one to the runner who had none', async ({ page }) => {
  await signInStaff(page, STAFF.admin, '/painel/eventos');
  await page.getByRole('link', { name: `Ondas de largada de ${EVENT_NAME}` }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: `Ondas de largada: ${EVENT_NAME}` }),
  ).toBeVisible();
  const form = page.getByRole('form', { name: `Ondas de ${RACE}` });
  await expect(form.getByText('Largada única (sem ondas).')).toBeVisible();
  await form.getByRole('button', { name: `Adicionar onda em ${RACE}` }).click();
  await form.getByRole('button', { name: `Adicionar onda em ${RACE}` }).click();
  await form.getByLabel('Nome da onda 1').fill('Elite');
  await form.getByLabel('Tempo estimado até (h:mm), onda 1').fill('0:45');
  await form.getByLabel('Vagas (opcional), onda 1').fill('5');
  await form.getByLabel('Nome da onda 2').fill('Geral');
  // The last wave takes the rest: no bound, no cap.
  await expect(form.getByLabel('Tempo estimado até (h:mm), onda 2')).toBeDisabled();
  await form.getByRole('button', { name: `Salvar ondas de ${RACE}` }).click();
  await expect(form.getByText('Ondas salvas.')).toBeVisible();

  await form.getByRole('button', { name: `Dar onda a quem ainda não tem em ${RACE}` }).click();
  await expect(form.getByText('1 inscrito recebeu onda.')).toBeVisible();
  const waves = form.getByRole('listitem');
  await expect(waves.nth(0)).toContainText('0 inscritos');
  await expect(waves.nth(1)).toContainText('1 inscrito');
  // A wave holding runners cannot be removed; an empty one can.
  await expect(form.getByRole('button', { name: 'Remover a onda 2' })).toHaveCount(0);
  await expect(form.getByRole('button', { name: 'Remover a onda 1' })).toBeVisible();
  await expectNoSeriousAxe(page);
});

test('a runner who states a fast time gets the first wave on the ticket', async ({ page }) => {
  const cpf = await registerFree(page, fast, '0:40');
  await page.getByLabel('CPF do participante').fill(cpf);
  await page.getByRole('button', { name: 'Buscar Inscrição' }).click();
  const found = page.getByRole('region', { name: 'Inscrição encontrada' });
  await expect(found.getByText(`${RACE} (largada: Elite)`)).toBeVisible();
});
