import AxeBuilder from '@axe-core/playwright';
import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { expect, type Page, test } from '@playwright/test';
import { freshCpf, outboxMails, STAFF } from './fixtures.ts';

/**
 * The waitlist of a sold-out category (docs/decisions/0042-waitlist.md): a runner joins from the event
 * page without an account, gets the link by e-mail, sees their position there and leaves the list.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const EVENT_NAME = `Corrida Lotada ${run}`;
let eventId = 0;

async function noSeriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

test.beforeAll(async ({ request }) => {
  // Staff create a race whose 5 km is full and turn its waitlist on, as the back office does.
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  expect(login.status()).toBe(200);
  const headers = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const created = await request.post('/api/painel/events/', {
    headers,
    data: {
      nome_evento: EVENT_NAME,
      organizer: 'Associação dos Corredores',
      city: 'Fortaleza',
      state: 'CE',
      prazo_inscricao: addDays(today, 20),
      hora_evento: '06:00',
      descricao_evento: 'Corrida com vagas esgotadas no 5 km.',
      regulamento: 'Regulamento da corrida lotada.',
      kit_tamanhos: [{ tamanho: 'M', capacidade: 20 }],
      dias_evento: [
        {
          data: addDays(today, 25),
          categorias: [
            { nome_categoria: '5 km Lotada', preco_inscricao: 60, capacidade: 0 },
            { nome_categoria: '10 km', preco_inscricao: 80, capacidade: 50 },
          ],
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const event = (await created.json()) as {
    id: number;
    dias_evento: Array<{ categorias: Array<{ id: number; nome_categoria: string }> }>;
  };
  eventId = event.id;
  const full = event.dias_evento[0]!.categorias.find((c) => c.nome_categoria === '5 km Lotada')!;
  const rulesUrl = `/api/painel/events/${eventId}/pos-venda/`;
  const { texto: _, ...rules } = (await (await request.get(rulesUrl, { headers })).json()) as Record<
    string,
    unknown
  >;
  const saved = await request.put(rulesUrl, {
    headers,
    data: { ...rules, lista_espera_categorias: [full.id] },
  });
  expect(saved.status()).toBe(200);
});

test('a runner joins the waitlist of a sold-out category from the event page, sees the position and leaves', async ({
  page,
}) => {
  await page.goto(`/eventos/register/${eventId}`);
  await expect(page.getByRole('heading', { level: 1, name: EVENT_NAME })).toBeVisible();
  await expect(page.getByRole('button', { name: /^5 km Lotada, .*Esgotado$/ })).toBeDisabled();
  const section = page.getByRole('region', { name: 'Lista de espera' });
  await expect(section).toContainText('5 km Lotada está esgotada');

  // The CPF is checked before anything is written.
  await section.getByLabel('Nome completo').fill('Lia Esperançosa');
  await section.getByLabel('CPF').fill('111.111.111-12');
  const email = `lia_${run}@example.com`;
  await section.getByLabel('E-mail').fill(email);
  await section.getByRole('button', { name: 'Entrar na lista de espera' }).click();
  await expect(section.getByText('CPF inválido.').first()).toBeVisible();

  await section.getByLabel('CPF').fill(freshCpf());
  await section.getByRole('button', { name: 'Entrar na lista de espera' }).click();
  await expect(section.getByRole('status')).toContainText('na posição 1');
  await noSeriousViolations(page);

  // The link in the e-mail shows the position and lets her leave.
  let link = '';
  await expect
    .poll(() => {
      link = /\/eventos\/lista-espera\/[^\s]+/.exec(outboxMails(email).join('\n'))?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Lista de espera' })).toBeVisible();
  await expect(page.getByText('5 km Lotada', { exact: true })).toBeVisible();
  await expect(page.getByText('Na fila', { exact: true })).toBeVisible();
  await noSeriousViolations(page);
  await page.getByRole('button', { name: 'Sair da lista de espera' }).click();
  await expect(page.getByText('Você saiu da lista de espera.')).toBeVisible();
  await expect(page.getByText('Saiu da lista', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sair da lista de espera' })).toHaveCount(0);
});
