import { WHATSAPP_CONSENT } from '@passada/core/contracts/consents';
import { expect, type Page, test } from '@playwright/test';
import {
  chooseColorAndSize,
  createShopper,
  fillCpfNaNota,
  fillRaceFields,
  freshCpf,
  openEvent,
  outboxMails,
  outboxWhatsApp,
  productWithStock,
  STAFF,
  signInStaff,
} from './fixtures.ts';

/** A mobile number no other spec uses, as typed ("(85) 9xxxx-xxxx") and as WhatsApp writes it. */
function freshPhone() {
  const digits = `859${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`;
  return { typed: `(${digits.slice(0, 2)}) ${digits.slice(2, 7)}-${digits.slice(7)}`, wa: `55${digits}` };
}

/** The WhatsApp opt-in the checkout and the registration form show, found by its words. */
const optIn = (page: Page) => page.getByRole('checkbox', { name: WHATSAPP_CONSENT.text });

test.describe.configure({ mode: 'serial' });

/**
 * Waits for the Pix code on WhatsApp, as a buyer paying from the phone would. Unticked, waits as long
 * as the code takes to arrive when ticked, while the charge is still open (a charge already paid sends
 * no code, so paying at once would prove nothing), and finds nothing.
 */
async function pixCodeArrivedOrNot(wa: string, ticked: boolean) {
  if (ticked) {
    await expect
      .poll(() => outboxWhatsApp(wa).map((m) => m.template), { timeout: 20_000 })
      .toEqual(['pix_codigo']);
    return;
  }
  // A job sent wakes its queue at once (the poll is only for retries); the ticked runs see the code within a
  // second or two.
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  expect(outboxWhatsApp(wa)).toEqual([]);
}

/** Product → cart → the primary address (with `phone`) → review → PAC → Pix paid; answers the Pix code. */
async function buyWithPix(page: Page, request: Parameters<typeof createShopper>[0], tick: boolean) {
  const phone = freshPhone();
  const shopper = await createShopper(request, tick ? 'zap' : 'semzap');
  // The delivery phone is where the messages go: a number of this test's own.
  const res = await request.put(`/api/users/addresses/${shopper.addressId}/`, {
    headers: { authorization: `Token ${shopper.token}` },
    data: {
      full_name: shopper.full_name,
      zip_code: '60165121',
      state: 'CE',
      city: 'Fortaleza',
      neighborhood: 'Meireles',
      street: 'Av. Beira Mar',
      number: '500',
      phone: phone.typed,
      is_primary: true,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await page.addInitScript((t) => {
    if (!localStorage.getItem('token')) localStorage.setItem('token', t);
  }, shopper.token);

  const { product, entry } = await productWithStock(request, '/api/products/');
  await page.goto(`/produto/${product.id}`);
  await chooseColorAndSize(page, entry.color.name, entry.size.name);
  await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
  await page.getByRole('button', { name: /^Carrinho: 1 item/ }).click();
  await page
    .getByRole('dialog', { name: 'Seu carrinho' })
    .getByRole('button', { name: 'Fechar pedido' })
    .click();
  await expect(page).toHaveURL(/\/enderecos$/);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/revisar-pedido$/);
  await page.getByRole('radio', { name: /^PAC/ }).check();
  await expect(optIn(page)).not.toBeChecked();
  if (tick) await optIn(page).check();
  await fillCpfNaNota(page);
  await page.getByRole('radio', { name: 'Pix' }).check();
  await expect(page.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  const code = await page.getByLabel('Pix copia e cola').inputValue();
  // The code reaches the phone while the charge is open (a charge already paid sends none): pay after.
  await pixCodeArrivedOrNot(phone.wa, tick);
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Pedido realizado com sucesso!' })).toBeVisible({
    timeout: 20_000,
  });
  return { phone, code, shopper };
}

test('checkout: the buyer who ticks the opt-in gets the Pix code, then the payment confirmed, on WhatsApp', async ({
  page,
  request,
}) => {
  const { phone, code } = await buyWithPix(page, request, true);
  await expect
    .poll(() => outboxWhatsApp(phone.wa).map((m) => m.template), { timeout: 20_000 })
    .toEqual(['pix_codigo', 'pedido_atualizado']);
  const [pix, confirmed] = outboxWhatsApp(phone.wa);
  expect(pix!.parameters[4]).toBe(code);
  expect(pix!.text).toContain(code);
  expect(confirmed!.text).toMatch(/^Olá, Cida! Pedido nº \d+: pagamento confirmado\. Acompanhe em http/);

  // The back office's record shows both as sent, waiting for the phone's confirmation.
  await signInStaff(page, STAFF.admin, '/painel/mensagens');
  await page.getByRole('combobox', { name: 'Canal' }).selectOption({ label: 'WhatsApp' });
  const rows = page.getByRole('table').getByRole('row').filter({ hasText: phone.wa });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Enviada');
  await expect(rows.first()).toContainText('Aguardando confirmação do WhatsApp');
});

test('checkout: without the opt-in, nothing goes to WhatsApp', async ({ page, request }) => {
  const { phone, shopper } = await buyWithPix(page, request, false);
  // The order's e-mail went (the jobs ran), and no WhatsApp message to that number.
  await expect.poll(() => outboxMails(shopper.email).length, { timeout: 20_000 }).toBeGreaterThan(0);
  expect(outboxWhatsApp(phone.wa)).toEqual([]);
});

/** The event form for another person, with `phone`, paid by Pix at the simulated bank. */
async function registerWithPix(page: Page, request: Parameters<typeof createShopper>[0], tick: boolean) {
  const phone = freshPhone();
  const shopper = await createShopper(request, tick ? 'corrida_zap' : 'corrida_semzap');
  const { event, categoryId } = await openEvent(request);
  const size = event.kit.tamanhos.find((k) => k.quantidade_disponivel > 0)!.tamanho;
  await page.goto('/');
  await page.evaluate((t) => localStorage.setItem('token', t), shopper.token);
  await page.goto(
    `/eventos/register/${event.id}/finalizar?paraMim=false&eventoId=${event.id}&categorias=${categoryId}`,
  );
  const email = `${shopper.username}_corredor@example.com`;
  await page.getByLabel('Nome completo').fill('Davi Corredor');
  await page.getByLabel('CPF', { exact: true }).fill(freshCpf());
  await page.getByLabel('Data de nascimento').fill('1985-09-30');
  await page.getByLabel('Masculino').check();
  await page.getByLabel('Endereço (rua e número)').fill('Rua das Flores, 20');
  await page.getByLabel('Bairro').fill('Aldeota');
  await page.getByLabel('Cidade').fill('Fortaleza');
  await page.getByLabel('Estado').selectOption('CE');
  await page.getByLabel('CEP').fill('60150-160');
  await page.getByLabel('Telefone de contato').fill(phone.typed);
  await page.getByLabel('E-mail').fill(email);
  await fillRaceFields(page, size);
  await expect(optIn(page)).not.toBeChecked();
  if (tick) await optIn(page).check();
  await page.getByRole('button', { name: 'Pix' }).click();
  const pix = page.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await pixCodeArrivedOrNot(phone.wa, tick);
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible({
    timeout: 20_000,
  });
  return { phone, email, event };
}

test('registration: the runner who ticks the opt-in gets the Pix code, then the confirmation with the QR link', async ({
  page,
  request,
}) => {
  const { phone, event } = await registerWithPix(page, request, true);
  await expect
    .poll(() => outboxWhatsApp(phone.wa).map((m) => m.template), { timeout: 20_000 })
    .toEqual(['pix_codigo', 'inscricao_confirmada']);
  const [pix, confirmed] = outboxWhatsApp(phone.wa);
  expect(pix!.parameters.slice(0, 3)).toEqual(['Davi', expect.stringMatching(/^R\$/), 'a sua inscrição']);
  expect(pix!.parameters[4]).toMatch(/^000201/);
  expect(confirmed!.parameters[2]).toBe(event.nome_evento);
  expect(confirmed!.text).toContain(`/eventos/register/${event.id}/ja-me-inscrevi`);
});

test('registration: without the opt-in, nothing goes to WhatsApp', async ({ page, request }) => {
  const { phone, email } = await registerWithPix(page, request, false);
  await expect.poll(() => outboxMails(email).length, { timeout: 20_000 }).toBeGreaterThan(0);
  expect(outboxWhatsApp(phone.wa)).toEqual([]);
});
