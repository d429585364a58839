import AxeBuilder from '@axe-core/playwright';
import type { Event } from '@passada/core/contracts/events';
import { isValidCpf } from '@passada/core/documents';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { createShopper, payWithPix, STAFF, signInStaff } from './fixtures.ts';

/** A valid CPF no other test uses: random base digits, check digits found by core's validation. */
function freshCpf(): string {
  for (;;) {
    const base = String(Math.floor(100_000_000 + Math.random() * 800_000_000));
    for (let d = 0; d < 100; d++) {
      const cpf = `${base}${String(d).padStart(2, '0')}`;
      if (isValidCpf(cpf)) return cpf;
    }
  }
}

/** A registration paid by Pix on the direct path, through the public API as the event form does it. */
async function paidRegistration(request: APIRequestContext, name: string) {
  const events = (await (await request.get('/api/events/')).json()) as Event[];
  const event = events.find(
    (e) => e.inscricoes_abertas && e.dias_evento[0]!.categorias.some((c) => c.quantidade_disponivel > 0),
  )!;
  const category = event.dias_evento[0]!.categorias.find((c) => c.quantidade_disponivel > 0)!;
  const shopper = await createShopper(request, 'desiste');
  const cpf = freshCpf();
  const draft = {
    nome_completo: name,
    cpf,
    data_nascimento: '1989-10-21',
    genero: 'Masculino',
    numero_contato: '(85) 98888-1234',
    email: shopper.email,
    evento: event.id,
    categoria_evento: [category.id],
    street: 'Rua do Sol, 10',
    zip_code: '60165-121',
    state: 'CE',
    city: 'Fortaleza',
    neighborhood: 'Meireles',
    tamanho_camisa: event.kit.tamanhos.find((k) => k.quantidade_disponivel > 0)?.id,
    contato_emergencia_nome: 'Ana Contato',
    contato_emergencia_telefone: '(85) 96666-5555',
    aceite_termo: true,
    termo_versao: event.termo_versao,
  };
  const paid = await payWithPix(request, shopper.token, 'inscricao', draft);
  return { event, category, cpf, shopper, id: paid.inscricao_id as number };
}

test('staff cancel a direct registration from its page: the Pix is returned and the place freed', async ({
  page,
  request,
}) => {
  const name = 'Rodrigo Desistente';
  const { event, category, cpf, shopper, id } = await paidRegistration(request, name);
  expect(id).toBeGreaterThan(0);
  const placesOf = async () =>
    ((await (await request.get(`/api/events/${event.id}/`)).json()) as Event).dias_evento
      .flatMap((d) => d.categorias)
      .find((c) => c.id === category.id)!.quantidade_disponivel;
  const placesBefore = await placesOf();

  // From the event's participants, the registration's own page.
  await signInStaff(page, STAFF.operator, `/painel/eventos/${event.id}`);
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
