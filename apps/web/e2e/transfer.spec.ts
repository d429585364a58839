import AxeBuilder from '@axe-core/playwright';
import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { Event } from '@passada/core/contracts/events';
import { formatCpf } from '@passada/core/documents';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  brl,
  createShopper,
  freshCpf,
  kitTicket,
  outboxMails,
  payWithPix,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

const EVENT_NAME = `Corrida da Troca de Bastão ${Date.now().toString(36)}`;

/** A race of its own whose rules charge R$ 12,00 to transfer, so the new runner pays by Pix. */
async function raceWithTransferFee(request: APIRequestContext): Promise<Event> {
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  expect(login.status()).toBe(200);
  const headers = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const created = await request.post('/api/painel/events/', {
    headers,
    data: {
      nome_evento: EVENT_NAME,
      organizer: 'Associação dos Corredores',
      city: 'Fortaleza',
      state: 'CE',
      prazo_inscricao: addDays(today, 20),
      hora_evento: '06:00',
      descricao_evento: 'Corrida de rua com transferência de inscrição.',
      regulamento: 'Regulamento da corrida.',
      kit_tamanhos: [
        { tamanho: 'M', capacidade: 20 },
        { tamanho: 'G', capacidade: 20 },
      ],
      dias_evento: [
        {
          data: addDays(today, 25),
          categorias: [{ nome_categoria: '10 km', preco_inscricao: 80, capacidade: 50 }],
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  const rulesUrl = `/api/painel/events/${id}/pos-venda/`;
  const { texto: _, ...rules } = await (await request.get(rulesUrl, { headers })).json();
  const saved = await request.put(rulesUrl, { headers, data: { ...rules, transferencia_taxa: 12 } });
  expect(saved.status()).toBe(200);
  return (await (await request.get(`/api/events/${id}/`)).json()) as Event;
}

/** The holder's registration in that race, paid by Pix at the simulated bank. */
async function paidRegistration(request: APIRequestContext, event: Event, name: string) {
  const shopper = await createShopper(request, 'titular');
  const cpf = freshCpf();
  const paid = await payWithPix(request, shopper.token, 'inscricao', {
    nome_completo: name,
    cpf,
    data_nascimento: '1988-02-14',
    genero: 'Masculino',
    numero_contato: '(85) 98888-1234',
    email: shopper.email,
    evento: event.id,
    categoria_evento: [event.dias_evento[0]!.categorias[0]!.id],
    street: 'Rua do Sol, 10',
    zip_code: '60165-121',
    state: 'CE',
    city: 'Fortaleza',
    neighborhood: 'Meireles',
    tamanho_camisa: event.kit.tamanhos[0]!.id,
    contato_emergencia_nome: 'Ana Contato',
    contato_emergencia_telefone: '(85) 96666-5555',
    aceite_termo: true,
    termo_versao: event.termo_versao,
  });
  return { cpf, shopper, id: paid.inscricao_id as number };
}

async function noSeriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

test('a runner transfers their registration to a friend, the friend completes it with Pix, the old QR is refused at check-in and the new one accepted', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const holderName = 'Teodoro Transferente';
  const event = await raceWithTransferFee(request);
  const { cpf, shopper, id } = await paidRegistration(request, event, holderName);
  const oldTicket = await kitTicket(request, shopper, cpf, event.id);

  // The holder, on the event's "Já me inscrevi" page, names the friend.
  const friend = await createShopper(request, 'amiga');
  const friendCpf = freshCpf();
  const friendName = 'Fernanda Amiga';
  await signIn(page, shopper.token);
  await page.goto(`/eventos/register/${event.id}/ja-me-inscrevi`);
  await page.getByLabel('CPF do participante').fill(formatCpf(cpf));
  await page.getByRole('button', { name: 'Buscar Inscrição' }).click();
  // First the shirt: M to G, within the rules, while G shirts last.
  await page.getByRole('button', { name: 'Trocar o tamanho da camisa' }).click();
  await page.getByLabel('Trocar tamanho da camisa').selectOption({ label: 'G' });
  await page.getByRole('button', { name: 'Trocar camisa' }).click();
  await expect(page.getByText('Camisa trocada para G.')).toBeVisible();
  await page.getByRole('button', { name: 'Transferir inscrição' }).click();
  const transfer = page.getByRole('region', { name: 'Transferir para outra pessoa' });
  await expect(transfer).toContainText(brl(1200));
  await transfer.getByLabel('Nome completo da nova pessoa').fill(friendName);
  await transfer.getByLabel('CPF da nova pessoa').fill(formatCpf(friendCpf));
  await transfer.getByLabel('E-mail da nova pessoa').fill(friend.email);
  await noSeriousViolations(page);
  await transfer.getByRole('button', { name: 'Enviar link de transferência' }).click();
  await expect(transfer.getByText(`Enviamos a ${friend.email} o link`)).toBeVisible();
  await expect(transfer).toContainText(`Aguardando ${friendName}`);

  // The friend opens the link of the e-mail, signed in to their own account.
  await expect.poll(() => outboxMails(friend.email).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const link = outboxMails(friend.email)[0]!.match(
    /https?:\/\/\S+\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/,
  )!;
  const friendContext = await browser.newContext();
  const friendPage = await friendContext.newPage();
  await signIn(friendPage, friend.token);
  await friendPage.goto(`/inscricoes/transferencia/${link[1]}`);
  await expect(
    friendPage.getByRole('heading', { level: 1, name: 'Concluir transferência de inscrição' }),
  ).toBeVisible();
  await expect(friendPage.getByText(`${holderName} transferiu para você a inscrição nº ${id}`)).toBeVisible();
  await expect(friendPage.getByLabel('Nome completo')).toHaveValue(friendName);
  await friendPage.getByLabel('Data de nascimento').fill('1994-07-09');
  await friendPage.getByLabel('Feminino').check();
  await friendPage.getByLabel('Endereço (rua e número)').fill('Rua dos Tabajaras, 200');
  await friendPage.getByLabel('Bairro').fill('Praia de Iracema');
  await friendPage.getByLabel('Cidade').fill('Fortaleza');
  await friendPage.getByLabel('Estado').selectOption('CE');
  await friendPage.getByLabel('CEP').fill('60060-510');
  await friendPage.getByLabel('Telefone de contato').fill('(85) 97777-1234');
  await friendPage.getByLabel('Contato de emergência (nome)').fill('Gustavo Contato');
  await friendPage.getByLabel('Telefone do contato de emergência').fill('(85) 96666-4321');
  await friendPage.getByLabel('Li e aceito o termo de responsabilidade').check();
  // The shirt is the registration's (G) unless she picks another size that is left.
  const shirt = friendPage.getByLabel('Tamanho da camisa');
  await expect(shirt).toHaveValue('');
  await expect(shirt.locator('option:checked')).toHaveText('G (a camisa da inscrição)');
  const ownSize = event.kit.tamanhos.find((k) => k.tamanho !== 'G' && k.quantidade_disponivel > 0)!.tamanho;
  await shirt.selectOption({ label: ownSize });
  await expect(friendPage.getByRole('region', { name: 'Valor' })).toContainText('Total');
  await noSeriousViolations(friendPage);

  // The fee of the race's rules, paid by Pix at the simulated bank.
  await expect(friendPage.getByRole('region', { name: 'Valor' })).toContainText(brl(1200));
  await friendPage.getByRole('button', { name: 'Pix' }).click();
  const pix = friendPage.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(friendPage.getByRole('dialog', { name: 'Transferência concluída!' })).toBeVisible({
    timeout: 20_000,
  });
  await friendContext.close();

  // At the kit desk: the old QR code is refused, the friend's new one shows the friend.
  const newTicket = await kitTicket(request, friend, friendCpf, event.id);
  expect(newTicket.code).not.toBe(oldTicket.code);
  await signInStaff(page, STAFF.operator, '/painel/checkin');
  await page.getByRole('link', { name: `Abrir o check-in de ${event.nome_evento}` }).click();
  const codeField = page.getByLabel('Código do QR code (leitor ou colado)');
  await codeField.fill(oldTicket.code);
  await page.getByRole('button', { name: 'Ver inscrição', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Inscrição transferida: o código foi substituído');
  await codeField.fill(newTicket.code);
  await page.getByRole('button', { name: 'Ver inscrição', exact: true }).click();
  const card = page.getByRole('region', { name: friendName });
  await expect(card).toContainText(`nº ${id}`);
  await expect(card.getByTestId('checkin-size')).toHaveText(ownSize);
  await card.getByRole('button', { name: 'Confirmar entrega do kit' }).click();
  await expect(page.getByRole('status')).toHaveText(`Kit entregue: ${friendName}.`);

  // The participants' own links: the old holder's opens nothing any more, the new holder's opens hers.
  const linkOf = (to: string, needle: string) =>
    outboxMails(to)
      .filter((m) => m.includes(needle))
      .map((m) => m.match(/\/inscricoes\/link\/([A-Za-z0-9._-]+)/)?.[1])
      .find(Boolean);
  await expect
    .poll(() => linkOf(friend.email, 'Sua inscrição está confirmada'), { timeout: 15_000 })
    .toBeTruthy();
  await page.goto(`/inscricoes/link/${linkOf(shopper.email, 'Sua inscrição está confirmada')}`);
  await expect(page.getByText('Este link não vale mais')).toBeVisible();
  await page.goto(`/inscricoes/link/${linkOf(friend.email, 'Sua inscrição está confirmada')}`);
  await expect(page.getByRole('heading', { level: 1, name: `Inscrição nº ${id}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Transferir para outra pessoa' })).toBeVisible();
  await noSeriousViolations(page);
});
