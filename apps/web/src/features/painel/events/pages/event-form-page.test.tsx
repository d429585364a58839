import { EventInputSchema, EventUpdateSchema, type PainelEvent } from '@passada/core/contracts/painel';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import EventFormPage from './event-form-page.tsx';

/**
 * The back office's API for events as the server answers it: the body is checked with the server's own
 * contract, and a refusal carries one message per field path, as the API's error handler writes it.
 */
function eventsApi(stored?: PainelEvent) {
  return mockFetch(({ method, url, body }) => {
    if (stored && method === 'GET' && url === `/api/painel/events/${stored.id}/`)
      return { status: 200, body: stored };
    if ((method === 'POST' && url === '/api/painel/events/') || method === 'PUT') {
      const parsed = (method === 'PUT' ? EventUpdateSchema : EventInputSchema).safeParse(body);
      if (parsed.success)
        return {
          status: method === 'POST' ? 201 : 200,
          body: method === 'PUT' ? { ...stored, versao: (stored?.versao ?? 0) + 1 } : { id: 42 },
        };
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
      return { status: 400, body: { detail: 'Dados inválidos.', code: 'validation_error', errors } };
    }
    return undefined;
  });
}

const show = (path = '/painel/eventos/novo') =>
  renderRoutes(
    [
      { path: '/painel/eventos/novo', element: <EventFormPage /> },
      { path: '/painel/eventos/:id/editar', element: <EventFormPage /> },
    ],
    path,
  );
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
const saved = (calls: Call[]) => calls.filter((c) => c.method === 'POST' || c.method === 'PUT');

/** What every event needs besides its kit and lots: one day with one category. */
function fillEvent() {
  type('Nome do evento', 'Corrida das Jangadas');
  type('Organizador', 'Clube Passada');
  type('Cidade', 'Fortaleza');
  type('UF', 'ce');
  type('Prazo de inscrição', '2027-03-01');
  type('Descrição', 'Percurso plano pela Beira-Mar.');
  type('Regulamento', '1. Largada às 6h.');
  type('Data do dia 1', '2027-03-14');
  type('Nome da categoria 1 do dia 1', '10 km');
  type('Preço da categoria 1 do dia 1 (R$)', '119,90');
  type('Total de vagas da categoria 1 do dia 1', '300');
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('EventFormPage', () => {
  // The longest walk through the form (every list grows and shrinks): over the default 5 s on a busy machine.
  it('adds and removes kit sizes and lots, and sends prices and counts as the API takes them', async () => {
    const calls = eventsApi();
    const router = show();
    fillEvent();

    const kit = screen.getByRole('group', { name: 'Kit do atleta' });
    expect(within(kit).queryByLabelText(/Tamanho da camisa/)).toBeNull();
    click('Adicionar tamanho de camisa');
    click('Adicionar tamanho de camisa');
    type('Tamanho da camisa 1', 'P');
    type('Total de camisas 1', '40');
    type('Tamanho da camisa 2', 'GG');
    type('Total de camisas 2', '0');
    click('Remover tamanho 1');
    // The sizes left are numbered again from 1.
    expect(field('Tamanho da camisa 1').value).toBe('GG');
    expect(screen.queryByLabelText('Tamanho da camisa 2')).toBeNull();
    type('Local de retirada do kit', 'Aterro da Praia de Iracema');

    const where = 'da categoria 1 do dia 1';
    const lots = screen.getByRole('group', { name: `Lotes ${where}` });
    click(`Adicionar lote ${where}`);
    click(`Adicionar lote ${where}`);
    expect(within(lots).getAllByRole('button', { name: /^Remover lote/ })).toHaveLength(2);
    type(`Nome do lote 1 ${where}`, 'Pré-venda');
    type(`Nome do lote 2 ${where}`, '1º lote');
    type(`Preço do lote 2 ${where} (R$)`, '1.234,50');
    type(`Lote 2 ${where} vale até (inscrições vendidas)`, '200');
    click(`Remover lote 1 ${where}`);
    expect(field(`Nome do lote 1 ${where}`).value).toBe('1º lote');
    expect(within(lots).getAllByRole('button', { name: /^Remover lote/ })).toHaveLength(1);

    click('Salvar evento');
    expect((await screen.findByRole('status')).textContent).toBe('Evento salvo.');
    await waitFor(() => expect(router.state.location.pathname).toBe('/painel/eventos/42/editar'));
    const [post] = saved(calls);
    expect(post?.url).toBe('/api/painel/events/');
    expect(post?.body).toMatchObject({
      nome_evento: 'Corrida das Jangadas',
      state: 'ce',
      kit_tamanhos: [{ tamanho: 'GG', capacidade: 0 }],
      kit_local_retirada: 'Aterro da Praia de Iracema',
      dias_evento: [
        {
          data: '2027-03-14',
          categorias: [
            {
              nome_categoria: '10 km',
              preco_inscricao: 119.9,
              capacidade: 300,
              lotes: [{ nome: '1º lote', preco_inscricao: 1234.5, ate_data: null, ate_inscricoes: 200 }],
            },
          ],
        },
      ],
    });
  }, 20_000);

  it('shows the server’s messages on their fields and on their lists', async () => {
    const calls = eventsApi();
    show();
    fillEvent();
    type('Prazo de inscrição', '2027-03-20');
    click('Adicionar tamanho de camisa');
    type('Total de camisas 1', '10');
    click(`Adicionar lote da categoria 1 do dia 1`);
    type('Preço do lote 1 da categoria 1 do dia 1 (R$)', '89,90');
    click('Adicionar dia');
    type('Data do dia 2', '2027-03-14');
    type('Nome da categoria 1 do dia 2', '5 km');
    type('Preço da categoria 1 do dia 2 (R$)', '79,90');

    click('Salvar evento');
    expect((await screen.findByRole('alert')).textContent).toBe('Dados inválidos.');
    expect(saved(calls)).toHaveLength(1);
    const expectError = (label: string, message: string) => {
      const input = field(label);
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        message,
      );
    };
    expectError('Tamanho da camisa 1', 'Informe o tamanho.');
    expectError('Nome do lote 1 da categoria 1 do dia 1', 'Informe o nome do lote.');
    expectError('Prazo de inscrição', 'O prazo termina até o primeiro dia do evento.');
    expect(field('Nome da categoria 1 do dia 2').getAttribute('aria-invalid')).toBeNull();
    // A message about a whole list (two days on one date) shows under the list.
    expect(screen.getByText('Cada dia aparece uma vez.')).toBeTruthy();
    // Still the new event's form: nothing was created.
    expect(screen.getByRole('heading', { level: 1, name: 'Novo evento' })).toBeTruthy();
  });

  it('keeps what was typed after a refused save, and the corrected save goes through', async () => {
    const calls = eventsApi();
    show();
    fillEvent();
    type('Idade mínima da categoria 1 do dia 1 (anos, no dia da prova)', '7');
    type('Idade máxima da categoria 1 do dia 1 (anos, vazio: sem limite)', '12');
    // A relay of four runners (docs/decisions/0078), sent as the number the API takes.
    type('Revezamento da categoria 1 do dia 1', '4');
    click('Adicionar dia');
    type('Data do dia 2', '2027-03-14');
    type('Nome da categoria 1 do dia 2', '5 km');
    type('Preço da categoria 1 do dia 2 (R$)', '79,90');
    click('Salvar evento');
    // A message on a whole list, which the browser never validates itself.
    expect(await screen.findByText('Cada dia aparece uma vez.')).toBeTruthy();
    expect(field('Nome da categoria 1 do dia 2').value).toBe('5 km');

    type('Data do dia 2', '2027-03-15');
    click('Salvar evento');
    expect((await screen.findByRole('status')).textContent).toBe('Evento salvo.');
    expect(saved(calls)).toHaveLength(2);
    expect(saved(calls)[1]?.body).toMatchObject({
      dias_evento: [
        { categorias: [{ idade_minima: 7, idade_maxima: 12, revezamento: 4 }] },
        { categorias: [{ idade_minima: null, revezamento: null }] },
      ],
    });
  });

  it('generates the regulation and the termo from the categories typed', async () => {
    eventsApi();
    show();
    fillEvent();
    type('Nome da categoria 1 do dia 1', 'Kids 1 km');
    type('Idade mínima da categoria 1 do dia 1 (anos, no dia da prova)', '7');
    type('Idade máxima da categoria 1 do dia 1 (anos, vazio: sem limite)', '12');
    click('Gerar regulamento a partir das categorias');
    const regulation = (screen.getByLabelText('Regulamento') as HTMLTextAreaElement).value;
    expect(regulation).toMatch(/14\/03\/2027, Kids 1 km \(de 7 a 12 anos\): R\$\s119,90 \(300 vagas\)\./);
    expect(regulation).not.toContain('16 anos');
    click('Gerar termo a partir das categorias');
    expect(
      (
        screen.getByLabelText(
          'Termo de responsabilidade (vazio: o termo padrão da loja)',
        ) as HTMLTextAreaElement
      ).value,
    ).toContain('responsável legal');
  });

  /** An event as GET /api/painel/events/9/ answers it: 12 of its 500 places and 5 M shirts sold. */
  const storedEvent = (overrides: Partial<PainelEvent> = {}): PainelEvent => ({
    ...EventInputSchema.parse({
      nome_evento: 'Maratona do Sol',
      organizer: 'Clube Passada',
      city: 'Fortaleza',
      state: 'CE',
      prazo_inscricao: '2027-05-01',
      hora_evento: '05:30',
      descricao_evento: 'Percurso pela orla.',
      regulamento: 'Regras.',
      dias_evento: [
        {
          data: '2027-05-10',
          categorias: [{ nome_categoria: '21 km', preco_inscricao: 150, capacidade: 500 }],
        },
      ],
    }),
    id: 9,
    versao: 4,
    imagem_evento: '',
    dias_evento: [
      {
        data: '2027-05-10',
        categorias: [
          {
            id: 7,
            nome_categoria: '21 km',
            preco_inscricao: 150,
            capacidade: 500,
            idade_minima: 18,
            idade_maxima: null,
            vendidas: 12,
            restantes: 488,
            lotes: [{ nome: '1º lote', preco_inscricao: 120, ate_data: '2027-04-01', ate_inscricoes: null }],
          },
        ],
      },
    ],
    kit_tamanhos: [
      { id: 3, tamanho: 'M', capacidade: 20, vendidas: 5, restantes: 15 },
      { id: 4, tamanho: 'G', capacidade: 15, vendidas: 0, restantes: 15 },
    ],
    kit_local_retirada: 'Loja Aldeota',
    kit_horarios_retirada: 'Sábado, 9h às 17h',
    termo_responsabilidade: '',
    oferece_pcd: false,
    nfse_codigo_tributacao_nacional: '',
    nfse_nbs: '',
    inscricoes_fechadas: false,
    ...overrides,
  });

  it('edits a stored event with its sizes and lots, keeping their ids, totals and version', async () => {
    const stored = storedEvent();
    const calls = eventsApi(stored);
    show('/painel/eventos/9/editar');
    await waitFor(() => expect(field('Nome do evento').value).toBe('Maratona do Sol'));
    expect(screen.getByRole('heading', { level: 1, name: 'Editar evento' })).toBeTruthy();
    expect(field('Preço da categoria 1 do dia 1 (R$)').value).toBe('150,00');
    expect(field('Preço do lote 1 da categoria 1 do dia 1 (R$)').value).toBe('120,00');
    expect(field('Tamanho da camisa 2').value).toBe('G');
    // Totals are edited; what is sold and left is shown beside them, never sent.
    expect(field('Total de vagas da categoria 1 do dia 1').value).toBe('500');
    expect(screen.getByText('Vendidas: 12 · Restantes: 488')).toBeTruthy();
    expect(field('Total de camisas 1').value).toBe('20');
    expect(screen.getByText('Vendidas: 5 · Restantes: 15')).toBeTruthy();

    click('Remover tamanho 1');
    click('Remover lote 1 da categoria 1 do dia 1');
    click('Salvar evento');
    expect((await screen.findByRole('status')).textContent).toBe('Evento salvo.');
    const [put] = saved(calls);
    expect(put?.method).toBe('PUT');
    expect(put?.url).toBe('/api/painel/events/9/');
    expect(put?.body).toMatchObject({
      versao: 4,
      kit_tamanhos: [{ id: 4, tamanho: 'G', capacidade: 15 }],
      dias_evento: [{ categorias: [{ id: 7, preco_inscricao: 150, capacidade: 500, lotes: [] }] }],
    });
    expect(JSON.stringify(put?.body)).not.toMatch(/vendidas|restantes|quantidade_disponivel/);
  });

  it("shows the event's own NFS-e codes, the server's message for a wrong one, and sends them", async () => {
    const calls = eventsApi(storedEvent({ nfse_codigo_tributacao_nacional: '121301' }));
    show('/painel/eventos/9/editar');
    await waitFor(() => expect(field('Código de tributação nacional (cTribNac)').value).toBe('121301'));
    expect(field('Código NBS').value).toBe('');
    type('Código NBS', '1.2603.11');
    click('Salvar evento');
    expect(await screen.findByText('Código NBS tem 9 dígitos (ex.: 1.2603.11.00).')).toBeTruthy();
    type('Código NBS', '1.2603.11.00');
    click('Salvar evento');
    expect((await screen.findByRole('status')).textContent).toBe('Evento salvo.');
    expect(saved(calls).at(-1)?.body).toMatchObject({
      nfse_codigo_tributacao_nacional: '121301',
      nfse_nbs: '1.2603.11.00',
    });
  });

  it('a save refused because someone saved first keeps what was typed, says so and reloads on request', async () => {
    let current = storedEvent();
    const calls = mockFetch(({ method, url }) => {
      if (method === 'GET' && url === '/api/painel/events/9/') return { status: 200, body: current };
      if (method === 'PUT')
        return {
          status: 409,
          body: {
            code: 'versao_desatualizada',
            detail:
              'Este evento foi alterado por outra pessoa depois que você abriu o formulário. Recarregue a página para ver a versão atual; suas alterações não foram salvas.',
          },
        };
      return undefined;
    });
    show('/painel/eventos/9/editar');
    await waitFor(() => expect(field('Nome do evento').value).toBe('Maratona do Sol'));
    type('Nome do evento', 'Maratona do Sol Nascente');
    click('Salvar evento');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Este evento foi alterado por outra pessoa depois que você abriu o formulário. Recarregue a página para ver a versão atual; suas alterações não foram salvas.',
    );
    expect(field('Nome do evento').value).toBe('Maratona do Sol Nascente');

    current = storedEvent({ nome_evento: 'Maratona do Sol 2027', versao: 5 });
    click('Recarregar o evento');
    await waitFor(() => expect(field('Nome do evento').value).toBe('Maratona do Sol 2027'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(saved(calls).map((c) => (c.body as { versao: number }).versao)).toEqual([4]);
  });
});
