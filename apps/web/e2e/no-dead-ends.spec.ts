import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { Event } from '@passada/core/contracts/events';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { createShopper, fillRaceFields, freshCpf, STAFF, signIn, signInStaff } from './fixtures.ts';

/** The demo marathon weekend: a 42 km from 18 years (docs/decisions/0038). */
async function marathon(request: APIRequestContext) {
  const events = (await (await request.get('/api/events/')).json()) as Event[];
  const event = events.find((e) =>
    e.dias_evento.some((d) => d.categorias.some((c) => c.nome_categoria === '42 km')),
  )!;
  const category = event.dias_evento.flatMap((d) => d.categorias).find((c) => c.nome_categoria === '42 km')!;
  return { event, category };
}

test('a refused Pix leaves the form open: the birth date corrected, the same page pays', async ({
  page,
  request,
}) => {
  const { event, category } = await marathon(request);
  const shopper = await createShopper(request, 'recusa');
  await signIn(page, shopper.token);
  await page.goto(
    `/eventos/register/${event.id}/finalizar?paraMim=false&eventoId=${event.id}&categorias=${category.id}`,
  );
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  await page.getByLabel('Nome completo').fill('Joaquim Pequeno');
  const cpf = freshCpf();
  await page.getByLabel('CPF', { exact: true }).fill(cpf);
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
    page.getByRole('alert').filter({ hasText: /A categoria 42 km é para quem tem a partir de 18 anos/ }),
  ).toBeVisible();

  // Nothing was charged: every field and button is usable again, with what was typed still there.
  await expect(page.getByLabel('Nome completo')).toBeEditable();
  await expect(page.getByLabel('CPF', { exact: true })).toHaveValue(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
  await expect(page.getByRole('button', { name: 'Pix' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Cartão de crédito' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Adicionar ao carrinho' })).toBeEnabled();

  await page.getByLabel('Data de nascimento').fill('1990-04-15');
  await page.getByRole('button', { name: 'Pix' }).click();
  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible({
    timeout: 20_000,
  });
});

test('the missing main address is said beside the form, never over it: typing goes on where it was', async ({
  page,
  request,
}) => {
  const { event, category } = await marathon(request);
  // An account with no address at all.
  const run = `semendereco_${Date.now().toString(36)}`;
  const user = {
    username: run,
    full_name: 'Lia Sem Endereço',
    email: `${run}@example.com`,
    password: 'x'.repeat(12),
  };
  expect((await request.post('/api/users/', { data: user })).status()).toBe(201);
  const { token } = (await (
    await request.post('/api/token-auth/', { data: { username: user.username, password: user.password } })
  ).json()) as { token: string };
  await signIn(page, token);

  const ADDRESSES = /\/api\/users\/addresses\/$/;
  // The address list arrives late, as on a slow phone: held until the runner has started typing.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(ADDRESSES, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(
    `/eventos/register/${event.id}/finalizar?paraMim=true&eventoId=${event.id}&categorias=${category.id}`,
  );
  const cpfField = page.getByLabel('CPF', { exact: true });
  await cpfField.click();
  await page.keyboard.type('837602');
  const arrived = page.waitForResponse(ADDRESSES);
  release();
  await arrived;
  await expect(page.getByText('Não há endereço principal encontrado.')).toBeVisible();
  // Typing goes on in the same field, as the runner's fingers do.
  await page.keyboard.type('13700');
  await expect(cpfField).toHaveValue('837.602.137-00');
  await expect(cpfField).toBeFocused();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: 'Não há endereço principal encontrado.' }),
  ).toBeVisible();
  // The rest of the form is the runner's to fill.
  await expect(page.getByLabel('Endereço (rua e número)')).toBeEditable();
});

test("an event's after-sale rules are saved, saved again, and again after a reload", async ({
  page,
  request,
}) => {
  const { event } = await marathon(request);
  await signInStaff(page, STAFF.admin, `/painel/eventos/${event.id}/editar`);
  const rules = page.getByRole('form', { name: 'Depois da venda' });
  const save = rules.getByRole('button', { name: 'Salvar regras de pós-venda' });
  const saved = rules.getByText('Regras de pós-venda salvas.');
  await save.click();
  await expect(saved).toBeVisible();
  await rules.getByLabel('Vaga da lista de espera reservada por (horas)').fill('24');
  await save.click();
  // The form comes back with the saved version, then says it saved again.
  await expect(saved).toBeVisible();
  await expect(rules.getByRole('alert')).toHaveCount(0);
  await page.reload();
  await expect(rules.getByLabel('Vaga da lista de espera reservada por (horas)')).toHaveValue('24');
  await save.click();
  await expect(saved).toBeVisible();
});
