import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import {
  createFreeRace,
  createShopper,
  expectNoSeriousAxe,
  fillRaceFields,
  freshCpf,
  outboxMails,
  type Shopper,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

/**
 * Special prices by audience (docs/decisions/0068) in the browser: the organiser sets a students' half
 * price on the back office's page, a student chooses it on the registration form and sends the photo of
 * the student ID before paying half by Pix, staff refuse the proof in the review queue, which tells
 * the runner by e-mail, and the runner keeps the place by paying the difference by Pix.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const EVENT_NAME = `Corrida da Meia ${run}`;
const RACE = '5 km Meia';
const RULE = `Estudante ${run}`;
let eventId = 0;
let student: Shopper;

test.beforeAll(async ({ request }) => {
  ({ eventId } = await createFreeRace(request, {
    name: EVENT_NAME,
    organizer: 'Liga da Meia',
    city: 'Recife',
    state: 'PE',
    category: RACE,
    about: 'Corrida com meia-entrada para estudantes.',
    price: 80,
  }));
  student = await createShopper(request, 'estudante');
});

test('the organiser sets a students’ half price with a cap on the back office’s page', async ({ page }) => {
  await signInStaff(page, STAFF.admin, '/painel/eventos');
  await page.getByRole('link', { name: `Preços especiais de ${EVENT_NAME}` }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: `Preços especiais: ${EVENT_NAME}` }),
  ).toBeVisible();
  await expect(page.getByText('Nenhum preço especial neste evento.')).toBeVisible();
  await expectNoSeriousAxe(page);

  await page.getByLabel('Categoria', { exact: true }).selectOption({ label: RACE });
  await page.getByLabel('Público', { exact: true }).selectOption({ label: 'Estudante' });
  await page.getByLabel('Nome mostrado ao corredor').fill(RULE);
  await page.getByLabel('Desconto', { exact: true }).selectOption({ label: 'Meia (metade do lote)' });
  await page.getByLabel('Limite de vagas (opcional)').fill('5');
  await page.getByRole('button', { name: 'Criar preço especial' }).click();
  await expect(page.getByText(`Preço especial "${RULE}" criado.`)).toBeVisible();
  const card = page.getByRole('article', { name: RULE });
  await expect(card).toContainText('0 de 5 vagas usadas');
  await expect(card).toContainText('comprovante analisado em até 72 h');
});

test('a student chooses the half price, sends the student ID and pays half by Pix', async ({ page }) => {
  await signIn(page, student.token);
  const event = await (await page.request.get(`/api/events/${eventId}/`)).json();
  const categoryId = event.dias_evento[0].categorias[0].id as number;
  await page.goto(
    `/eventos/register/${eventId}/finalizar?paraMim=true&eventoId=${eventId}&categorias=${categoryId}`,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
  const special = page.getByRole('group', { name: 'Preço especial' });
  await special.getByRole('radio', { name: `${RULE}: R$ 40,00` }).check();
  await expect(page.getByTestId('registration-total')).toHaveText('R$ 40,00');
  await expectNoSeriousAxe(page);

  // Paying before the proof is sent is stopped with what to do.
  await page.getByLabel('CPF', { exact: true }).fill(freshCpf());
  await page.getByLabel('Data de nascimento').fill('2004-03-09');
  await page.getByLabel('Feminino').check();
  await fillRaceFields(page, 'M');
  await page.getByRole('button', { name: 'Pix' }).click();
  const alert = page.getByRole('alertdialog', {
    name: 'Envie o comprovante do preço especial escolhido antes de pagar, ou escolha o preço normal.',
  });
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'OK' }).click();

  const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#3a7bd5' } })
    .jpeg()
    .toBuffer();
  await special
    .getByLabel(`Comprovante de ${RULE} (foto ou PDF)`)
    .setInputFiles({ name: 'carteirinha.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(special.getByText('Comprovante "carteirinha.jpg" enviado.')).toBeVisible();

  await page.getByRole('button', { name: 'Pix' }).click();
  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible();
});

test('staff see the document beside the runner’s data and refuse it; the runner is told by e-mail', async ({
  page,
}) => {
  await signInStaff(page, STAFF.admin, '/painel/comprovantes');
  await expect(page.getByRole('heading', { level: 1, name: 'Comprovantes de preço especial' })).toBeVisible();
  const card = page.getByRole('article', { name: student.full_name }).filter({ hasText: RULE });
  await expect(card.getByRole('img', { name: `Comprovante de ${student.full_name}` })).toBeVisible();
  await expect(card).toContainText(EVENT_NAME);
  await expect(card).toContainText('R$ 40,00');
  await expectNoSeriousAxe(page);

  await card.getByRole('button', { name: `Recusar o comprovante de ${student.full_name}` }).click();
  await card
    .getByLabel(`Motivo da recusa do comprovante de ${student.full_name}`)
    .fill('A carteirinha está ilegível.');
  await card.getByRole('button', { name: 'Confirmar recusa' }).click();
  await expect(page.getByRole('article', { name: student.full_name }).filter({ hasText: RULE })).toHaveCount(
    0,
  );

  await page.getByLabel('Situação').selectOption({ label: 'Recusados' });
  const refused = page.getByRole('article', { name: student.full_name }).filter({ hasText: RULE });
  await expect(refused).toContainText('A carteirinha está ilegível.');
  await expect
    .poll(() => outboxMails(student.email).some((m) => m.includes('A carteirinha está ilegível.')), {
      timeout: 20_000,
    })
    .toBe(true);
});

test('after the refusal the runner keeps the place by paying the difference by Pix on “Minhas inscrições”', async ({
  page,
}) => {
  await signIn(page, student.token);
  await page.goto('/user/inscricoes');
  const box = page.getByRole('region', { name: `Comprovante do preço especial ${RULE} recusado` });
  await expect(box).toContainText('Motivo: A carteirinha está ilegível.');
  await expect(box).toContainText('devolução integral');
  await expectNoSeriousAxe(page);
  // The lot's R$ 80,00 less the R$ 40,00 paid.
  await box.getByRole('button', { name: /Pagar a diferença de R\$\s40,00 com Pix/ }).click();
  await expect(box.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await box.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByText('Diferença paga: a inscrição continua válida.')).toBeVisible({
    timeout: 20_000,
  });
  await expect(
    page.getByRole('region', { name: `Comprovante do preço especial ${RULE} recusado` }),
  ).toHaveCount(0);
  await expect
    .poll(
      () => outboxMails(student.email).some((m) => m.includes(`A diferença do preço especial (${RULE})`)),
      {
        timeout: 20_000,
      },
    )
    .toBe(true);
});
