import type { RegistrationLookup } from '@passada/core/contracts/registrations';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import MyRegistrationsPage from './my-registrations-page.tsx';

const profile = { status: 200, body: { username: 'ana', email: 'ana@example.com', full_name: 'Ana' } };
const paidOnEventPage: RegistrationLookup = {
  id: 11,
  nome_completo: 'Ana Souza',
  email: 'ana@example.com',
  numero_contato: '(85) 99999-9999',
  evento_detalhes: { id: 7, nome_evento: 'Corrida da Ponte', data: '2026-12-06' },
  categoria_evento_detalhes: [{ id: 3, nome_categoria: '10 km' }],
  endereco: 'Av. Beira Mar, 100 - Meireles, Fortaleza - CE, 60165-121',
  tamanho_camisa: 'M',
  equipe: null,
  faixa_etaria: '30 a 34 anos',
  meia_entrada: false,
  pcd: false,
  kit_local_retirada: 'Ginásio Paulo Sarasate',
  kit_horarios_retirada: 'Sábado, 8h às 18h',
  // The list leaves the QR code out: the card asks for it (GET /api/inscricoes/11/qr-code/).
  cancelada_em: null,
  total: 89.9,
};
const cancelledInOrder: RegistrationLookup = {
  ...paidOnEventPage,
  id: 12,
  evento_detalhes: { id: 9, nome_evento: 'Meia do Sol', data: '2027-01-17' },
  qr_code: undefined,
  cancelada_em: '2026-11-20T15:30:00.000Z',
};

function serve(
  list: RegistrationLookup[] | (() => RegistrationLookup[]),
  more: Parameters<typeof mockFetch>[0] = () => undefined,
) {
  return mockFetch((call) => {
    const { url } = call;
    const answer = more(call);
    if (answer) return answer;
    if (url === '/api/users/profile/') return profile;
    if (url === '/api/pagamentos/') return { status: 200, body: [] };
    if (url === '/api/inscricoes/') return { status: 200, body: typeof list === 'function' ? list() : list };
    if (url === '/api/inscricoes/11/qr-code/')
      return { status: 200, body: { qr_code: 'data:image/png;base64,iVBORw0KGgo=' } };
    if (url.startsWith('/api/inscricoes/11/cancelamento/'))
      return {
        status: 200,
        body: {
          permitido: true,
          motivo: null,
          valor_pago: 89.9,
          valor_devolvido: 89.9,
          valor_retido: 0,
          arrependimento: true,
        },
      };
    return undefined;
  });
}

const show = () =>
  renderRoutes([{ path: '/user/inscricoes', element: <MyRegistrationsPage /> }], '/user/inscricoes');

beforeEach(() => localStorage.setItem('token', 'abc'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Minhas inscrições', () => {
  it('lists every registration of the account with its race day, ticket and actions; a cancelled one says so', async () => {
    serve([paidOnEventPage, cancelledInOrder]);
    show();
    const open = await screen.findByRole('region', {
      name: 'Corrida da Ponte, 06/12/2026 Inscrição nº 11 · Ana Souza',
    });
    expect(await within(open).findByRole('img', { name: 'QR code da inscrição nº 11' })).toBeTruthy();
    expect(within(open).getByText('Ginásio Paulo Sarasate')).toBeTruthy();
    expect(await within(open).findByRole('button', { name: 'Cancelar inscrição' })).toBeTruthy();

    const cancelled = screen.getByRole('region', { name: /^Meia do Sol, 17\/01\/2027 Inscrição nº 12/ });
    expect(cancelled.textContent).toMatch(/Inscrição cancelada em 20\/11\/2026/);
    expect(within(cancelled).queryByRole('img')).toBeNull();
    expect(within(cancelled).queryByRole('button', { name: 'Cancelar inscrição' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Inscrições' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows a paid runner their referral link to copy, how many count, and what came back', async () => {
    const link = 'http://localhost:3000/eventos/register/7?indicacao=11-abcdefghijklmnopqrstuv';
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    serve([
      {
        ...paidOnEventPage,
        indicacao: { link, minimo: 3, percentual: 20, confirmadas: 1, aguardando: 2, devolvido: null },
      },
      {
        ...paidOnEventPage,
        id: 13,
        evento_detalhes: { id: 9, nome_evento: 'Meia do Sol', data: '2027-01-17' },
        indicacao: { link, minimo: 3, percentual: 20, confirmadas: 3, aguardando: 0, devolvido: 17.98 },
      },
    ]);
    show();
    const waiting = await screen.findByRole('region', { name: 'Indicação da inscrição nº 11' });
    expect(within(waiting).getByRole('heading', { name: 'Indique e ganhe 20% de volta' })).toBeTruthy();
    expect(waiting.textContent).toContain('Depois de 3 inscrições pagas de outras pessoas pelo seu link');
    expect(waiting.textContent).toContain('1 confirmada de 3 · 2 aguardando os 7 dias');
    expect(within(waiting).getByText(link)).toBeTruthy();
    await userEvent.click(within(waiting).getByRole('button', { name: 'Copiar link de indicação' }));
    expect(writeText).toHaveBeenCalledWith(link);
    expect(within(waiting).getByRole('status').textContent).toBe('Link copiado.');
    const done = screen.getByRole('region', { name: 'Indicação da inscrição nº 13' });
    expect(done.textContent).toMatch(/Suas indicações chegaram a 3: R\$\s17,98 devolvidos/);
    expect(within(done).queryByRole('button', { name: 'Copiar link de indicação' })).toBeNull();
  });

  it('links each published result of the account in "Meus resultados"', async () => {
    serve([paidOnEventPage], ({ url }) =>
      url === '/api/resultados/meus/'
        ? {
            status: 200,
            body: [
              {
                evento_id: 7,
                evento: 'Corrida da Ponte',
                data: '2026-12-06',
                numero: 105,
                nome: 'Ana Souza',
                categoria: '10 km',
                situacao: 'OK',
                tempo: '0:48:10',
                colocacao_geral: 12,
                inscricao: 31,
                proxima_edicao: null,
              },
            ],
          }
        : undefined,
    );
    show();
    const mine = await screen.findByRole('region', { name: 'Meus resultados' });
    const link = within(mine).getByRole('link', { name: 'Ana Souza: Corrida da Ponte, 10 km' });
    expect(link.getAttribute('href')).toBe('/eventos/resultados/7/105');
    expect(mine.textContent).toContain('0:48:10, 12º no geral');
    expect(within(mine).queryByRole('button')).toBeNull();
  });

  it("pre-registers a result's runner in the next edition in one click, and shows a refusal in the shop's words", async () => {
    const result = (nome: string, inscricao: number) => ({
      evento_id: 7,
      evento: 'Corrida da Ponte',
      data: '2026-12-06',
      numero: inscricao,
      nome,
      categoria: '10 km',
      situacao: 'OK',
      tempo: '0:48:10',
      colocacao_geral: 12,
      inscricao,
      proxima_edicao: { id: 9, nome: 'Corrida da Ponte 2027', data: '2027-12-05' },
    });
    const posted: string[] = [];
    serve([paidOnEventPage], ({ url, method }) => {
      if (url === '/api/resultados/meus/')
        return { status: 200, body: [result('Ana Souza', 31), result('Bia Lima', 32)] };
      if (method !== 'POST') return undefined;
      posted.push(url);
      return url === '/api/resultados/meus/31/proxima-edicao/'
        ? {
            status: 201,
            body: {
              modo: 'sorteio',
              evento: { id: 9, nome: 'Corrida da Ponte 2027' },
              categoria: '10 km',
              mensagem: 'Ana Souza está no sorteio de Corrida da Ponte 2027, 10 km.',
            },
          }
        : {
            status: 409,
            body: { detail: 'Ainda há vagas nesta categoria: faça a inscrição.', code: 'vagas_disponiveis' },
          };
    });
    show();
    const mine = await screen.findByRole('region', { name: 'Meus resultados' });
    await userEvent.click(
      within(mine).getByRole('button', { name: 'Pré-inscrever Ana Souza em Corrida da Ponte 2027' }),
    );
    expect((await within(mine).findByRole('status')).textContent).toBe(
      'Ana Souza está no sorteio de Corrida da Ponte 2027, 10 km.',
    );
    expect(within(mine).queryByRole('button', { name: /Ana Souza/ })).toBeNull();
    await userEvent.click(
      within(mine).getByRole('button', { name: 'Pré-inscrever Bia Lima em Corrida da Ponte 2027' }),
    );
    const refused = await within(mine).findByRole('alert');
    expect(refused.textContent).toContain('Ainda há vagas nesta categoria: faça a inscrição.');
    expect(within(refused).getByRole('link', { name: 'Ver a próxima edição' }).getAttribute('href')).toBe(
      '/eventos/register/9',
    );
    expect(posted).toEqual([
      '/api/resultados/meus/31/proxima-edicao/',
      '/api/resultados/meus/32/proxima-edicao/',
    ]);
  });

  it('says, once a transferred registration is cancelled, what returns to the runner and what to whoever paid it', async () => {
    let list = [paidOnEventPage];
    serve(
      () => list,
      ({ url, method }) => {
        if (url !== '/api/inscricoes/11/cancelar/' || method !== 'POST') return undefined;
        list = [{ ...paidOnEventPage, cancelada_em: '2026-11-21T10:00:00.000Z' }];
        return {
          status: 200,
          body: {
            permitido: false,
            motivo: 'Esta inscrição já foi cancelada.',
            valor_pago: 89.9,
            valor_devolvido: 89.9,
            valor_retido: 0,
            arrependimento: true,
            devolvido_a_voce: 20,
            devolvido_a_quem_pagou: 69.9,
          },
        };
      },
    );
    show();
    const card = await screen.findByRole('region', {
      name: /^Corrida da Ponte, 06\/12\/2026 Inscrição nº 11/,
    });
    await userEvent.click(await within(card).findByRole('button', { name: 'Cancelar inscrição' }));
    await userEvent.click(await within(card).findByRole('button', { name: 'Confirmar cancelamento' }));
    await within(card).findByText(/Inscrição cancelada em 21\/11\/2026/);
    expect(within(card).getByRole('status').textContent).toMatch(
      /R\$\s20,00 voltam para você, R\$\s69,90 para quem pagou a inscrição/,
    );
  });

  it('says before confirming what of a transferred registration returns to the runner and what to whoever paid it', async () => {
    serve([paidOnEventPage], ({ url }) =>
      url.startsWith('/api/inscricoes/11/cancelamento/')
        ? {
            status: 200,
            body: {
              permitido: true,
              motivo: null,
              valor_pago: 130,
              valor_devolvido: 130,
              valor_retido: 0,
              arrependimento: true,
              devolvido_a_voce: 70,
              devolvido_a_quem_pagou: 60,
            },
          }
        : undefined,
    );
    show();
    const card = await screen.findByRole('region', {
      name: /^Corrida da Ponte, 06\/12\/2026 Inscrição nº 11/,
    });
    await userEvent.click(await within(card).findByRole('button', { name: 'Cancelar inscrição' }));
    expect(await within(card).findByRole('button', { name: 'Confirmar cancelamento' })).toBeTruthy();
    expect(
      within(card).getByText(
        /Se cancelar: R\$\s70,00 voltam para você, R\$\s60,00 para quem pagou a inscrição/,
      ),
    ).toBeTruthy();
    expect(within(card).queryByText(/Você recebe de volta R\$\s130,00/)).toBeNull();
  });

  it('points to the races when the account has none', async () => {
    serve([]);
    show();
    expect(await screen.findByText(/Você ainda não fez nenhuma inscrição/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Veja as corridas abertas' }).getAttribute('href')).toBe(
      '/eventos',
    );
  });
});
