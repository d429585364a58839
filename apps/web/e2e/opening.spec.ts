import AxeBuilder from '@axe-core/playwright';
import type { Event } from '@passada/core/contracts/events';
import { expect, test } from '@playwright/test';
import { createShopper, fillRaceFields, freshCpf, openEvent, STAFF, signIn } from './fixtures.ts';

/**
 * Opening day (docs/decisions/0046-opening-day.md), on a 390 px phone: a runner waits in the pre-queue of an
 * event that opens in a few seconds, the waiting room in view with a live countdown to the opening, is
 * admitted, registers with the turn counting down on the form and pays; a runner arriving next reads that
 * the turn comes next; a second tab of the same runner shows the same turn and does not take a second place.
 */
test('a runner waits in the queue, is admitted, registers and pays; a second tab takes no second place', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // A copy of an open demo event for next year, so other tests never meet its waiting room.
  const { event: source } = await openEvent(request);
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.manager });
  const staff = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  const copy = await request.post(`/api/painel/events/${source.id}/duplicar/`, { headers: staff });
  expect(copy.status()).toBe(201);
  const copied = (await copy.json()) as {
    id: number;
    kit_tamanhos: Array<{ id: number; tamanho: string; capacidade: number }>;
    dias_evento: Array<{ data: string; categorias: Array<Record<string, unknown>> }>;
  };
  const eventId = copied.id;
  // Renamed, so the specs that look for the demo race by its name keep finding one.
  const { id: _id, ...form } = copied;
  const renamed = await request.put(`/api/painel/events/${eventId}/`, {
    headers: staff,
    data: {
      ...form,
      nome_evento: `Abertura com fila ${Date.now().toString(36)}`,
      kit_tamanhos: form.kit_tamanhos.map(({ id, tamanho, capacidade }) => ({ id, tamanho, capacidade })),
      dias_evento: form.dias_evento.map((d) => ({
        data: d.data,
        categorias: d.categorias.map(({ vendidas: _v, restantes: _r, ...c }) => c),
      })),
    },
  });
  expect(renamed.status(), await renamed.text()).toBe(200);
  const opening = await request.put(`/api/painel/events/${eventId}/abertura/`, {
    headers: staff,
    data: {
      modo: 'fila',
      abre_em: new Date(Date.now() + 30_000).toISOString(),
      pre_fila_minutos: 30,
      admitidos_por_minuto: 1,
      minutos_da_vez: 10,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 1,
    },
  });
  expect(opening.status()).toBe(200);
  const event = (await (await request.get(`/api/events/${eventId}/`)).json()) as Event;
  const category = event.dias_evento[0]!.categorias.find((c) => c.quantidade_disponivel > 0)!;

  const shopper = await createShopper(request, 'fila');
  await signIn(page, shopper.token);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/eventos/register/${eventId}`);
  const room = page.getByRole('region', { name: 'Sala de espera' });
  await expect(room).toContainText('por ordem de chegada com sala de espera');
  // On the phone the box is in view without scrolling, its heading focused for a screen reader.
  const heading = room.getByRole('heading', { name: 'Sala de espera' });
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
  // Before the opening, a countdown that runs, not only the clock time.
  const opensIn = room.getByRole('timer', { name: 'Tempo até a abertura das inscrições' });
  await expect(opensIn).toHaveText(/^00:[0-5]\d$/);
  const firstReading = await opensIn.textContent();
  await expect(opensIn).not.toHaveText(firstReading ?? '');
  await expect(room.getByRole('status')).toHaveText(/Você está na pré-fila/);
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);

  // The opening draws the pre-queue (one runner: the first place) and admits one a minute.
  await expect(room.getByRole('status')).toHaveText(/É a sua vez!/, { timeout: 60_000 });
  await expect(opensIn).toHaveCount(0);

  // A runner arriving now has nobody ahead and the second place, admitted a minute after the opening:
  // the page says the turn comes next, not "lugar 2, 0 à sua frente".
  const nextRunner = await page.context().browser()!.newContext();
  try {
    const other = await createShopper(request, 'fila2');
    const otherPage = await nextRunner.newPage();
    await signIn(otherPage, other.token);
    await otherPage.goto(`/eventos/register/${eventId}`);
    await expect(otherPage.getByRole('region', { name: 'Sala de espera' }).getByRole('status')).toHaveText(
      /^Você é a próxima pessoa da fila: sua vez começa em cerca de 1 minuto\./,
    );
  } finally {
    await nextRunner.close();
  }

  // A refresh keeps the turn, and says it without taking the focus again (nothing changed).
  await page.reload();
  await expect(page.getByRole('region', { name: 'Sala de espera' }).getByRole('status')).toHaveText(
    /É a sua vez!/,
  );
  await expect(page.getByRole('heading', { name: 'Sala de espera' })).not.toBeFocused();
  // The admitted waiting room on a desktop too, then back to the phone.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    const admitted = await new AxeBuilder({ page }).include('main').analyze();
    expect(
      admitted.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);
  }

  const cpf = freshCpf();
  await page
    .getByRole('button', { name: new RegExp(`^${category.nome_categoria}`) })
    .first()
    .click();
  await page.getByRole('button', { name: 'Confirmar inscrição' }).click();
  await page
    .getByRole('dialog', { name: 'Para quem é a inscrição?' })
    .getByRole('button', { name: 'Para mim' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
  // The turn (10 minutes) counts down while the form is filled.
  const turnLeft = page.getByRole('timer', { name: 'Tempo restante da sua vez' });
  await expect(turnLeft).toHaveText(/^(10:00|0\d:[0-5]\d)$/);
  const turnReading = await turnLeft.textContent();
  await expect(turnLeft).not.toHaveText(turnReading ?? '');
  await page.getByLabel('CPF', { exact: true }).fill(cpf);
  await page.getByLabel('Data de nascimento').fill('1990-04-15');
  await page.getByLabel('Feminino').check();
  await fillRaceFields(page, 'M');
  await page.getByRole('button', { name: 'Pix' }).click();
  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible();
  await page.getByRole('button', { name: 'Fechar' }).click();
  const placesAfterPaying = async () =>
    ((await (await request.get(`/api/events/${eventId}/`)).json()) as Event).dias_evento[0]!.categorias.find(
      (c) => c.id === category.id,
    )!.quantidade_disponivel;
  expect(await placesAfterPaying()).toBe(category.quantidade_disponivel - 1);

  // A second tab of the same runner: the same turn, and the same person cannot take a second place.
  const second = await page.context().newPage();
  await second.goto(`/eventos/register/${eventId}`);
  await expect(second.getByRole('region', { name: 'Sala de espera' }).getByRole('status')).toHaveText(
    /É a sua vez!/,
  );
  await second.goto(
    `/eventos/register/${eventId}/finalizar?paraMim=true&eventoId=${eventId}&categorias=${category.id}`,
  );
  await second.getByLabel('CPF', { exact: true }).fill(cpf);
  await second.getByLabel('Data de nascimento').fill('1990-04-15');
  await second.getByLabel('Feminino').check();
  await fillRaceFields(second, 'M');
  await second.getByRole('button', { name: 'Pix' }).click();
  await expect(second.getByText(/(Este CPF já tem uma inscrição|já está inscrito)/).first()).toBeVisible();
  expect(await placesAfterPaying()).toBe(category.quantidade_disponivel - 1);
});
