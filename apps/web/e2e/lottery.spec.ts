import type { Event } from '@passada/core/contracts/events';
import { expect, type Page, test } from '@playwright/test';
import {
  createShopper,
  expectNoSeriousAxe,
  fillRaceFields,
  freshCpf,
  openEvent,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

/** An instant as the back office's `datetime-local` fields take it: the store's clock, UTC−3. */
const storeLocal = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 16);

/**
 * The lottery opening (docs/decisions/0051-lottery-opening.md): staff set a lottery on the opening
 * screen and publish the commitment, a runner signs up on the event page, staff draw after the window,
 * and the winner pays through "Pagar minha vaga", the registration form opened on the drawn category;
 * the page shows the seed and the ranking.
 */
test('staff set a lottery, a runner enters, staff draw, the winner pays', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  // A copy of an open demo event, renamed so the specs that look for a demo race by its name keep finding one.
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
  const { id: _id, ...form } = copied;
  const name = `Abertura por sorteio ${Date.now().toString(36)}`;
  const renamed = await request.put(`/api/painel/events/${eventId}/`, {
    headers: staff,
    data: {
      ...form,
      nome_evento: name,
      kit_tamanhos: form.kit_tamanhos.map(({ id, tamanho, capacidade }) => ({ id, tamanho, capacidade })),
      dias_evento: form.dias_evento.map((d) => ({
        data: d.data,
        categorias: d.categorias.map(({ vendidas: _v, restantes: _r, ...c }) => c),
      })),
    },
  });
  expect(renamed.status(), await renamed.text()).toBe(200);
  const event = (await (await request.get(`/api/events/${eventId}/`)).json()) as Event;
  const category = event.dias_evento[0]!.categorias.find((c) => c.quantidade_disponivel > 0)!;

  // Staff: the lottery's window closes at the next whole minute at least 50 s away (the field has minutes).
  const closes = Math.ceil((Date.now() + 50_000) / 60_000) * 60_000;
  await signInStaff(page, STAFF.manager, `/painel/eventos/${eventId}/abertura`);
  await expect(page.getByRole('heading', { level: 1, name: 'Abertura das inscrições' })).toBeVisible();
  await page.getByLabel('Modo de abertura').selectOption({ label: 'Sorteio' });
  await page.getByLabel('Inscrições no sorteio a partir de').fill(storeLocal(Date.now() - 120_000));
  await page.getByLabel('Inscrições no sorteio até').fill(storeLocal(closes));
  await page.getByLabel('Vagas sorteadas').fill('1');
  await page.getByLabel('Prazo para o sorteado pagar (horas)').fill('24');
  await page.getByRole('button', { name: 'Salvar abertura' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Abertura salva.' })).toBeVisible();
  await page.getByRole('button', { name: 'Publicar compromisso' }).click();
  const lotteryRegion = page.getByRole('region', { name: 'Sorteio' });
  await expect(lotteryRegion).toContainText(/Compromisso publicado em .*: [0-9a-f]{64}/);
  await expectNoSeriousAxe(page, 'main');

  // The runner signs up to the draw on the event page.
  const runnerContext = await browser.newContext();
  const runner: Page = await runnerContext.newPage();
  const shopper = await createShopper(request, 'sorteio');
  await signIn(runner, shopper.token);
  await runner.goto(`/eventos/register/${eventId}`);
  const box = runner.getByRole('region', { name: 'Inscrições por sorteio' });
  await expect(box).toContainText('As vagas deste evento são sorteadas');
  const cpf = freshCpf();
  // The account holder's own name to start with.
  await expect(box.getByLabel('Nome completo')).toHaveValue('Cida Corredora');
  await box.getByLabel('CPF').fill(cpf);
  // No e-mail to type: the result goes to the account's own address.
  await expect(box.getByLabel('E-mail')).toHaveCount(0);
  await box.getByLabel('Data de nascimento').fill('1990-04-15');
  await box.getByLabel('Categoria').selectOption({ value: String(category.id) });
  await box.getByRole('button', { name: 'Inscrever no sorteio' }).click();
  await expect(box.getByRole('status')).toHaveText(/Inscrição no sorteio feita/);
  await expect(box).toContainText('inscrito(a) no sorteio');
  // On a phone and on a desktop alike.
  for (const width of [390, 1280]) {
    await runner.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await expectNoSeriousAxe(runner, 'main');
  }

  // Staff draw once the window has closed; the live view counts the winner.
  await page.waitForTimeout(Math.max(0, closes - Date.now() + 1_000));
  await page.getByRole('button', { name: 'Sortear' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sorteio realizado.' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Ao vivo' })).toContainText(/Sorteados pagando\s*1/);
  await expect(page.getByRole('button', { name: 'Sortear vagas não pagas' })).toBeVisible();
  // Staff see the winner in the lottery's list, the CPF masked, and find her by her CPF.
  const people = page.getByRole('region', { name: 'Inscritos' });
  await people.getByLabel('Buscar inscritos (número, nome, e-mail ou CPF)').fill(cpf);
  await people.getByLabel('Buscar inscritos (número, nome, e-mail ou CPF)').press('Enter');
  const rita = people.getByRole('row').filter({ hasText: 'Cida Corredora' });
  await expect(rita).toContainText(/Sorteado \(pagar até/);
  await expect(rita).toContainText(`***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`);
  await expect(people).not.toContainText(cpf);
  await expect(people).toContainText('(1 inscrito)');

  // The runner sees the result, the seed and the ranking, and pays from the result: the form opens for
  // her own name on the drawn category, nothing to choose again.
  await runner.reload();
  await expect(box).toContainText('sorteado(a)!');
  await expect(box).toContainText(/Semente: [0-9a-f]{64}/);
  await expect(box).toContainText(/Classificação: \d+/);
  for (const width of [390, 1280]) {
    await runner.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await expectNoSeriousAxe(runner, 'main');
  }
  await box
    .getByRole('link', { name: `Pagar minha vaga: Cida Corredora, ${category.nome_categoria}` })
    .click();
  await expect(runner.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
  await expect(runner.getByRole('main')).toContainText(`${name} — inscrição para mim`);
  await expect(runner).toHaveURL(new RegExp(`categorias=${category.id}$`));
  await runner.getByLabel('CPF', { exact: true }).fill(cpf);
  await runner.getByLabel('Data de nascimento').fill('1990-04-15');
  await runner.getByLabel('Feminino').check();
  await fillRaceFields(runner, 'M');
  await runner.getByRole('button', { name: 'Pix' }).click();
  const pix = runner.getByRole('region', { name: 'Pagamento com Pix' });
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(runner.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible();

  // The back office's live view follows by itself.
  await expect(page.getByRole('region', { name: 'Ao vivo' })).toContainText(/Sorteados que pagaram\s*1/, {
    timeout: 15_000,
  });
  await expect(rita).toContainText('Pagou', { timeout: 15_000 });
  await runnerContext.close();
});
