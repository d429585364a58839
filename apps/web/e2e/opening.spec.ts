import AxeBuilder from '@axe-core/playwright';
import type { Event } from '@passada/core/contracts/events';
import { expect, test } from '@playwright/test';
import { createShopper, fillRaceFields, freshCpf, openEvent, STAFF, signIn } from './fixtures.ts';

/**
 * Opening day (docs/decisions/0046-opening-day.md): a runner waits in the pre-queue of an event that
 * opens in a few seconds, is admitted, registers and pays; a second tab of the same runner shows the
 * same turn and does not take a second place.
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
      abre_em: new Date(Date.now() + 20_000).toISOString(),
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
  await page.goto(`/eventos/register/${eventId}`);
  const room = page.getByRole('region', { name: 'Sala de espera' });
  await expect(room).toContainText('por ordem de chegada com sala de espera');
  await expect(room.getByRole('status')).toHaveText(/Você está na pré-fila/);
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);

  // The opening draws the pre-queue (one runner: the first place) and admits one a minute.
  await expect(room.getByRole('status')).toHaveText(/É a sua vez!/, { timeout: 60_000 });
  // A refresh keeps the turn.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Sala de espera' }).getByRole('status')).toHaveText(
    /É a sua vez!/,
  );

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
