import { expect, test } from '@playwright/test';
import {
  createFreeRace,
  createShopper,
  expectNoSeriousAxe,
  fillMember,
  type Shopper,
  STAFF,
  signIn,
} from './fixtures.ts';

/**
 * A relay of four (docs/decisions/0078): the organiser marks a distance as a relay; the event page says
 * it is bought by the team; the captain pays the four legs at once at the team's price; four runners,
 * each in their own browser, take a leg with their own data.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const EVENT_NAME = `Revezamento da Jangada ${run}`;
const TEAM = `Quarteto Jangada ${run}`;
const CATEGORY = 'Revezamento 4x5 km';
let eventId = 0;
let captain: Shopper;
let link = '';

test.beforeAll(async ({ request }) => {
  ({ eventId } = await createFreeRace(request, {
    name: EVENT_NAME,
    organizer: 'Liga dos Revezamentos',
    city: 'Fortaleza',
    state: 'CE',
    category: CATEGORY,
    about: 'Revezamento de quatro corredores na orla.',
    price: 240,
  }));
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const staff = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  const current = (await (
    await request.get(`/api/painel/events/${eventId}/`, { headers: staff })
  ).json()) as {
    id: number;
    kit_tamanhos: Array<{ id: number; tamanho: string; capacidade: number }>;
    dias_evento: Array<{ data: string; categorias: Array<Record<string, unknown>> }>;
  };
  const { id: _id, ...form } = current;
  const saved = await request.put(`/api/painel/events/${eventId}/`, {
    headers: staff,
    data: {
      ...form,
      kit_tamanhos: form.kit_tamanhos.map(({ id, tamanho, capacidade }) => ({ id, tamanho, capacidade })),
      dias_evento: form.dias_evento.map((d) => ({
        data: d.data,
        categorias: d.categorias.map(({ vendidas: _v, restantes: _r, ...c }) => ({ ...c, revezamento: 4 })),
      })),
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  captain = await createShopper(request, 'caprevez');
  const made = await request.post('/api/equipes/', {
    headers: { authorization: `Token ${captain.token}` },
    data: { nome: TEAM, evento: eventId },
  });
  expect(made.status()).toBe(201);
});

test('the event page says the relay is bought by the team', async ({ page }) => {
  await page.goto(`/eventos/register/${eventId}`);
  const relay = page.getByRole('button', { name: new RegExp(`^${CATEGORY}`) });
  await expect(relay).toBeDisabled();
  await expect(relay).toContainText('Revezamento de 4 corredores: preço por equipe');
  await expectNoSeriousAxe(page, 'main');
});

test('the captain pays the four legs at once at the team’s price', async ({ page }) => {
  await signIn(page, captain.token);
  await page.goto('/user/equipes');
  const card = page.getByRole('listitem', { name: TEAM });
  const form = card.getByRole('form', { name: `Comprar vagas para a equipe ${TEAM}` });
  await form
    .getByLabel('Distância')
    .selectOption({ label: `${CATEGORY} — revezamento de 4: R$ 240,00 por equipe` });
  await expect(form.getByLabel('Quantidade de vagas')).toHaveValue('4');
  await expect(form.getByText('Total: R$ 240,00')).toBeVisible();
  await form.getByRole('button', { name: 'Pagar com Pix' }).click();
  await form.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Vagas pagas!' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Fechar' }).click();
  await expect(card).toContainText(`4 vagas de ${CATEGORY} em ${EVENT_NAME}`);
  const shown = (await card.getByText(/\/equipes\/vagas\/[A-Za-z0-9_-]{22}$/).textContent()) ?? '';
  link = new URL(shown).pathname;
});

test('four runners take a leg each with their own data', async ({ browser, request }) => {
  for (const [i, birth] of ['1988-01-10', '1991-02-11', '1994-03-12', '1997-04-13'].entries()) {
    const runner = await createShopper(request, `perna${i + 1}`);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, runner.token);
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: `Vaga da equipe ${TEAM}` })).toBeVisible();
      await expect(
        page.getByText(`${4 - i} ${4 - i === 1 ? 'vaga restante' : 'vagas restantes'}.`),
      ).toBeVisible();
      await fillMember(page, birth);
      await page.getByRole('button', { name: 'Confirmar minha inscrição' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: /Inscrição nº \d+ confirmada!/ }),
      ).toBeVisible();
    } finally {
      await context.close();
    }
  }
  const captainPage = await browser.newPage();
  await signIn(captainPage, captain.token);
  await captainPage.goto('/user/equipes');
  await expect(captainPage.getByRole('listitem', { name: TEAM })).toContainText('4 usadas · 0 restantes');
  await captainPage.close();
});
