import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { EventInput, PainelEvent } from '@passada/core/contracts/painel';
import { expect, test } from '@playwright/test';
import { STAFF, signInStaff } from './fixtures.ts';

const STALE =
  'Este evento foi alterado por outra pessoa depois que você abriu o formulário. Recarregue a página para ver a versão atual; suas alterações não foram salvas.';

test('two people edit the same event: the second save is refused with the 409 message and nothing of it is written', async ({
  page,
  request,
}) => {
  // An event of its own, created through the back office's API, so no other spec sees it change.
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const headers = { authorization: `Token ${(await login.json()).token}` };
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const name = `Corrida das Versões ${Date.now().toString(36)}`;
  const body: EventInput = {
    nome_evento: name,
    organizer: 'Clube Passada',
    city: 'Fortaleza',
    state: 'CE',
    prazo_inscricao: addDays(today, 150),
    hora_evento: '05:30',
    descricao_evento: 'Percurso pela Beira-Mar.',
    regulamento: '1. Largada às 5h30.',
    kit_tamanhos: [{ tamanho: 'M', capacidade: 144 }],
    dias_evento: [
      {
        data: addDays(today, 160),
        categorias: [{ nome_categoria: '10 km', preco_inscricao: 39.9, capacidade: 195 }],
      },
    ],
  };
  const created = await request.post('/api/painel/events/', { headers, data: body });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  const path = `/painel/eventos/${id}/editar`;

  // Ana opens the form, and so does a second tab of the back office (the same sign-in).
  await signInStaff(page, STAFF.admin, path);
  await expect(page.getByLabel('Nome do evento')).toHaveValue(name);
  const other = await page.context().newPage();
  await other.goto(path);
  await expect(other.getByLabel('Nome do evento')).toHaveValue(name);
  await expect(other.getByLabel('Total de vagas da categoria 1 do dia 1')).toHaveValue('195');
  await expect(other.getByText('Vendidas: 0 · Restantes: 195')).toHaveCount(1);

  // The first tab saves a new name and more places.
  await page.getByLabel('Nome do evento').fill(`${name} (nova data)`);
  await page.getByLabel('Total de vagas da categoria 1 do dia 1').fill('200');
  await page.getByRole('button', { name: 'Salvar evento' }).click();
  await expect(page.getByRole('status')).toHaveText('Evento salvo.');

  // The second, opened before that save, is refused: the message, and what was typed is still there.
  await other.getByLabel('Total de camisas 1').fill('150');
  await other.getByLabel('Descrição').fill('Texto da segunda aba.');
  await other.getByRole('button', { name: 'Salvar evento' }).click();
  await expect(other.getByRole('alert')).toHaveText(STALE);
  await expect(other.getByLabel('Descrição')).toHaveValue('Texto da segunda aba.');
  await expect(other.getByLabel('Total de camisas 1')).toHaveValue('150');

  // Nothing of the refused save was written; the first save is all there.
  const stored = (await (await request.get(`/api/painel/events/${id}/`, { headers })).json()) as PainelEvent;
  expect(stored).toMatchObject({
    nome_evento: `${name} (nova data)`,
    descricao_evento: 'Percurso pela Beira-Mar.',
    kit_tamanhos: [{ tamanho: 'M', capacidade: 144 }],
    dias_evento: [{ categorias: [{ capacidade: 200, restantes: 200 }] }],
  });

  // Reloading shows the current version, and saving from it works.
  await other.getByRole('button', { name: 'Recarregar o evento' }).click();
  await expect(other.getByLabel('Nome do evento')).toHaveValue(`${name} (nova data)`);
  await expect(other.getByLabel('Total de vagas da categoria 1 do dia 1')).toHaveValue('200');
  await expect(other.getByRole('alert')).toHaveCount(0);
  await other.getByLabel('Total de camisas 1').fill('150');
  await other.getByRole('button', { name: 'Salvar evento' }).click();
  await expect(other.getByRole('status')).toHaveText('Evento salvo.');
  await expect(other.getByText('Vendidas: 0 · Restantes: 150')).toHaveCount(1);
});
