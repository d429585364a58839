import AxeBuilder from '@axe-core/playwright';
import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { Event } from '@passada/core/contracts/events';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { brl, createShopper, freshCpf, outboxMails, payWithPix, STAFF, signIn } from './fixtures.ts';

const EVENT_NAME = `Corrida da Troca de Distância ${Date.now().toString(36)}`;

/** A race of its own: 5 km R$ 50, 10 km R$ 80, 3 km R$ 30; R$ 5 to change, a cheaper one returns the difference. */
async function raceWithDistances(request: APIRequestContext, name = EVENT_NAME): Promise<Event> {
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  expect(login.status()).toBe(200);
  const headers = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const created = await request.post('/api/painel/events/', {
    headers,
    data: {
      nome_evento: name,
      organizer: 'Associação dos Corredores',
      city: 'Fortaleza',
      state: 'CE',
      prazo_inscricao: addDays(today, 20),
      hora_evento: '06:00',
      descricao_evento: 'Corrida de rua com troca de distância.',
      regulamento: 'Regulamento da corrida.',
      kit_tamanhos: [{ tamanho: 'M', capacidade: 20 }],
      dias_evento: [
        {
          data: addDays(today, 25),
          categorias: [
            { nome_categoria: '5 km', preco_inscricao: 50, capacidade: 50 },
            { nome_categoria: '10 km', preco_inscricao: 80, capacidade: 50 },
            { nome_categoria: '3 km', preco_inscricao: 30, capacidade: 50 },
          ],
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  const rulesUrl = `/api/painel/events/${id}/pos-venda/`;
  const { texto: _, ...rules } = await (await request.get(rulesUrl, { headers })).json();
  const saved = await request.put(rulesUrl, {
    headers,
    data: { ...rules, troca_distancia_taxa: 5, troca_distancia_devolve_diferenca: true },
  });
  expect(saved.status()).toBe(200);
  return (await (await request.get(`/api/events/${id}/`)).json()) as Event;
}

async function noSeriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

/** A 5 km registration paid by Pix by `shopper`, for a runner named `name`. */
async function paidFiveKm(
  request: APIRequestContext,
  event: Event,
  shopper: { token: string; email: string },
  name: string,
): Promise<number> {
  const [five] = event.dias_evento[0]!.categorias;
  const paid = await payWithPix(request, shopper.token, 'inscricao', {
    nome_completo: name,
    cpf: freshCpf(),
    data_nascimento: '1988-02-14',
    genero: 'Feminino',
    numero_contato: '(85) 98888-1234',
    email: shopper.email,
    evento: event.id,
    categoria_evento: [five!.id],
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
  return paid.inscricao_id as number;
}

/** The participant's link e-mailed to `email`, its token. */
const linkOf = (email: string) =>
  outboxMails(email)
    .map((m) => m.match(/\/inscricoes\/link\/([A-Za-z0-9._-]+)/)?.[1])
    .find(Boolean);

test('a runner changes distance from "Minhas inscrições" paying the difference by Pix, then to a cheaper one from their own link, with the difference returned', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const event = await raceWithDistances(request);
  const shopper = await createShopper(request, 'troca-distancia');
  const id = await paidFiveKm(request, event, shopper, 'Dalva Distância');

  // On "Minhas inscrições": the 10 km costs the R$ 5 fee and the R$ 30 difference, shown before paying.
  await signIn(page, shopper.token);
  await page.goto('/user/inscricoes');
  await page.getByRole('button', { name: 'Trocar de distância' }).click();
  const change = page.getByRole('region', { name: 'Trocar de distância' });
  await change.getByLabel('Nova distância').selectOption({ label: '10 km' });
  await expect(change).toContainText(brl(500));
  await expect(change).toContainText(brl(3000));
  await noSeriousViolations(page);
  await change.getByRole('button', { name: /Pagar R\$\s35,00 com Pix/ }).click();
  await expect(change.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await change.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(change.getByText('Distância trocada para 10 km.')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('10 km', { exact: true }).first()).toBeVisible();

  // From the participant's own link: the 3 km returns R$ 45 (R$ 50 cheaper, less the R$ 5 fee).
  await expect.poll(() => linkOf(shopper.email), { timeout: 15_000 }).toBeTruthy();
  const link = linkOf(shopper.email);
  await page.goto(`/inscricoes/link/${link}`);
  await expect(page.getByRole('heading', { level: 1, name: `Inscrição nº ${id}` })).toBeVisible();
  await expect(page.getByText('Dalva Distância — ')).toContainText('10 km');
  await page.getByRole('button', { name: 'Trocar de distância' }).click();
  const onLink = page.getByRole('region', { name: 'Trocar de distância' });
  await onLink.getByLabel('Nova distância').selectOption({ label: '3 km' });
  await expect(onLink).toContainText(brl(4500));
  await noSeriousViolations(page);
  await onLink.getByRole('button', { name: 'Confirmar troca de distância' }).click();
  await expect(
    onLink.getByText(/Distância trocada para 3 km\. R\$\s45,00 voltam pelo mesmo meio de pagamento\./),
  ).toBeVisible();
  await expect(page.getByText('Dalva Distância — ')).toContainText('3 km');
});

test('the participant pays a dearer distance by Pix from their own link, after logging in to their own account', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const event = await raceWithDistances(request, `${EVENT_NAME} pelo Link`);
  const buyer = await createShopper(request, 'troca-link');
  const id = await paidFiveKm(request, event, buyer, 'Lia Pelo Link');
  await expect.poll(() => linkOf(buyer.email), { timeout: 15_000 }).toBeTruthy();
  const link = linkOf(buyer.email);

  // Without an account signed in: the amount, and the way to log in and come back.
  await page.goto(`/inscricoes/link/${link}`);
  await expect(page.getByRole('heading', { level: 1, name: `Inscrição nº ${id}` })).toBeVisible();
  await page.getByRole('button', { name: 'Trocar de distância' }).click();
  const change = page.getByRole('region', { name: 'Trocar de distância' });
  await change.getByLabel('Nova distância').selectOption({ label: '10 km' });
  await expect(change).toContainText(brl(3500));
  await expect(change.getByRole('link', { name: 'entre na sua conta' })).toHaveAttribute(
    'href',
    `/login?next=${encodeURIComponent(`/inscricoes/link/${link}`)}`,
  );

  // Signed in to the runner's own account (not the buyer's): Pix, paid, the registration moves.
  const runner = await createShopper(request, 'troca-lia');
  await signIn(page, runner.token);
  await page.reload();
  await page.getByRole('button', { name: 'Trocar de distância' }).click();
  await change.getByLabel('Nova distância').selectOption({ label: '10 km' });
  await noSeriousViolations(page);
  await change.getByRole('button', { name: /Pagar R\$\s35,00 com Pix/ }).click();
  await expect(change.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await change.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(change.getByText('Distância trocada para 10 km.')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Lia Pelo Link — ')).toContainText('10 km');
});
