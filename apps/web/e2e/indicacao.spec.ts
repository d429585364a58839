import { expect, test } from '@playwright/test';
import {
  createFreeRace,
  createShopper,
  expectNoSeriousAxe,
  fillRaceFields,
  freshCpf,
  openFreeRegistrationForMe,
  paidRegistration,
  type Shopper,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

/**
 * Referral links (docs/decisions/0086): staff set the rule on the event's "Depois da venda"; a paid
 * runner finds their link in "Minhas inscrições" at phone width; a friend who opens it registers and pays,
 * and the runner's card counts them while their 7 days of withdrawal run.
 */
test.describe.configure({ mode: 'serial' });

const RACE = `Corrida da Indicação ${Date.now().toString(36)}`;
let eventId = 0;
let categoryId = 0;
let runner: Shopper;
let registrationId = 0;
let link = '';

test.beforeAll(async ({ request }) => {
  ({ eventId, categoryId } = await createFreeRace(request, {
    name: RACE,
    organizer: 'Passada',
    city: 'Fortaleza',
    state: 'CE',
    category: '5 km Indicação',
    about: 'Uma corrida para indicar aos amigos.',
    price: 80,
  }));
});

test('staff set the referral on the event: two paid registrations through the link give back 25%', async ({
  page,
}) => {
  await signInStaff(page, STAFF.admin, `/painel/eventos/${eventId}/editar`);
  const form = page.getByRole('form', { name: 'Depois da venda' });
  const referral = form.getByRole('group', { name: 'Indicação (link de cada inscrito)' });
  await referral.getByLabel('Inscrições pagas pelo link').fill('2');
  await referral.getByLabel('Devolução (% do valor pago)').fill('25');
  await form.getByRole('button', { name: 'Salvar regras de pós-venda' }).click();
  await expect(form.getByText('Regras de pós-venda salvas.')).toBeVisible();
  await expect(
    form.getByText(/Indicação: cada inscrito pago recebe um link; depois de 2 inscrições pagas/),
  ).toBeVisible();
  await expectNoSeriousAxe(page, 'form');
});

test('a paid runner copies their link in "Minhas inscrições" at 390 px', async ({ page, request }) => {
  runner = await createShopper(request, 'indica');
  ({ id: registrationId } = await paidRegistration(
    request,
    { nome_completo: 'Rita Indicadora', genero: 'Feminino' },
    runner,
    { eventId, categoryId },
  ));
  expect(registrationId).toBeGreaterThan(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, runner.token);
  await page.goto('/user/inscricoes');
  const card = page.getByRole('region', { name: `Indicação da inscrição nº ${registrationId}` });
  await expect(card.getByRole('heading', { name: 'Indique e ganhe 25% de volta' })).toBeVisible();
  await expect(card).toContainText('0 confirmadas de 2');
  link = (await card.getByText(/\/eventos\/register\/\d+\?indicacao=/).textContent()) ?? '';
  expect(new URL(link).pathname).toBe(`/eventos/register/${eventId}`);
  await card.getByRole('button', { name: 'Copiar link de indicação' }).click();
  await expect(card.getByRole('status')).toHaveText('Link copiado.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expectNoSeriousAxe(page);
});

test('a friend opens the link, registers and pays by Pix; the runner’s card counts them while their 7 days run', async ({
  page,
  request,
}) => {
  const friend = await createShopper(request, 'indicada');
  await signIn(page, friend.token);
  const url = new URL(link);
  await page.goto(url.pathname + url.search);
  await expect(page.getByRole('heading', { level: 1, name: RACE })).toBeVisible();
  await openFreeRegistrationForMe(page, '5 km Indicação', 'R$');
  await page.getByLabel('CPF', { exact: true }).fill(freshCpf());
  await page.getByLabel('Data de nascimento').fill('1991-07-09');
  await page.getByLabel('Masculino').check();
  await fillRaceFields(page, 'M');
  await page.getByRole('button', { name: 'Pix' }).click();
  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible({
    timeout: 20_000,
  });

  // The runner's card: the friend paid through the link and waits for their 7 days of withdrawal.
  const mine = await request.get('/api/inscricoes/', { headers: { authorization: `Token ${runner.token}` } });
  const card = ((await mine.json()) as Array<{ id: number; indicacao?: unknown }>).find(
    (r) => r.id === registrationId,
  );
  expect(card?.indicacao).toMatchObject({ minimo: 2, percentual: 25, confirmadas: 0, aguardando: 1 });
});
