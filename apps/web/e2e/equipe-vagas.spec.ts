import { expect, test } from '@playwright/test';
import {
  createFreeRace,
  createShopper,
  expectNoSeriousAxe,
  fillMember,
  outboxMails,
  type Shopper,
  STAFF,
  signIn,
} from './fixtures.ts';

/**
 * A team's places (docs/decisions/0073): the captain pays 3 places of a distance by Pix in "Minhas
 * equipes" and copies the link; a member opens it signed in, fills in their own data and is registered
 * without paying; one too young is told why; the captain sees the place used.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const EVENT_NAME = `Corrida das Vagas ${run}`;
const TEAM = `Equipe Jangada ${run}`;
const CATEGORY = '10 km Vagas';
let captain: Shopper;
let member: Shopper;
let link = '';
let eventId = 0;
let categoryId = 0;
let code = '';

test.beforeAll(async ({ request }) => {
  ({ eventId, categoryId } = await createFreeRace(request, {
    name: EVENT_NAME,
    organizer: 'Liga das Assessorias',
    city: 'Fortaleza',
    state: 'CE',
    category: CATEGORY,
    about: 'Corrida de quem corre em equipe.',
    price: 100,
  }));
  captain = await createShopper(request, 'capvagas');
  member = await createShopper(request, 'membrovagas');
  const made = await request.post('/api/equipes/', {
    headers: { authorization: `Token ${captain.token}` },
    data: { nome: TEAM, evento: eventId },
  });
  expect(made.status()).toBe(201);
  code = ((await made.json()) as { codigo: string }).codigo;
});

test('the captain pays 3 places by Pix and gets the link members claim them with', async ({ page }) => {
  await signIn(page, captain.token);
  await page.goto('/user/equipes');
  const card = page.getByRole('listitem', { name: TEAM });
  const form = card.getByRole('form', { name: `Comprar vagas para a equipe ${TEAM}` });
  await form.getByRole('button', { name: 'Pagar com Pix' }).click();
  await expect(form.getByText('Escolha a distância.')).toBeVisible();
  await form.getByLabel('Distância').selectOption({ label: `${CATEGORY} — R$ 100,00 por vaga` });
  await form.getByLabel('Quantidade de vagas').fill('3');
  await expect(form.getByText('Total: R$ 300,00')).toBeVisible();
  // A company pays and takes the NFS-e (docs/decisions/0077): its data checked before the Pix exists.
  await form.getByLabel('Uma empresa paga: nota fiscal em nome dela (CNPJ)').check();
  const company = form.getByRole('group', { name: 'Empresa da nota fiscal' });
  await company.getByLabel('CNPJ').fill('11.222.333/0001-82');
  await company.getByLabel('Razão social').fill('Construtora Vento Norte Ltda');
  await company.getByLabel('E-mail para a nota').fill(`financeiro.${Date.now().toString(36)}@example.com`);
  await company.getByLabel('CEP da empresa').fill('60165-121');
  await company.getByLabel('Estado da empresa').selectOption('CE');
  await company.getByLabel('Cidade da empresa').fill('Fortaleza');
  await company.getByLabel('Bairro').fill('Meireles');
  await company.getByLabel('Rua').fill('Av. Beira Mar');
  await company.getByLabel('Número').fill('1200');
  await form.getByRole('button', { name: 'Pagar com Pix' }).click();
  await expect(company.getByText('CNPJ inválido.')).toBeVisible();
  await company.getByLabel('CNPJ').fill('11.222.333/0001-81');
  await form.getByRole('button', { name: 'Pagar com Pix' }).click();
  await expect(form.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await form.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Vagas pagas!' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Fechar' }).click();

  await expect(card).toContainText(`3 vagas de ${CATEGORY} em ${EVENT_NAME}`);
  await expect(card).toContainText('0 usadas · 3 restantes');
  await expect(card).toContainText('Vagas não usadas até o prazo são devolvidas a você.');
  const shown = (await card.getByText(/\/equipes\/vagas\/[A-Za-z0-9_-]{22}$/).textContent()) ?? '';
  link = new URL(shown).pathname;
  await expect(card.getByRole('button', { name: `Copiar link das 3 vagas de ${CATEGORY}` })).toBeVisible();
  // The purchase's NFS-e, to the company, once the demo's issuer authorised it.
  await expect(async () => {
    await page.reload();
    await expect(
      page
        .getByRole('region', { name: /^Nota fiscal das vagas nº \d+$/ })
        .getByRole('link', { name: /NFS-e \(PDF\)/ }),
    ).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
  await expectNoSeriousAxe(page);
});

test('a member claims a place with their own data and pays nothing', async ({ page }) => {
  await signIn(page, member.token);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: `Vaga da equipe ${TEAM}` })).toBeVisible();
  await expect(page.getByText('3 vagas restantes.')).toBeVisible();
  await expect(page.getByLabel('Nome completo')).toHaveValue(member.full_name);
  // The team is already known: no team field to fill.
  await expect(page.getByLabel('Código da equipe (opcional)')).toHaveCount(0);
  // A birth date in the future is refused by the server's rules, shown under the field.
  await fillMember(page, '2031-01-01');
  await page.getByRole('button', { name: 'Confirmar minha inscrição' }).click();
  await expect(page.getByText('Informe uma data de nascimento válida.').first()).toBeVisible();

  await page.getByLabel('Data de nascimento').fill('1990-06-15');
  await page.getByRole('button', { name: 'Confirmar minha inscrição' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Inscrição nº \d+ confirmada!/ })).toBeVisible();
  await page.getByRole('link', { name: 'Ver minhas inscrições' }).click();
  await expect(page.getByText(EVENT_NAME).first()).toBeVisible();
  await expectNoSeriousAxe(page);
});

test('the captain sees the place used and the member in the team', async ({ page }) => {
  await signIn(page, captain.token);
  await page.goto('/user/equipes');
  const card = page.getByRole('listitem', { name: TEAM });
  await expect(card).toContainText('1 usada · 2 restantes');
  await expect(
    card
      .getByRole('table', { name: `Membros da equipe ${TEAM}` })
      .getByRole('cell', { name: member.full_name }),
  ).toBeVisible();
});

test('with team prices set, a runner typing the team’s code sees and pays the team’s price', async ({
  page,
  request,
}) => {
  // The organiser: from 2 members of one team, 10% off (the claimed member counts).
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const headers = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  const rules = await (await request.get(`/api/painel/events/${eventId}/pos-venda/`, { headers })).json();
  const { texto: _, ...form } = rules as Record<string, unknown>;
  const saved = await request.put(`/api/painel/events/${eventId}/pos-venda/`, {
    headers,
    data: { ...form, equipe_faixas: [{ min_membros: 2, percentual: 10 }] },
  });
  expect(saved.status()).toBe(200);

  const runner = await createShopper(request, 'faixa');
  await signIn(page, runner.token);
  await page.goto(
    `/eventos/register/${eventId}/finalizar?paraMim=false&eventoId=${eventId}&categorias=${categoryId}`,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
  await page.getByLabel('Código da equipe (opcional)').fill(code);
  await expect(page.getByText('Preço de equipe: 10% de desconto pelo tamanho da sua equipe.')).toBeVisible();
  await expect(page.getByText('R$ 90,00').first()).toBeVisible();

  await page.getByLabel('Nome completo').fill('Rui Faixa Dez');
  await page.getByLabel('E-mail').fill(runner.email);
  await fillMember(page, '1988-03-03');
  await page.getByRole('button', { name: 'Pix' }).click();
  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible({
    timeout: 20_000,
  });
});

test('the captain invites a list from a CSV; the person confirms by the e-mail’s link', async ({
  page,
  browser,
}) => {
  await signIn(page, captain.token);
  await page.goto('/user/equipes');
  const card = page.getByRole('listitem', { name: TEAM });
  const guest = `convidada.${run}@example.com`;
  await card.getByLabel(`Lista da equipe ${TEAM} (CSV com as colunas Nome e E-mail)`).setInputFiles({
    name: 'equipe.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFFNome;E-mail\r\nLia Convidada;${guest}\r\n`, 'utf8'),
  });
  await card.getByRole('button', { name: 'Enviar convites' }).click();
  await expect(card.getByText('1 convite enviado.')).toBeVisible();
  const guests = card.getByRole('table', { name: `Convidados da equipe ${TEAM}` });
  await expect(guests.getByRole('cell', { name: 'Lia Convidada' })).toBeVisible();

  let token = '';
  await expect
    .poll(() => {
      token = /\/equipes\/convite\/([A-Za-z0-9_-]{22})/.exec(outboxMails(guest).join('\n'))?.[1] ?? '';
      return token;
    })
    .not.toBe('');
  // The person invited, in a browser of their own (no account needed).
  const other = await (await browser.newContext()).newPage();
  await other.goto(`/equipes/convite/${token}`);
  await expect(other.getByText(`Olá, Lia Convidada!`)).toBeVisible();
  await other.getByRole('button', { name: 'Confirmar' }).click();
  await expect(other.getByRole('status').filter({ hasText: 'Você confirmou' })).toBeVisible();
  await expect(other.getByRole('link', { name: 'Fazer minha inscrição com a equipe' })).toHaveAttribute(
    'href',
    new RegExp(`/eventos/register/${eventId}\\?equipe=${code}$`),
  );
  await expectNoSeriousAxe(other);
  await page.reload();
  await expect(guests.getByRole('cell', { name: 'Confirmou' })).toBeVisible();
});
