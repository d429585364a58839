import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { addDays, dateInTimeZone, formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';
import { EVENTS_PAGE_SIZE } from '@passada/core/events';
import { formatBRL } from '@passada/core/money';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { kitTicket, paidRegistration, STAFF, signInStaff } from './fixtures.ts';

test("staff check a participant in at the event's desk: code, who it is, confirm, undo with a reason; the CSV opens with the right accents", async ({
  page,
  request,
  browser,
}) => {
  const name = 'Conceição Gonçalves Araújo';
  const { event, id, cpf, shopper } = await paidRegistration(request, {
    nome_completo: name,
    // A CPF no other end-to-end test registers, so the shared demo data never collides.
    cpf: '271.828.182-05',
    data_nascimento: '1991-04-12',
    genero: 'Feminino',
  });
  expect(id).toBeGreaterThan(0);
  const ticket = await kitTicket(request, shopper, cpf, event.id);
  expect(ticket.code).toMatch(/^PASSADA-KIT:/);

  // The desk is opened for one event.
  await signInStaff(page, STAFF.operator, '/painel/checkin');
  await expect(page.getByRole('heading', { level: 1, name: 'Check-in: retirada de kits' })).toBeVisible();
  await page.getByRole('link', { name: `Abrir o check-in de ${event.nome_evento}` }).click();
  await expect(page.getByText(`Evento: ${event.nome_evento}`)).toBeVisible();

  // On a phone. The old sequential code anyone could print is refused.
  await page.setViewportSize({ width: 390, height: 844 });
  const codeField = page.getByLabel('Código do QR code (leitor ou colado)');
  await codeField.fill(`PASSADA-INSCRICAO:${id}`);
  await page.getByRole('button', { name: 'Ver inscrição', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('modelo antigo, sem assinatura');

  // The signed code, as a handheld scanner types it: first who it is, and nothing is handed out yet.
  await codeField.fill(ticket.code);
  await page.getByRole('button', { name: 'Ver inscrição', exact: true }).click();
  const card = page.getByRole('region', { name });
  await expect(card).toContainText(`nº ${id}`);
  await expect(card).toContainText(event.nome_evento);
  await expect(card.getByTestId('checkin-size')).toHaveText(ticket.size ?? 'sem camisa no kit');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
  await card.getByRole('button', { name: 'Confirmar entrega do kit' }).click();
  await expect(page.getByRole('status')).toHaveText(`Kit entregue: ${name}.`);
  await expect(card).toContainText(/Kit já retirado em \d\d\/\d\d\/\d{4}.* por Otávio Operador\./);

  // Handed to the wrong person: undone with a reason, then checked in again.
  await card.getByLabel('Motivo para desfazer a retirada').fill('Entregue à pessoa errada');
  await card.getByRole('button', { name: 'Desfazer retirada' }).click();
  await expect(page.getByRole('status')).toHaveText(`Retirada desfeita: ${name}.`);
  await card.getByRole('button', { name: 'Confirmar entrega do kit' }).click();
  await expect(page.getByRole('status')).toHaveText(`Kit entregue: ${name}.`);

  // By name typed without accents: the same preview, already picked up.
  await card.getByRole('button', { name: 'Fechar' }).click();
  await page.getByLabel('Nome, CPF, nº da inscrição ou de peito').fill('conceicao goncalves');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.getByRole('button', { name: `Ver inscrição de ${name}` }).click();
  await expect(page.getByRole('region', { name })).toContainText(
    /Kit já retirado em .* por Otávio Operador\./,
  );

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/painel/eventos/${event.id}`);
  await expect(page.getByRole('cell', { name: 'Conceição Gonçalves Araújo' })).toBeVisible();
  await page.getByLabel('Situação do kit').selectOption('retirado');
  // Other specs' desks check kits of this event in too: read Conceição's own row.
  await expect(
    page
      .getByRole('row', { name: /Conceição Gonçalves Araújo/ })
      .getByRole('cell', { name: 'Retirado (Otávio Operador)' }),
  ).toBeVisible();
  // The operator's job is the desk: the participants' export, with whole CPFs, is for who runs events.
  await expect(page.getByRole('button', { name: 'Exportar CSV' })).toHaveCount(0);
  const managerContext = await browser.newContext();
  const manager = await managerContext.newPage();
  await signInStaff(manager, STAFF.manager, `/painel/eventos/${event.id}`);
  await expect(manager.getByRole('cell', { name: 'Conceição Gonçalves Araújo' })).toBeVisible();
  const [download] = await Promise.all([
    manager.waitForEvent('download'),
    manager.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^participantes-[a-z0-9-]+\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]!.split(';').slice(0, 3)).toEqual(['Inscrição', 'Nome completo', 'CPF']);
  const row = lines.find((l) => l.startsWith(`${id};`))!.split(';');
  expect(row[1]).toBe('Conceição Gonçalves Araújo');
  expect(row[2]).toBe('271.828.182-05');
  await managerContext.close();
});

test('an admin creates an event with its image, a category with a lot and a kit size; the shop shows it', async ({
  page,
  request,
}) => {
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  // Later than every demo event, so the other specs' lists keep their pages.
  const raceDay = addDays(today, 150);
  const lotEnds = addDays(today, 60);
  const name = `Corrida das Jangadas ${Date.now().toString(36)}`;

  await signInStaff(page, STAFF.admin, '/painel/eventos/novo');
  await expect(page.getByRole('heading', { level: 1, name: 'Novo evento' })).toBeVisible();
  await page.getByLabel('Nome do evento').fill(name);
  await page.getByLabel('Organizador').fill('Clube Passada');
  await page.getByLabel('Cidade').fill('Fortaleza');
  await page.getByLabel('UF').fill('CE');
  await page.getByLabel('Prazo de inscrição').fill(addDays(today, 140));
  await page.getByLabel('Horário', { exact: true }).fill('05:30');
  await page.getByLabel('Descrição').fill('Percurso plano pela Beira-Mar, com largada no Aterro.');
  await page.getByLabel('Regulamento').fill('1. Largada às 5h30.\n2. Tempo limite de 1h30.');
  const poster = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#0e7490' } })
    .jpeg()
    .toBuffer();
  await page.getByLabel('Enviar imagem do evento').setInputFiles({
    name: 'cartaz.jpg',
    mimeType: 'image/jpeg',
    buffer: poster,
  });
  const preview = page.getByRole('img', { name: 'Imagem do evento' });
  await expect(preview).toHaveAttribute('src', /^\/api\/media\/uploads\/eventos\/[a-z0-9]{20}-800\.webp$/);
  const imageUrl = (await preview.getAttribute('src'))!;

  await page.getByRole('button', { name: 'Adicionar tamanho de camisa' }).click();
  await page.getByLabel('Tamanho da camisa 1').fill('P');
  await page.getByLabel('Total de camisas 1').fill('40');
  await page.getByRole('button', { name: 'Adicionar tamanho de camisa' }).click();
  await page.getByLabel('Tamanho da camisa 2').fill('GG');
  await page.getByLabel('Total de camisas 2').fill('0');
  await page.getByLabel('Local de retirada do kit').fill('Aterro da Praia de Iracema');

  await page.getByLabel('Data do dia 1').fill(raceDay);
  await page.getByLabel('Nome da categoria 1 do dia 1').fill('10 km');
  await page.getByLabel('Preço da categoria 1 do dia 1 (R$)').fill('119,90');
  await page.getByLabel('Total de vagas da categoria 1 do dia 1').fill('300');
  await page.getByRole('button', { name: 'Adicionar lote da categoria 1 do dia 1' }).click();
  await page.getByLabel('Nome do lote 1 da categoria 1 do dia 1').fill('1º lote');
  await page.getByLabel('Preço do lote 1 da categoria 1 do dia 1 (R$)').fill('89,90');
  await page.getByLabel('Lote 1 da categoria 1 do dia 1 vale até (data)').fill(lotEnds);

  // A lot without a price: the server's message lands on that field, and nothing is saved.
  await page.getByLabel('Preço do lote 1 da categoria 1 do dia 1 (R$)').fill('');
  await page.getByRole('button', { name: 'Salvar evento' }).click();
  const lotPrice = page.getByLabel('Preço do lote 1 da categoria 1 do dia 1 (R$)');
  await expect(lotPrice).toHaveAttribute('aria-invalid', 'true');
  await expect(lotPrice).toHaveAccessibleDescription(/.+/);
  await expect(page.getByRole('heading', { level: 1, name: 'Novo evento' })).toBeVisible();

  await lotPrice.fill('89,90');
  await page.getByRole('button', { name: 'Salvar evento' }).click();
  await expect(page.getByText('Evento salvo.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Editar evento' })).toBeVisible();
  // Editing shows what was saved: the category's own price, its lot and the kit sizes.
  await expect(page.getByLabel('Preço da categoria 1 do dia 1 (R$)')).toHaveValue('119,90');
  await expect(page.getByLabel('Nome do lote 1 da categoria 1 do dia 1')).toHaveValue('1º lote');
  await expect(page.getByLabel('Preço do lote 1 da categoria 1 do dia 1 (R$)')).toHaveValue('89,90');
  await expect(page.getByLabel('Lote 1 da categoria 1 do dia 1 vale até (data)')).toHaveValue(lotEnds);
  await expect(page.getByLabel('Tamanho da camisa 2')).toHaveValue('GG');
  await expect(page.getByLabel('Total de camisas 1')).toHaveValue('40');

  // Saved is published: the event is on the shop's list (the last page, being the latest; other specs
  // add races of their own, so the page is asked of the list, not assumed).
  const list = (await (await request.get(`/api/events/?page=1&page_size=${EVENTS_PAGE_SIZE}`)).json()) as {
    pages: number;
  };
  await page.goto(`/eventos?page=${list.pages}`);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await page.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('img', { name: `Cartaz do evento ${name}` })).toHaveAttribute('src', imageUrl);
  await expect(
    page.getByRole('button', {
      name: `10 km ${formatBRL(8990)} 1º lote até ${formatIsoDateBR(lotEnds).slice(0, 5)}`,
    }),
  ).toBeVisible();
  await expect(page.getByText(`Depois: ${formatBRL(11990)}`)).toBeVisible();
  const kit = page.getByRole('region', { name: 'Kit do atleta' });
  await expect(kit.getByRole('listitem')).toHaveText(['P', /^GG\s*\(esgotado\)$/]);
  await expect(kit.getByText('Aterro da Praia de Iracema')).toBeVisible();
});
