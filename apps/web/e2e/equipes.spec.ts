import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
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
 * Teams (docs/decisions/0067-teams.md): a captain makes a team in "Minha conta", a runner opens the
 * invite link and registers with the code already filled and the team named, the captain sees the
 * member, closes the team, and staff see it in the back office.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const EVENT_NAME = `Corrida das Assessorias ${run}`;
const TEAM = `Assessoria Maré ${run}`;
let eventId = 0;
let captain: Shopper;
let runner: Shopper;
let categoryId = 0;
let invite = '';
let code = '';

test.beforeAll(async ({ request }) => {
  ({ eventId, categoryId } = await createFreeRace(request, {
    name: EVENT_NAME,
    organizer: 'Liga das Assessorias',
    city: 'Fortaleza',
    state: 'CE',
    category: '5 km Equipes',
    about: 'Corrida das equipes de corrida da cidade.',
  }));
  captain = await createShopper(request, 'capitao');
  runner = await createShopper(request, 'membro');
});

test('a captain makes a team for a race and gets its code and invite link', async ({ page }) => {
  await signIn(page, captain.token);
  await page.goto('/user');
  await page.getByRole('link', { name: /Minhas equipes/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Minhas equipes' })).toBeVisible();
  await expect(page.getByText('Você ainda não criou nenhuma equipe.')).toBeVisible();

  const form = page.getByRole('form', { name: 'Criar equipe' });
  await form.getByRole('button', { name: 'Criar equipe' }).click();
  await expect(form.getByText('Informe o nome da equipe.')).toBeVisible();
  await form.getByLabel('Nome da equipe').fill(TEAM);
  await form.getByLabel('Corrida').selectOption({ label: EVENT_NAME });
  await form.getByRole('button', { name: 'Criar equipe' }).click();
  await expect(form.getByRole('status')).toContainText(`Equipe ${TEAM} criada. Código:`);

  const card = page.getByRole('listitem', { name: TEAM });
  await expect(card).toContainText(EVENT_NAME);
  await expect(card).toContainText('Aceitando membros');
  await expect(card).toContainText('Ninguém entrou ainda.');
  const link = (await card.getByText(/\/eventos\/register\/\d+\?equipe=/).textContent()) ?? '';
  invite = new URL(link).pathname + new URL(link).search;
  code = new URL(link).searchParams.get('equipe') ?? '';
  expect(invite).toBe(`/eventos/register/${eventId}?equipe=${code}`);
  expect(code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
  await expectNoSeriousAxe(page);
});

test('a runner opens the invite, registers with the code filled in, and the ticket names the team', async ({
  page,
}) => {
  await signIn(page, runner.token);
  await page.goto(invite);
  await expect(page.getByRole('heading', { level: 1, name: EVENT_NAME })).toBeVisible();
  await openFreeRegistrationForMe(page, '5 km Equipes');

  const field = page.getByLabel('Código da equipe (opcional)');
  await expect(field).toHaveValue(code);
  await expect(page.getByText(`Equipe: ${TEAM}. O capitão verá seu nome e sua distância.`)).toBeVisible();
  // A mistyped code says so before anything is sent; the right one names the team again.
  await field.fill('ZZZZ-ZZZZ');
  await expect(page.getByText('Nenhuma equipe com este código.')).toBeVisible();
  await field.fill(code.toLowerCase());
  await expect(page.getByText(`Equipe: ${TEAM}.`, { exact: false })).toBeVisible();

  // The runner lets the team's collector take the kit with the team's.
  await page.getByLabel(/Autorizo quem a equipe enviar a retirar meu kit/).check();
  const cpf = await confirmFreeRegistration(page, eventId, { birth: '1992-04-05', gender: 'Masculino' });
  await page.getByLabel('CPF do participante').fill(cpf);
  await page.getByRole('button', { name: 'Buscar Inscrição' }).click();
  const found = page.getByRole('region', { name: 'Inscrição encontrada' });
  await expect(found.getByText(TEAM, { exact: true })).toBeVisible();
  // The card says the team may collect the kit, and takes it back in one click.
  await expect(found.getByText(`Equipe ${TEAM}: quem a equipe enviar pode retirar o seu kit`)).toBeVisible();
  await expect(
    found.getByRole('button', { name: `Não deixar a equipe ${TEAM} retirar o meu kit` }),
  ).toBeVisible();
});

test('the captain sees the member, closes the team, and a new runner is told before paying', async ({
  page,
  browser,
}) => {
  await signIn(page, captain.token);
  await page.goto('/user/equipes');
  const card = page.getByRole('listitem', { name: TEAM });
  await expect(card).toContainText('1 membro');
  const members = card.getByRole('table', { name: `Membros da equipe ${TEAM}` });
  await expect(members.getByRole('cell', { name: runner.full_name })).toBeVisible();
  await expect(members.getByRole('cell', { name: '5 km Equipes' })).toBeVisible();
  await card.getByRole('button', { name: `Fechar a equipe ${TEAM}` }).click();
  await expect(card).toContainText('Fechada a novos membros');
  await expect(card.getByRole('button', { name: `Reabrir a equipe ${TEAM}` })).toBeVisible();

  const other = await browser.newPage();
  await signIn(other, runner.token);
  await other.goto(
    `/eventos/register/${eventId}/finalizar?paraMim=false&eventoId=${eventId}&categorias=${categoryId}`,
  );
  await other.getByLabel('Código da equipe (opcional)').fill(code);
  await expect(other.getByText(`A equipe ${TEAM} não aceita novos membros.`)).toBeVisible();
  await other.close();
});

test('staff see the event’s teams with captain and members', async ({ page }) => {
  await signInStaff(page, STAFF.admin, '/painel/eventos');
  await page.getByRole('link', { name: `Equipes de ${EVENT_NAME}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Equipes: ${EVENT_NAME}` })).toBeVisible();
  const team = page.getByRole('region', { name: TEAM });
  await expect(team).toContainText(code);
  await expect(team).toContainText(`capitão ${captain.full_name} (${captain.email})`);
  await expect(team).toContainText('fechada');
  await expect(team.getByRole('cell', { name: runner.full_name })).toBeVisible();
  await expect(team).toContainText('1 membro inscrito');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Baixar equipes (CSV)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`equipes-evento-${eventId}.csv`);
  const csv = readFileSync((await file.path())!, 'utf8');
  expect(csv).toContain(`${TEAM};${code};${captain.full_name};${captain.email};`);
  expect(csv).toContain(`;${runner.full_name};5 km Equipes;0,00;Não`);
  await expectNoSeriousAxe(page);
});

test('the desk hands the team’s kits to its collector in one go', async ({ page }) => {
  await signInStaff(page, STAFF.admin, `/painel/checkin/${eventId}`);
  await page.getByRole('button', { name: 'Kits de uma equipe' }).click();
  const part = page.getByRole('region', { name: 'Kits de uma equipe' });
  await part.getByLabel('Equipe').selectOption({ label: `${TEAM} (1 de 1 prontos)` });
  const members = part.getByRole('list', { name: `Membros da equipe ${TEAM}` });
  await expect(members).toContainText(`${runner.full_name}`);
  await expect(members).toContainText('Sai com a equipe');
  await part.getByRole('button', { name: 'Entregar 1 kit da equipe' }).click();
  await expect(part.getByRole('alert')).toContainText('Informe o nome de quem retira os kits.');
  await part.getByLabel('Nome de quem retira pela equipe').fill('Paula Capitã');
  await part.getByRole('button', { name: 'Entregar 1 kit da equipe' }).click();
  await expect(part.getByRole('status')).toHaveText('1 kit entregue a Paula Capitã.');
  await expect(members).toContainText('Já retirado (por Paula Capitã)');
  await expectNoSeriousAxe(page);
});
