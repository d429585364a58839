import { expect, test } from '@playwright/test';
import {
  confirmFreeRegistration,
  createFreeRace,
  createShopper,
  expectNoSeriousAxe,
  fillRaceFields,
  freshCpf,
  type Shopper,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

/**
 * A team's quota at an opening (docs/decisions/0076): the organiser reserves places for an assessoria
 * on the opening's page of the back office; a member who never joined the waiting room registers at once
 * with the team's code, a runner without it is told to wait for the turn, and the captain sees the reserve.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const EVENT_NAME = `Corrida da Cota ${run}`;
const TEAM = `Assessoria Cota ${run}`;
const CATEGORY = '10 km Cota';
let eventId = 0;
let categoryId = 0;
let captain: Shopper;
let code = '';

test.beforeAll(async ({ request }) => {
  ({ eventId, categoryId } = await createFreeRace(request, {
    name: EVENT_NAME,
    organizer: 'Liga das Assessorias',
    city: 'Fortaleza',
    state: 'CE',
    category: CATEGORY,
    about: 'Corrida com sala de espera e vagas das assessorias.',
  }));
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const staff = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  // The waiting room opened a minute ago: nobody joined it, so nobody has a turn.
  const opening = await request.put(`/api/painel/events/${eventId}/abertura/`, {
    headers: staff,
    data: {
      modo: 'fila',
      abre_em: new Date(Date.now() - 60_000).toISOString(),
      pre_fila_minutos: 30,
      admitidos_por_minuto: 1,
      minutos_da_vez: 10,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 1,
    },
  });
  expect(opening.status(), await opening.text()).toBe(200);
  captain = await createShopper(request, 'capcota');
  const team = await request.post('/api/equipes/', {
    headers: { authorization: `Token ${captain.token}` },
    data: { nome: TEAM, evento: eventId },
  });
  expect(team.status()).toBe(201);
  code = ((await team.json()) as { codigo: string }).codigo;
});

const finishPath = () =>
  `/eventos/register/${eventId}/finalizar?paraMim=true&eventoId=${eventId}&categorias=${categoryId}`;

test('the organiser reserves two places of the distance for the team by its code', async ({ page }) => {
  const path = `/painel/eventos/${eventId}/abertura`;
  await signInStaff(page, STAFF.admin, path);
  const region = page.getByRole('region', { name: 'Vagas reservadas para equipes' });
  await expect(region.getByText('Nenhuma vaga reservada.')).toBeVisible();
  await region.getByLabel('Código da equipe').fill(code.toLowerCase());
  await region.getByLabel('Distância reservada').selectOption({ label: CATEGORY });
  await region.getByLabel('Vagas reservadas').fill('2');
  await region.getByRole('button', { name: 'Reservar vagas' }).click();
  await expect(region.getByText('Vagas reservadas para a equipe.')).toBeVisible();
  await expect(region.getByRole('rowheader', { name: `${TEAM} (${code})` })).toBeVisible();
  await expect(region.getByRole('cell', { name: 'Valendo: 2 vagas livres' })).toBeVisible();
  await expectNoSeriousAxe(page, 'main');
});

test('a member registers at once with the code; a runner without it waits for the turn', async ({
  page,
  browser,
  request,
}) => {
  const member = await createShopper(request, 'membrocota');
  await signIn(page, member.token);
  // Straight to the form, as from a link the captain sent: the member never joined the line.
  await page.goto(finishPath());
  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
  await expect(page.getByText(/com o código de uma equipe que tenha vagas reservadas/)).toBeVisible();
  await page.getByLabel('Código da equipe (opcional)').fill(code);
  await expect(page.getByText(`Equipe: ${TEAM}.`, { exact: false })).toBeVisible();
  await confirmFreeRegistration(page, eventId, { birth: '1991-03-02', gender: 'Feminino' });

  const other = await browser.newContext();
  try {
    const stranger = await createShopper(request, 'semcota');
    const strangerPage = await other.newPage();
    await signIn(strangerPage, stranger.token);
    await strangerPage.goto(finishPath());
    await expect(strangerPage.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
    await strangerPage.getByLabel('CPF', { exact: true }).fill(freshCpf());
    await strangerPage.getByLabel('Data de nascimento').fill('1990-01-01');
    await strangerPage.getByLabel('Masculino').check();
    await fillRaceFields(strangerPage, 'M');
    await strangerPage.getByRole('button', { name: 'Confirmar inscrição' }).click();
    await expect(
      strangerPage.getByText('Aguarde sua vez na fila para se inscrever neste evento.'),
    ).toBeVisible();
  } finally {
    await other.close();
  }
});

test('the captain sees the reserve and what the members used', async ({ page }) => {
  await signIn(page, captain.token);
  await page.goto('/user/equipes');
  const card = page.getByRole('listitem', { name: TEAM });
  const reserve = card.getByRole('region', { name: 'Vagas reservadas pela organização' });
  await expect(reserve).toContainText(`${EVENT_NAME}, ${CATEGORY}: 2 vagas reservadas, 1 usada.`);
  await expect(reserve).toContainText(`código ${code}`);
});
