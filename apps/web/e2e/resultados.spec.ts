import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { Event } from '@passada/core/contracts/events';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { createShopper, expectNoSeriousAxe, freshCpf, payWithPix, STAFF, signInStaff } from './fixtures.ts';

const RUN = Date.now().toString(36);

test('results at 390 px: the event page links them, a runner finds their place and opens their own page', async ({
  page,
  request,
}) => {
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.manager });
  expect(login.status()).toBe(200);
  const headers = { authorization: `Token ${((await login.json()) as { token: string }).token}` };
  // A race of its own, run today, so the event page already asks for its results.
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const created = await request.post('/api/painel/events/', {
    headers,
    data: {
      nome_evento: `Corrida dos Resultados ${RUN}`,
      organizer: 'Associação dos Corredores',
      city: 'Fortaleza',
      state: 'CE',
      prazo_inscricao: today,
      hora_evento: '06:00',
      descricao_evento: 'Corrida de rua com resultados publicados.',
      regulamento: 'Regulamento da corrida.',
      kit_tamanhos: [{ tamanho: 'M', capacidade: 20 }],
      dias_evento: [
        { data: today, categorias: [{ nome_categoria: '10 km', preco_inscricao: 50, capacidade: 50 }] },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const event = (await (await request.get(`/api/events/${(await created.json()).id}/`)).json()) as Event;
  const shopper = await createShopper(request, 'resultados');
  for (const [name, genero] of [
    ['Rita Resultado', 'Feminino'],
    ['Caio Chegada', 'Masculino'],
  ]) {
    await payWithPix(request, shopper.token, 'inscricao', {
      nome_completo: name,
      cpf: freshCpf(),
      data_nascimento: '1988-02-14',
      genero,
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
  }
  // Bibs in name order from 1: Caio 1, Rita 2.
  const bibs = await request.post(`/api/painel/events/${event.id}/numeros-de-peito/`, {
    headers,
    data: { modo: 'sequencia', inicio: 1 },
  });
  expect(bibs.status()).toBe(200);
  // Staff read the timer's file in the back office: a timer set once, a preview, then the publication.
  await signInStaff(page, STAFF.manager, `/painel/eventos/${event.id}/resultados`);
  await page.getByRole('button', { name: 'Cadastrar cronometragem' }).click();
  const newTimer = page.getByRole('form', { name: 'Nova cronometragem' });
  await newTimer.getByLabel('Nome da cronometragem').fill(`Chip ${RUN}`);
  await newTimer.getByLabel('Coluna do número de peito').fill('Peito');
  await newTimer.getByLabel('Coluna do tempo bruto').fill('Bruto');
  await newTimer.getByLabel('Coluna do tempo líquido (opcional)').fill('');
  await newTimer.getByLabel('Coluna da situação (opcional)').fill('');
  await newTimer.getByRole('button', { name: 'Salvar cronometragem' }).click();
  await expect(page.getByLabel('Cronometragem do arquivo')).toContainText(`Chip ${RUN}`);
  const file = page.getByRole('form', { name: 'Importar o arquivo da cronometragem' });
  await file.getByLabel('Arquivo da cronometragem (CSV ou TXT)').setInputFiles({
    name: 'chegada.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Peito;Bruto\n2;0:41:23\n1;0:44:10\n77;0:50:00\n'),
  });
  await file.getByRole('button', { name: 'Ler o arquivo (prévia)' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'prontas para publicar' })).toContainText(
    '2 de 3 linha(s) prontas para publicar',
  );
  const problems = page.getByRole('table', { name: 'Linhas sem participante' });
  await expect(problems.getByRole('row')).toHaveCount(2);
  await expect(problems.getByRole('row').nth(1)).toContainText('77');
  await expectNoSeriousAxe(page);
  await page.getByRole('button', { name: 'Publicar resultados' }).click();
  await expect(page.getByText(/^Resultados publicados: 2 linha\(s\)/)).toBeVisible();
  // The certificate's design: the band layout, signed; the sample downloads in it.
  const certificate = page.getByRole('form', { name: 'Certificado' });
  await certificate
    .getByRole('combobox', { name: 'Modelo' })
    .selectOption({ label: 'Faixa lateral: uma faixa na cor, texto à esquerda' });
  await certificate.getByRole('textbox', { name: 'Quem assina (nome)' }).fill('Marta Rocha');
  await certificate.getByRole('button', { name: 'Salvar certificado' }).click();
  await expect(
    certificate.getByText('Certificado salvo. Os próximos certificados saem neste modelo.'),
  ).toBeVisible();
  const sample = page.waitForEvent('download');
  await certificate.getByRole('button', { name: 'Baixar um certificado de exemplo' }).click();
  expect((await sample).suggestedFilename()).toBe('certificado-amostra.pdf');
  // The race's photos: one sent, tagged by hand with Rita's bib once the queue has resized it.
  const photos = page.getByRole('region', { name: '6. Fotos da prova' });
  const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3a7bd5' } })
    .jpeg()
    .toBuffer();
  await photos
    .getByLabel('Fotos (JPEG, PNG, WebP ou HEIC)')
    .setInputFiles({ name: 'chegada-0001.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await photos.getByRole('button', { name: 'Enviar fotos' }).click();
  await expect(photos.getByRole('status').filter({ hasText: 'Fotos enviadas' })).toHaveText(
    'Fotos enviadas: 1 de 1.',
  );
  await expect(photos.getByRole('img', { name: 'Foto chegada-0001.jpg' })).toBeVisible({ timeout: 30_000 });
  const tag = photos.getByRole('form', { name: 'Números da foto chegada-0001.jpg' });
  await tag.getByRole('textbox', { name: 'Números de peito em chegada-0001.jpg' }).fill('2');
  await tag.getByRole('button', { name: 'Salvar números' }).click();
  await expect(tag.getByRole('textbox', { name: 'Números de peito em chegada-0001.jpg' })).toHaveValue('2');
  await expectNoSeriousAxe(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/eventos/register/${event.id}`);
  await page.getByRole('link', { name: 'Resultados' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: `Resultados: Corrida dos Resultados ${RUN}` }),
  ).toBeVisible();
  const table = page.getByRole('table', { name: `Resultados de Corrida dos Resultados ${RUN}` });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').nth(1)).toContainText('1º');
  await expect(table.getByRole('row').nth(1)).toContainText('0:41:23');
  await expectNoSeriousAxe(page);
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByRole('searchbox', { name: 'Nome, número de peito ou equipe' }).fill('rita');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'resultado' })).toHaveText('1 resultado');
  await page.getByRole('link', { name: 'Rita Resultado' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Rita Resultado' })).toBeVisible();
  const race = page.getByRole('region', { name: /^10 km/ });
  await expect(race).toContainText('Colocação geral1º de 2');
  await expect(race).toContainText('Ritmo4:08/km');
  // Rita's photo, free, with the brand's mark, loaded on the phone.
  const mine = page.getByRole('region', { name: 'Fotos da prova' });
  const img = mine.getByRole('img', { name: 'Foto 1 de 1 de Rita Resultado na prova' });
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(800);
  await expectNoSeriousAxe(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
