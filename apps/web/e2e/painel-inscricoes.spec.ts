import AxeBuilder from '@axe-core/playwright';
import type { Event } from '@passada/core/contracts/events';
import { expect, test } from '@playwright/test';
import { freshCpf, paidRegistration, STAFF, signInStaff } from './fixtures.ts';

test('staff cancel a direct registration from its page: the Pix is returned and the place freed', async ({
  page,
  request,
}) => {
  const name = 'Rodrigo Desistente';
  const { event, category, cpf, shopper, id } = await paidRegistration(request, { nome_completo: name });
  expect(id).toBeGreaterThan(0);
  const placesOf = async () =>
    ((await (await request.get(`/api/events/${event.id}/`)).json()) as Event).dias_evento
      .flatMap((d) => d.categorias)
      .find((c) => c.id === category.id)!.quantidade_disponivel;
  const placesBefore = await placesOf();

  // From the event's participants, the registration's own page.
  await signInStaff(page, STAFF.admin, `/painel/eventos/${event.id}`);
  await page.getByLabel('Buscar por nome ou CPF').fill(name);
  await page.getByRole('link', { name: `Inscrição nº ${id} de ${name}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Inscrição nº ${id}` })).toBeVisible();
  await expect(page.getByTestId('registration-status')).toHaveText('Confirmada');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
  await expect(page.getByRole('region', { name: 'Cancelamento' })).toContainText(
    'Cancelar devolve o pagamento inteiro',
  );

  // The runner called to hand the place to a friend (decision 0083): staff send the invitation for
  // them, then the runner changes their mind and staff withdraw it.
  const transfer = page.getByRole('region', { name: 'Transferir a pedido do corredor' });
  await transfer.getByLabel('Nome da nova pessoa').fill('Paula Amiga');
  await transfer.getByLabel('CPF da nova pessoa').fill(freshCpf());
  await transfer.getByLabel('E-mail da nova pessoa').fill(`paula.${Date.now()}@example.com`);
  await transfer.getByLabel('Como o corredor pediu').fill('Pedido por telefone');
  await transfer.getByRole('button', { name: 'Enviar convite de transferência' }).click();
  await expect(transfer).toContainText('Aguardando Paula Amiga');
  await transfer.getByRole('button', { name: 'Desfazer transferência' }).click();
  await expect(transfer.getByText('Transferência desfeita: o convite não vale mais.')).toBeVisible();
  await expect(transfer.getByRole('button', { name: 'Enviar convite de transferência' })).toBeVisible();

  // The confirmation says what goes back; dismissing it changes nothing.
  page.once('dialog', (dialog) => void dialog.dismiss());
  await page.getByRole('button', { name: 'Cancelar inscrição' }).click();
  await expect(page.getByTestId('registration-status')).toHaveText('Confirmada');

  let question = '';
  page.once('dialog', (dialog) => {
    question = dialog.message();
    void dialog.accept();
  });
  await page.getByLabel('Motivo do cancelamento (opcional)').fill('Desistiu dentro de 7 dias');
  await page.getByRole('button', { name: 'Cancelar inscrição' }).click();
  await expect(page.getByTestId('registration-status')).toHaveText('Cancelada');
  expect(question).toMatch(new RegExp(`^Cancelar a inscrição nº ${id} de ${name} e devolver R\\$`));
  await expect(page.getByText('Inscrição cancelada; a devolução do pagamento foi pedida.')).toBeVisible();
  await expect(page.getByTestId('payment-status')).toHaveText('DEVOLVIDA');
  await expect(page.getByTestId('refund')).toContainText('DEVOLVIDO');
  await expect(page.getByText('motivo: Desistiu dentro de 7 dias')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancelar inscrição' })).toHaveCount(0);
  expect(await placesOf()).toBe(placesBefore + 1);

  // The participants list shows it cancelled.
  await page.getByRole('link', { name: 'Voltar aos participantes' }).click();
  await page.getByLabel('Situação do kit').selectOption('cancelada');
  await expect(page.getByRole('cell', { name: name })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Inscrição cancelada');

  // The buyer's lookup says so, without the kit's QR code.
  const lookup = await request.get(`/api/participantes/cpf/${cpf}/?evento=${event.id}`, {
    headers: { authorization: `Token ${shopper.token}` },
  });
  expect(await lookup.json()).toMatchObject({ id, cancelada_em: expect.any(String) });
});
