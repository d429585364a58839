import { expect, test } from '@playwright/test';
import {
  addParticipantToCart,
  confirmFreeRegistration,
  createFreeRace,
  createShopper,
  freshCpf,
  outboxMails,
  type Shopper,
  signIn,
} from './fixtures.ts';

/**
 * A free race (docs/decisions/0028-free-registrations.md): "Gratuita" where a price would be, and
 * "Confirmar inscrição" instead of a payment step, through to the confirmation and the ticket.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const EVENT_NAME = `Corrida Solidária ${run}`;
let eventId = 0;
let categoryId = 0;
let shopper: Shopper;

test.beforeAll(async ({ request }) => {
  // Staff create the race as the back office does: a category at R$ 0,00.
  ({ eventId, categoryId } = await createFreeRace(request, {
    name: EVENT_NAME,
    organizer: 'Associação dos Corredores',
    city: 'Fortaleza',
    state: 'CE',
    category: '5 km Solidária',
    about: 'Corrida beneficente, sem taxa de inscrição.',
  }));
  shopper = await createShopper(request, 'gratuita');
});

test('registers for a free race from the event page, without a payment step', async ({ page, request }) => {
  await signIn(page, shopper.token);
  await page.goto(`/eventos/register/${eventId}`);
  await expect(page.getByRole('heading', { level: 1, name: EVENT_NAME })).toBeVisible();

  const category = page.getByRole('button', { name: /^5 km Solidária Gratuita/ });
  await expect(category).toContainText('Gratuita');
  await expect(category).not.toContainText('R$');
  await category.click();
  await expect(page.getByText('Total: Gratuita')).toBeVisible();
  await page.getByRole('button', { name: 'Confirmar inscrição' }).click();
  await page
    .getByRole('dialog', { name: 'Para quem é a inscrição?' })
    .getByRole('button', { name: 'Para mim' })
    .click();

  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
  await expect(page.getByTestId('registration-total')).toHaveText('Gratuita');
  // No payment: neither Pix nor card is offered, one button confirms.
  await expect(page.getByRole('button', { name: 'Pix' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cartão de crédito' })).toHaveCount(0);
  await expect(page.getByText('Inscrição gratuita: não há nada a pagar.')).toBeVisible();

  const cpf = await confirmFreeRegistration(page, eventId, { birth: '1991-02-03', gender: 'Feminino' });

  // Found by CPF with its ticket, shown as free.
  await page.getByLabel('CPF do participante').fill(cpf);
  await page.getByRole('button', { name: 'Buscar Inscrição' }).click();
  const found = page.getByRole('region', { name: 'Inscrição encontrada' });
  await expect(found.getByText(shopper.full_name)).toBeVisible();
  await expect(found.getByText('5 km Solidária')).toBeVisible();
  await expect(found.getByText('Gratuita', { exact: true })).toBeVisible();
  await expect(found.getByRole('img', { name: /QR code/i })).toBeVisible();

  // The confirmation e-mail with the ticket, as for a paid registration.
  const confirmation = () =>
    outboxMails(shopper.email).find((m) => m.includes(`Evento: ${EVENT_NAME}`) && m.includes('Inscrição nº'));
  await expect.poll(confirmation, { timeout: 15_000 }).toBeTruthy();
  const mail = confirmation()!;
  expect(mail).toContain('Sua inscrição está confirmada');
  expect(mail).toContain('Valor: Gratuita');

  // The place was taken.
  const event = (await (await request.get(`/api/events/${eventId}/`)).json()) as {
    dias_evento: Array<{ categorias: Array<{ quantidade_disponivel: number }> }>;
  };
  expect(event.dias_evento[0]!.categorias[0]!.quantidade_disponivel).toBe(49);
});

test('a cart of two free registrations is confirmed without a payment and listed as free', async ({
  page,
}) => {
  await signIn(page, shopper.token);
  const people = [
    { name: 'Lia Gratuita', cpf: freshCpf(), birth: '1988-06-07', gender: 'Masculino' },
    { name: 'Rui Gratuito', cpf: freshCpf(), birth: '1988-06-07', gender: 'Masculino' },
  ];
  for (const person of people) {
    await addParticipantToCart(page, eventId, categoryId, person, 'M');
  }

  await page.goto('/revisar-pedido');
  await expect(page.getByRole('heading', { name: 'Inscrições em eventos' })).toBeVisible();
  await expect(page.getByTestId('total-pedido')).toHaveText('Gratuito');
  // No payment method to choose: one button confirms both.
  await expect(page.getByRole('radio', { name: 'Pix' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Confirmar inscrições' }).click();
  await expect(page.getByRole('dialog', { name: 'Pedido realizado com sucesso!' })).toBeVisible();
  await page.getByRole('button', { name: 'Fechar' }).click();
  await expect(page).toHaveURL(/\/user\/pedidos$/);
  const order = page.getByRole('article').first();
  await expect(order).toContainText('Gratuito (sem pagamento)');
  for (const p of people)
    await expect(order.getByRole('region', { name: 'Inscrições' })).toContainText(p.name);
});
