import AxeBuilder from '@axe-core/playwright';
import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { formatCpf } from '@passada/core/documents';
import { expect, type Page, test } from '@playwright/test';
import {
  createShopper,
  fillRaceFields,
  freshCpf,
  kitTicket,
  outboxMails,
  payWithPix,
  STAFF,
  signIn,
} from './fixtures.ts';

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
  await expect(page.getByRole('button', { name: /^5 km Lotada .*Esgotado$/ })).toBeDisabled();
  const section = page.getByRole('region', { name: 'Lista de espera' });
  await expect(section).toContainText('A categoria 5 km Lotada está esgotada.');

  // The CPF is checked before anything is written.
  await section.getByLabel('Nome completo').fill('Lia Esperançosa');
  await section.getByLabel('CPF').fill('111.111.111-12');
  const email = `lia_${run}@example.com`;
  await section.getByLabel('E-mail').fill(email);
  await section.getByRole('button', { name: 'Entrar na lista de espera' }).click();
  await expect(section.getByText('CPF inválido.').first()).toBeVisible();

  await section.getByLabel('CPF').fill(freshCpf());
  await section.getByRole('button', { name: 'Entrar na lista de espera' }).click();
  await expect(section.getByRole('status')).toContainText('Pedido recebido para a lista de espera');
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

test('a place freed by a cancellation is offered by e-mail; the runner opens the link, pays by Pix and gets the ticket', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A race of its own whose 5 km has one place, sold below, and a waitlist.
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const headers = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const created = await request.post('/api/painel/events/', {
    headers,
    data: {
      nome_evento: `Corrida da Vaga Devolvida ${run}`,
      organizer: 'Associação dos Corredores',
      city: 'Fortaleza',
      state: 'CE',
      prazo_inscricao: addDays(today, 20),
      hora_evento: '06:00',
      descricao_evento: 'Corrida com uma vaga no 5 km.',
      regulamento: 'Regulamento da corrida.',
      kit_tamanhos: [{ tamanho: 'M', capacidade: 20 }],
      dias_evento: [
        {
          data: addDays(today, 25),
          categorias: [{ nome_categoria: '5 km Única', preco_inscricao: 60, capacidade: 1 }],
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  const event = (await (await request.get(`/api/events/${id}/`)).json()) as {
    termo_versao: string;
    dias_evento: Array<{ categorias: Array<{ id: number }> }>;
    kit: { tamanhos: Array<{ id: number }> };
  };
  const category = event.dias_evento[0]!.categorias[0]!.id;
  const rulesUrl = `/api/painel/events/${id}/pos-venda/`;
  const { texto: _, ...rules } = (await (await request.get(rulesUrl, { headers })).json()) as Record<
    string,
    unknown
  >;
  const saved = await request.put(rulesUrl, {
    headers,
    data: { ...rules, lista_espera_categorias: [category] },
  });
  expect(saved.status()).toBe(200);
  const first = await createShopper(request, 'vaga_unica');
  const taken = await payWithPix(request, first.token, 'inscricao', {
    nome_completo: 'Primeiro Corredor',
    cpf: freshCpf(),
    data_nascimento: '1985-01-20',
    genero: 'Masculino',
    numero_contato: '(85) 98888-1234',
    email: first.email,
    evento: id,
    categoria_evento: [category],
    street: 'Rua do Sol, 10',
    zip_code: '60165-121',
    state: 'CE',
    city: 'Fortaleza',
    neighborhood: 'Meireles',
    tamanho_camisa: event.kit.tamanhos[0]!.id,
    contato_emergencia_nome: 'Ana Contato',
    contato_emergencia_telefone: '(85) 96666-5555',
    aceite_termo: true,
    termo_versao: event.termo_versao,
  });

  // The runner, signed in to her account, joins the line of the sold-out 5 km from the event page.
  const runner = await createShopper(request, 'espera');
  const cpf = freshCpf();
  await signIn(page, runner.token);
  await page.goto(`/eventos/register/${id}`);
  await expect(page.getByRole('button', { name: /^5 km Única .*Esgotado$/ })).toBeDisabled();
  const section = page.getByRole('region', { name: 'Lista de espera' });
  await section.getByLabel('Nome completo').fill('Cida Corredora');
  await section.getByLabel('CPF').fill(formatCpf(cpf));
  await section.getByLabel('E-mail').fill(runner.email);
  await section.getByRole('button', { name: 'Entrar na lista de espera' }).click();
  await expect(section.getByRole('status')).toContainText('Pedido recebido para a lista de espera');

  // Staff cancel the only registration: the place is offered to her by e-mail.
  const cancelled = await request.post(`/api/painel/registrations/${taken.inscricao_id}/cancel/`, {
    headers,
    data: { motivo: 'desistiu' },
  });
  expect(cancelled.status()).toBe(200);
  let offer = '';
  await expect
    .poll(
      () => {
        const mail = outboxMails(runner.email).find((m) => m.includes('está reservada para você')) ?? '';
        offer = /\/eventos\/lista-espera\/[^\s"<]+/.exec(mail)?.[0] ?? '';
        return offer;
      },
      { timeout: 20_000 },
    )
    .not.toBe('');
  // The public still sees the 5 km sold out: the place is hers.
  const publicEvent = await (await request.get(`/api/events/${id}/`)).json();
  expect(publicEvent.dias_evento[0].categorias[0].quantidade_disponivel).toBe(0);

  await page.goto(offer);
  await expect(page.getByText('Uma vaga está reservada para você')).toBeVisible();
  await noSeriousViolations(page);
  await page.getByRole('link', { name: 'Fazer a inscrição' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
  await page.getByLabel('CPF', { exact: true }).fill(formatCpf(cpf));
  await page.getByLabel('Data de nascimento').fill('1991-06-02');
  await page.getByLabel('Feminino').check();
  await fillRaceFields(page, 'M');
  await page.getByRole('button', { name: 'Pix' }).click();
  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible({
    timeout: 20_000,
  });

  // Her ticket: the QR code of her registration, and the line shows her registered.
  const ticket = await kitTicket(request, runner, cpf, id);
  expect(ticket.code).toMatch(/^PASSADA-KIT:/);
  await page.goto(offer);
  await expect(page.getByText('Inscrita', { exact: true })).toBeVisible();
});
