import AxeBuilder from '@axe-core/playwright';
import { addDays, dateInTimeZone, formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { Event } from '@passada/core/contracts/events';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createShopper, fillRaceFields, freshCpf, STAFF, signIn, signInStaff } from './fixtures.ts';

/** The demo marathon weekend: a 42 km from 18 years and a kids' race from 5 to 12 (docs/decisions/0038). */
async function marathon(request: APIRequestContext) {
  const events = (await (await request.get('/api/events/')).json()) as Event[];
  const event = events.find((e) =>
    e.dias_evento.some((d) => d.categorias.some((c) => c.nome_categoria === '42 km')),
  )!;
  const day = event.dias_evento.find((d) => d.categorias.some((c) => c.nome_categoria === '42 km'))!;
  return { event, day, category: day.categorias.find((c) => c.nome_categoria === '42 km')! };
}

async function noSeriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

test('a 4-year-old cannot register for the 42 km: the event, the regulation and the server say so', async ({
  page,
  request,
}) => {
  const { event, day, category } = await marathon(request);
  await page.goto(`/eventos/register/${event.id}`);
  await expect(page.getByRole('button', { name: /^42 km .*a partir de 18 anos/ })).toBeVisible();
  await page.goto(`/eventos/regulamento/${event.id}`);
  await expect(page.getByText(`42 km (${formatIsoDateBR(day.data)}): a partir de 18 anos`)).toBeVisible();
  await expect(page.getByText('Kids 1 km', { exact: false }).first()).toBeVisible();
  await expect(page.getByText('16 anos completos')).toHaveCount(0);

  const shopper = await createShopper(request, 'menor');
  await signIn(page, shopper.token);
  await page.goto(
    `/eventos/register/${event.id}/finalizar?paraMim=false&eventoId=${event.id}&categorias=${category.id}`,
  );
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  await page.getByLabel('Nome completo').fill('Joaquim Pequeno');
  await page.getByLabel('CPF', { exact: true }).fill(freshCpf());
  await page.getByLabel('Data de nascimento').fill(addDays(today, -4 * 365));
  await page.getByLabel('Masculino').check();
  await page.getByLabel('Endereço (rua e número)').fill('Rua dos Corredores, 42');
  await page.getByLabel('Bairro').fill('Aldeota');
  await page.getByLabel('Cidade').fill('Fortaleza');
  await page.getByLabel('Estado').selectOption('CE');
  await page.getByLabel('CEP').fill('60150-160');
  await page.getByLabel('Telefone de contato').fill('(85) 97777-6666');
  await page.getByLabel('E-mail').fill(`joaquim_${Date.now().toString(36)}@example.com`);
  await fillRaceFields(page, 'P');
  await page.getByRole('button', { name: 'Pix' }).click();
  await expect(
    page.getByText(/A categoria 42 km é para quem tem a partir de 18 anos no dia da prova/),
  ).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR Code Pix' })).toHaveCount(0);
});

test('an admin copies the event for next year, closes and reopens its registrations, numbers bibs; the screens pass axe', async ({
  page,
  request,
}) => {
  const { event } = await marathon(request);
  await signInStaff(page, STAFF.admin, `/painel/eventos/${event.id}/editar`);
  await expect(page.getByRole('heading', { level: 1, name: 'Editar evento' })).toBeVisible();
  await expect(page.getByLabel(/^Idade mínima da categoria \d do dia 2/).first()).toHaveValue('18');
  await noSeriousViolations(page);

  await page.getByRole('button', { name: 'Duplicar para o próximo ano' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/painel/eventos/${event.id}/editar$`));
  await expect(page).toHaveURL(/\/painel\/eventos\/\d+\/editar$/);
  const copyId = Number(/eventos\/(\d+)\/editar/.exec(page.url())![1]);
  await expect(page.getByLabel('Nome do evento')).toHaveValue(event.nome_evento);
  await expect(page.getByLabel('Data do dia 1')).toHaveValue(
    `${Number(event.start_data_evento.slice(0, 4)) + 1}${event.start_data_evento.slice(4)}`,
  );
  // Renamed and saved, so the shop's lists the other specs read keep one card of the demo marathon.
  await page.getByLabel('Nome do evento').fill(`Edição seguinte ${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Salvar evento' }).click();
  await expect(page.getByText('Evento salvo.', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Encerrar inscrições agora' }).click();
  await expect(page.getByText('Inscrições encerradas.', { exact: true })).toBeVisible();
  await page.goto(`/eventos/register/${copyId}`);
  await expect(page.getByRole('status').filter({ hasText: 'Inscrições encerradas' })).toBeVisible();
  await page.goto(`/painel/eventos/${copyId}/editar`);
  await page.getByRole('button', { name: 'Reabrir inscrições' }).click();
  await expect(page.getByText('Inscrições reabertas.', { exact: true })).toBeVisible();
  await page.goto(`/eventos/register/${copyId}`);
  await expect(page.getByRole('button', { name: /^42 km R\$/ })).toBeEnabled();

  await page.goto('/painel/eventos');
  await expect(page.getByRole('link', { name: `Editar ${event.nome_evento}` }).first()).toBeVisible();
  await noSeriousViolations(page);

  await page.goto(`/painel/eventos/${event.id}`);
  await expect(page.getByRole('table', { name: 'Camisas por tamanho' })).toBeVisible();
  await page.getByLabel('Como numerar').selectOption('categorias');
  await page.getByLabel(/^Primeiro número de 42 km/).fill('1');
  await page.getByLabel(/^Primeiro número de 21 km/).fill('2001');
  await page.getByLabel(/^Primeiro número de 5 km/).fill('5001');
  await page.getByLabel(/^Primeiro número de Kids 1 km/).fill('9001');
  await page.getByRole('button', { name: 'Numerar participantes' }).click();
  await expect(page.getByText(/^(Números atribuídos|Nenhuma inscrição para numerar)/)).toBeVisible();
  await noSeriousViolations(page);
});
