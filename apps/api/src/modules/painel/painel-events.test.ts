import { ParticipantListSchema } from '@passada/core/contracts/painel';
import { ageGroup } from '@passada/core/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-22T12:00:00Z');

describe('painel: participants, CSV and check-in', () => {
  let t: TestApp;
  let user: TestUser;
  let operator: TestStaff;
  let event: MadeEvent;
  const ids: Record<string, number> = {};

  async function registerPaid(name: string, cpfBase: number, categories: number[]) {
    const draft = participant(event, categories, { nome_completo: name, cpf: cpfFrom(cpfBase) });
    const price = await registrationPix(t.app, draft, 0.01, user.headers);
    // The server answers the right total when the browser's differs; pay that.
    const total = price.json().total_correto;
    const pix = await registrationPix(t.app, draft, total, user.headers);
    const paid = await simulatePixPaid(t.app, pix.json().txid);
    return paid.json().inscricao_id as number;
  }

  beforeAll(async () => {
    t = await createTestApp({ now: () => START });
    user = await createUserAndToken(t.app);
    // Participants and their CSV are for who runs events (PERSONAL_DATA_PERMISSIONS): a manager reads them.
    operator = await createStaffAndLogin(t.app, 'gerente');
    event = await makeEvent(t.app.db, {
      name: 'Meia Maratona de São João',
      today: '2026-11-22',
      days: [[{ name: '5 km' }, { name: '21 km' }], [{ name: 'Kids' }]],
    });
    const [five, half] = event.days[0]!.categories;
    const kids = event.days[1]!.categories[0]!;
    ids.joao = await registerPaid('João Araújo; "Jota"', 100000001, [five!.id, kids.id]);
    ids.conceicao = await registerPaid('Maria da Conceição', 100000002, [half!.id]);
    ids.ines = await registerPaid('Inês Gonçalves', 100000003, [half!.id]);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: operator.headers });

  it('lists participants with filters, search by name or CPF and counts per category', async () => {
    expect(Object.values(ids).every((id) => id > 0)).toBe(true);
    const all = ParticipantListSchema.parse(
      (await get(`/api/painel/events/${event.id}/participants/`)).json(),
    );
    expect(all.results.map((p) => p.nome_completo)).toEqual([
      'Inês Gonçalves',
      'João Araújo; "Jota"',
      'Maria da Conceição',
    ]);
    expect(all.contagem.map((c) => [c.nome, c.inscritos])).toEqual([
      ['5 km', 1],
      ['21 km', 2],
      ['Kids', 1],
    ]);
    const half = event.days[0]!.categories[1]!.id;
    const byCategory = (await get(`/api/painel/events/${event.id}/participants/?categoria=${half}`)).json();
    expect(byCategory.results).toHaveLength(2);
    const byDay = (
      await get(`/api/painel/events/${event.id}/participants/?dia=${event.days[1]!.date}`)
    ).json();
    expect(byDay.results.map((p: { id: number }) => p.id)).toEqual([ids.joao]);
    const byName = (await get(`/api/painel/events/${event.id}/participants/?busca=conceição`)).json();
    expect(byName.results.map((p: { id: number }) => p.id)).toEqual([ids.conceicao]);
    const cpf = cpfFrom(100000003);
    const byCpf = (
      await get(`/api/painel/events/${event.id}/participants/?busca=${cpf.slice(0, 3)}.${cpf.slice(3, 6)}`)
    ).json();
    expect(byCpf.results.map((p: { id: number }) => p.id)).toContain(ids.ines);
  });

  it('checks a participant in once; a second try says already picked up, with who and when', async () => {
    // The signed QR code's own checks are in painel-checkin.test.ts; here, by number after a search.
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/painel/checkin/',
      headers: operator.headers,
      payload: { evento: event.id, inscricao: ids.conceicao },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().retirada).toMatchObject({ at: START.toISOString(), staff_name: expect.any(String) });
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/painel/checkin/',
      headers: operator.headers,
      payload: { evento: event.id, inscricao: ids.conceicao },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('ja_retirado');
    expect(second.json().detail).toMatch(
      /^Kit já retirado em 22\/11\/2026.+09:00 \(registrado por Equipe \d+\)\.$/,
    );

    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/painel/checkin/',
      headers: operator.headers,
      payload: { evento: event.id, codigo: 'https://example.com/qualquer' },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().detail).toBe('Este QR code não é de uma inscrição da Passada.');
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/painel/checkin/',
      headers: operator.headers,
      payload: { evento: event.id, inscricao: 999_999 },
    });
    expect(unknown.statusCode).toBe(404);

    const picked = (await get(`/api/painel/events/${event.id}/participants/?status=retirado`)).json();
    expect(picked.results.map((p: { id: number }) => p.id)).toEqual([ids.conceicao]);
    const pending = (await get(`/api/painel/events/${event.id}/participants/?status=pendente`)).json();
    expect(pending.results).toHaveLength(2);
    for (const typed of ['ines', 'INÊS', 'gonçalves']) {
      const found = (
        await get(`/api/painel/checkin/search/?evento=${event.id}&busca=${encodeURIComponent(typed)}`)
      ).json();
      expect(found.map((p: { id: number }) => p.id)).toEqual([ids.ines]);
    }
  });

  it('exports a CSV that Excel pt-BR opens: UTF-8 BOM, semicolons, quoted where needed', async () => {
    const res = await get(`/api/painel/events/${event.id}/participants.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="participantes-meia-maratona-de-sao-joao.csv"',
    );
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(
      'Inscrição;Nome completo;CPF;Nascimento;Gênero;E-mail;Telefone;Cidade;UF;Categoria;Dia;Valor pago (R$);Inscrito em;Kit retirado em;Faixa etária;Camisa;Equipe;PCD;Meia-entrada 60+;Gratuita;Número de peito;Contato de emergência;Telefone de emergência;Idade na prova;Faixa etária (cronometragem);Alterações;Onda de largada;Tempo estimado',
    );
    // João has two categories: one line each, his name quoted because it holds ; and ".
    const joao = lines.filter((l) => l.startsWith(`${ids.joao};`));
    expect(joao).toHaveLength(2);
    expect(joao[0]).toContain(';"João Araújo; ""Jota""";');
    const maria = lines.find((l) => l.startsWith(`${ids.conceicao};`))!.split(';');
    expect(maria[1]).toBe('Maria da Conceição');
    expect(maria[3]).toBe('10/05/1990');
    expect(maria[11]).toMatch(/^\d+,\d{2}$/);
    expect(maria[13]).toMatch(/^22\/11\/2026/);
    expect(maria.slice(14)).toEqual([
      ageGroup('1990-05-10', event.startDate),
      '',
      '',
      'Não',
      'Não',
      'Não',
      '',
      'João da Silva',
      '(85) 98888-7777',
      '36',
      'F35-39',
      '',
      // No start waves in this event: no wave, no estimate (docs/decisions/0066).
      '',
      '',
    ]);
    expect(lines.at(-1)).toBe('');
  });

  it('lets admins create and edit events with days and categories, keeping registered categories', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const body = {
      nome_evento: 'Corrida das Dunas',
      organizer: 'Clube Passada',
      city: 'Natal',
      state: 'rn',
      prazo_inscricao: '2026-12-10',
      hora_evento: '05:30',
      descricao_evento: 'Percurso à beira-mar.',
      regulamento: '1. Largada às 5h30.',
      dias_evento: [
        {
          data: '2026-12-12',
          categorias: [{ nome_categoria: '5 km', preco_inscricao: 79.9, capacidade: 300 }],
        },
        {
          data: '2026-12-13',
          categorias: [
            {
              nome_categoria: '10 km',
              preco_inscricao: 99.9,
              capacidade: 200,
              lotes: [
                { nome: '1º lote', preco_inscricao: 79.9, ate_data: '2026-12-01', ate_inscricoes: 100 },
              ],
            },
          ],
        },
      ],
      kit_tamanhos: [
        { tamanho: 'P', capacidade: 50 },
        { tamanho: 'M', capacidade: 0 },
      ],
      kit_local_retirada: 'Arena das Dunas',
      kit_horarios_retirada: '10/12, das 10h às 20h',
      oferece_pcd: true,
    };
    const byOperator = await t.app.inject({
      method: 'POST',
      url: '/api/painel/events/',
      headers: (await createStaffAndLogin(t.app, 'operador')).headers,
      payload: body,
    });
    expect(byOperator.statusCode).toBe(403);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/painel/events/',
      headers: admin.headers,
      payload: body,
    });
    expect(created.statusCode).toBe(201);
    const dunas = created.json();
    expect(dunas).toMatchObject({
      state: 'RN',
      start_data_evento: '2026-12-12',
      end_data_evento: '2026-12-13',
    });
    const shop = (await t.app.inject({ method: 'GET', url: `/api/events/${dunas.id}/` })).json();
    // The 1st lot is in force (the test's clock is before 01/12), the full price comes after it.
    expect(shop.dias_evento[1].categorias[0]).toMatchObject({
      nome_categoria: '10 km',
      preco_inscricao: 79.9,
      quantidade_disponivel: 200,
      lote_atual: { nome: '1º lote', descricao: '1º lote até 01/12 ou 100 inscrições', preco: 79.9 },
      proximo_preco: { nome: null, preco: 99.9 },
    });
    expect(shop.kit).toMatchObject({
      tamanhos: [
        { tamanho: 'P', quantidade_disponivel: 50 },
        { tamanho: 'M', quantidade_disponivel: 0 },
      ],
      local_retirada: 'Arena das Dunas',
      horarios_retirada: '10/12, das 10h às 20h',
    });
    expect(shop.oferece_pcd).toBe(true);

    // The back office's form reads the event as stored: the category's own price, not the lot in force,
    // places and shirts as totals with what is sold and left beside them, and the version to send back.
    const forForm = (
      await t.app.inject({ method: 'GET', url: `/api/painel/events/${dunas.id}/`, headers: operator.headers })
    ).json();
    expect(forForm.dias_evento[1].categorias[0]).toEqual({
      id: dunas.dias_evento[1].categorias[0].id,
      nome_categoria: '10 km',
      preco_inscricao: 99.9,
      capacidade: 200,
      idade_minima: null,
      idade_maxima: null,
      revezamento: null,
      vendidas: 0,
      restantes: 200,
      lotes: [{ nome: '1º lote', preco_inscricao: 79.9, ate_data: '2026-12-01', ate_inscricoes: 100 }],
    });
    expect(forForm).toMatchObject({
      versao: 1,
      state: 'RN',
      // The generated poster is not an upload: the form sends it back empty and it follows the name.
      imagem_evento: '',
      kit_tamanhos: [
        { id: expect.any(Number), tamanho: 'P', capacidade: 50, vendidas: 0, restantes: 50 },
        { id: expect.any(Number), tamanho: 'M', capacidade: 0, vendidas: 0, restantes: 0 },
      ],
      kit_local_retirada: 'Arena das Dunas',
      kit_horarios_retirada: '10/12, das 10h às 20h',
      termo_responsabilidade: '',
      oferece_pcd: true,
    });

    const fiveId = dunas.dias_evento[0].categorias[0].id;
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${dunas.id}/`,
      headers: admin.headers,
      payload: {
        ...body,
        versao: forForm.versao,
        dias_evento: [
          {
            data: '2026-12-12',
            categorias: [
              { id: fiveId, nome_categoria: '5 km solidária', preco_inscricao: 59.9, capacidade: 250 },
            ],
          },
        ],
      },
    });
    expect(edited.statusCode).toBe(200);
    // The answer is the form's own reading of what was saved, with the next version.
    expect(edited.json().versao).toBe(2);
    expect(edited.json().dias_evento).toEqual([
      {
        data: '2026-12-12',
        categorias: [
          {
            id: fiveId,
            nome_categoria: '5 km solidária',
            preco_inscricao: 59.9,
            capacidade: 250,
            vendidas: 0,
            restantes: 250,
            lotes: [],
            // Not sent: no age limit, not a relay.
            idade_minima: null,
            idade_maxima: null,
            revezamento: null,
          },
        ],
      },
    ]);
    // Sizes sent again by name keep their rows; a form that leaves the kit out keeps it as stored.
    const sizeIds = edited.json().kit_tamanhos.map((k: { id: number }) => k.id);
    expect(sizeIds).toEqual(shop.kit.tamanhos.map((k: { id: number }) => k.id));
    const { kit_tamanhos: _kit, ...withoutKit } = body;
    const again = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${dunas.id}/`,
      headers: admin.headers,
      payload: {
        ...withoutKit,
        versao: 2,
        dias_evento: [
          {
            data: '2026-12-12',
            categorias: [{ id: fiveId, nome_categoria: '5 km', preco_inscricao: 59.9, capacidade: 250 }],
          },
        ],
      },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().kit_tamanhos.map((k: { id: number }) => k.id)).toEqual(sizeIds);

    const late = await t.app.inject({
      method: 'POST',
      url: '/api/painel/events/',
      headers: admin.headers,
      payload: { ...body, prazo_inscricao: '2026-12-20' },
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().errors.prazo_inscricao).toBe('O prazo termina até o primeiro dia do evento.');

    // A form still sending what is left (the old field) is refused, never taken as a total.
    const oldForm = await t.app.inject({
      method: 'POST',
      url: '/api/painel/events/',
      headers: admin.headers,
      payload: {
        ...body,
        dias_evento: [
          {
            data: '2026-12-12',
            categorias: [{ nome_categoria: '5 km', preco_inscricao: 10, quantidade_disponivel: 5 }],
          },
        ],
      },
    });
    expect(oldForm.statusCode).toBe(400);
    expect(oldForm.json().errors['dias_evento.0.categorias.0.capacidade']).toBe(
      'Informe o total de vagas da categoria.',
    );

    // A category people registered in cannot disappear.
    const withPeople = (
      await t.app.inject({ method: 'GET', url: `/api/painel/events/${event.id}/`, headers: admin.headers })
    ).json();
    const dropRegistered = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${event.id}/`,
      headers: admin.headers,
      payload: {
        ...body,
        versao: withPeople.versao,
        nome_evento: withPeople.nome_evento,
        prazo_inscricao: withPeople.prazo_inscricao,
        dias_evento: [
          {
            data: withPeople.dias_evento[0]!.data,
            categorias: [{ nome_categoria: 'Nova', preco_inscricao: 10, capacidade: 5 }],
          },
        ],
      },
    });
    expect(dropRegistered.statusCode).toBe(409);
    expect(dropRegistered.json().code).toBe('categoria_com_inscritos');
    expect((await t.app.events.getEvent(event.id)).nome_evento).toBe('Meia Maratona de São João');
  });
});
