import { readFileSync } from 'node:fs';
import type { Event } from '@passada/core/contracts/events';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { payWithPix, STAFF, signInStaff } from './fixtures.ts';

/** A paid registration made through the public API, as a runner would do it with Pix. */
async function paidRegistration(request: APIRequestContext, name: string) {
  const events = (await (await request.get('/api/events/')).json()) as Event[];
  const event = events.find(
    (e) => e.inscricoes_abertas && e.dias_evento[0]!.categorias.some((c) => c.quantidade_disponivel > 0),
  )!;
  const category = event.dias_evento[0]!.categorias.find((c) => c.quantidade_disponivel > 0)!;
  const suffix = Date.now().toString(36);
  const account = {
    username: `kit${suffix}`,
    email: `kit${suffix}@example.com`,
    full_name: name,
    password: 'retirada-de-kit-9',
  };
  expect((await request.post('/api/users/', { data: account })).ok()).toBe(true);
  const { token } = await (
    await request.post('/api/token-auth/', {
      data: { username: account.username, password: account.password },
    })
  ).json();
  const draft = {
    nome_completo: name,
    // A CPF no other end-to-end test registers, so the shared demo data never collides.
    cpf: '271.828.182-05',
    data_nascimento: '1991-04-12',
    genero: 'Feminino',
    numero_contato: '(85) 98888-7777',
    email: account.email,
    evento: event.id,
    categoria_evento: [category.id],
    street: 'Rua do Sol, 10',
    zip_code: '60165-121',
    state: 'CE',
    city: 'Fortaleza',
    neighborhood: 'Meireles',
    // What every race asks besides the person: a shirt size left, an emergency contact, the termo.
    tamanho_camisa: event.kit.tamanhos.find((k) => k.quantidade_disponivel > 0)?.id,
    contato_emergencia_nome: 'Ana Contato',
    contato_emergencia_telefone: '(85) 96666-5555',
    aceite_termo: true,
    termo_versao: event.termo_versao,
  };
  const paid = await payWithPix(request, token, 'inscricao', draft);
  return { event, id: paid.inscricao_id as number };
}

test('a participant is checked in once; the CSV opens with the right accents', async ({ page, request }) => {
  const { event, id } = await paidRegistration(request, 'Conceição Gonçalves Araújo');
  expect(id).toBeGreaterThan(0);

  await signInStaff(page, STAFF.operator, '/painel/checkin');
  await expect(page.getByRole('heading', { level: 1, name: 'Check-in: retirada de kits' })).toBeVisible();

  // On a phone, by name typed without accents.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel('Nome ou CPF').fill('conceicao goncalves');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.getByRole('button', { name: 'Entregar kit de Conceição Gonçalves Araújo' }).click();
  await expect(page.getByRole('status')).toContainText('Kit entregue: Conceição Gonçalves Araújo.');
  await expect(page.getByText(/Retirado em \d\d\/\d\d\/\d{4}.* por Otávio Operador/)).toBeVisible();

  // The same registration again (its number, as under the QR code): refused, with who and when.
  await page.getByLabel('Número da inscrição (abaixo do QR code)').fill(String(id));
  await page.getByRole('button', { name: 'Entregar kit', exact: true }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Já retirado');
  await expect(alert).toContainText(/Kit já retirado em .* \(registrado por Otávio Operador\)\./);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/painel/eventos/${event.id}`);
  await expect(page.getByRole('cell', { name: 'Conceição Gonçalves Araújo' })).toBeVisible();
  await page.getByLabel('Situação do kit').selectOption('retirado');
  await expect(page.getByRole('cell', { name: 'Retirado (Otávio Operador)' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^participantes-[a-z0-9-]+\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]!.split(';').slice(0, 3)).toEqual(['Inscrição', 'Nome completo', 'CPF']);
  const row = lines.find((l) => l.startsWith(`${id};`))!.split(';');
  expect(row[1]).toBe('Conceição Gonçalves Araújo');
  expect(row[2]).toBe('271.828.182-05');
});
