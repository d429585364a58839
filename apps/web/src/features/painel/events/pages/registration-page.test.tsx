import {
  type PainelRegistrationDetail,
  PainelRegistrationDetailSchema,
  RegistrationCancelSchema,
} from '@passada/core/contracts/painel';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import RegistrationPage from './registration-page.tsx';

/** A direct registration paid by Pix, as `GET /api/painel/registrations/:id/` answers it. */
function detail(overrides: Partial<PainelRegistrationDetail['inscricao']> = {}, extra = {}) {
  return PainelRegistrationDetailSchema.parse({
    inscricao: {
      id: 31,
      evento: 4,
      nome_completo: 'Rita Corredora',
      cpf: '403.644.788-29',
      data_nascimento: '1990-05-10',
      genero: 'Feminino',
      email: 'rita@example.com',
      numero_contato: '(85) 99999-9999',
      cidade: 'Fortaleza',
      estado: 'CE',
      categorias: [{ id: 7, nome: '10 km', dia: '2026-12-20' }],
      total: 109.9,
      criado_em: '2026-11-24T13:00:00.000Z',
      retirada: null,
      faixa_etaria: '35 a 39 anos',
      meia_entrada: false,
      tamanho_camisa: 'M',
      equipe: null,
      pcd: false,
      contato_emergencia: null,
      ...overrides,
    },
    evento: { id: 4, nome: 'Corrida da Ponte' },
    pagamento: { txid: 'tx31', metodo: 'pix', status: 'CONCLUIDA', valor: 109.9, devolucao: null },
    cancela: [{ id: 31, nome_completo: 'Rita Corredora' }],
    impedimento_cancelamento: null,
    ...extra,
  });
}

/** The page inside the painel's layout, which hands it the signed-in person (from /auth/me/). */
const show = (role: 'admin' | 'operador' = 'admin') =>
  renderRoutes(
    [
      {
        element: (
          <Outlet
            context={{
              staff: { id: 1, email: 'x@passada.com.br', name: 'X', role, totp_enabled: false, active: true },
              precisa_ativar_2fa: false,
            }}
          />
        ),
        children: [{ path: '/painel/inscricoes/:id', element: <RegistrationPage /> }],
      },
    ],
    '/painel/inscricoes/31',
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RegistrationPage', () => {
  it('cancels after the confirmation, sending only the id in the URL and the reason', async () => {
    const cancelled = detail(
      { cancelamento: { em: '2026-11-24T14:00:00.000Z', motivo: 'Desistiu' } },
      {
        pagamento: {
          txid: 'tx31',
          metodo: 'pix',
          status: 'DEVOLVIDA',
          valor: 109.9,
          devolucao: { status: 'DEVOLVIDO', valor: 109.9, motivo: 'Inscrição cancelada pela loja: Desistiu' },
        },
        impedimento_cancelamento: 'Esta inscrição já foi cancelada.',
      },
    );
    const calls = mockFetch(({ method, url, body }) => {
      if (method === 'GET' && url === '/api/painel/registrations/31/') return { status: 200, body: detail() };
      if (method === 'POST' && url === '/api/painel/registrations/31/cancel/') {
        expect(RegistrationCancelSchema.safeParse(body).success).toBe(true);
        return { status: 200, body: cancelled };
      }
      return undefined;
    });
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm);
    show();

    expect(await screen.findByRole('heading', { level: 1, name: 'Inscrição nº 31' })).toBeTruthy();
    const region = screen.getByRole('region', { name: 'Cancelamento' });
    expect(region.textContent).toContain('Cancelar devolve o pagamento inteiro (R$');
    // Dismissed: nothing is sent.
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar inscrição' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Motivo do cancelamento (opcional)'), {
      target: { value: '  Desistiu  ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar inscrição' }));
    expect(confirm).toHaveBeenLastCalledWith(
      expect.stringMatching(
        /^Cancelar a inscrição nº 31 de Rita Corredora e devolver R\$\s109,90 por Pix\?$/,
      ),
    );
    expect(await screen.findByText('Inscrição cancelada; a devolução do pagamento foi pedida.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ motivo: 'Desistiu' }]);
    expect(screen.getByTestId('registration-status').textContent).toBe('Cancelada');
    expect(screen.getByTestId('refund').textContent).toContain('DEVOLVIDO');
    expect(screen.queryByRole('button', { name: 'Cancelar inscrição' })).toBeNull();
  });

  it('a transferred registration: the page, the confirmation and the answer say what returns to the holder and to who paid before', async () => {
    const split = { valor_devolvido: 130, devolvido_a_voce: 70, devolvido_a_quem_pagou: 60 };
    const before = detail({}, { devolucao_cancelamento: split });
    const after = detail(
      { cancelamento: { em: '2026-11-24T14:00:00.000Z', motivo: null } },
      { impedimento_cancelamento: 'Esta inscrição já foi cancelada.', devolucao_cancelamento: split },
    );
    mockFetch(({ method, url }) =>
      method === 'GET' && url === '/api/painel/registrations/31/'
        ? { status: 200, body: before }
        : method === 'POST' && url === '/api/painel/registrations/31/cancel/'
          ? { status: 200, body: after }
          : undefined,
    );
    const confirm = vi.fn().mockReturnValue(true);
    vi.stubGlobal('confirm', confirm);
    show();
    const region = await screen.findByRole('region', { name: 'Cancelamento' });
    expect(region.textContent).toMatch(
      /Cancelar devolve tudo o que foi pago \(R\$\s130,00\): R\$\s70,00 voltam para o titular da inscrição, R\$\s60,00 para quem pagou a inscrição antes da transferência/,
    );
    expect(region.textContent).not.toContain('109,90');
    fireEvent.click(within(region).getByRole('button', { name: 'Cancelar inscrição' }));
    expect(confirm).toHaveBeenCalledWith(expect.stringMatching(/e devolver R\$\s130,00 \(R\$\s70,00 voltam/));
    expect((await within(region).findByRole('status')).textContent).toMatch(
      /Inscrição cancelada; a devolução foi pedida: R\$\s70,00 voltam para o titular da inscrição, R\$\s60,00 para quem pagou a inscrição antes da transferência\./,
    );
  });

  it('a registration paid in an order points to the order instead of a cancel button', async () => {
    mockFetch(({ method, url }) =>
      method === 'GET' && url === '/api/painel/registrations/31/'
        ? {
            status: 200,
            body: detail(
              { pedido_id: 1007 },
              { impedimento_cancelamento: 'Esta inscrição foi paga com o pedido nº 1007: cancele o pedido.' },
            ),
          }
        : undefined,
    );
    show();
    expect(await screen.findByText(/foi paga com o pedido nº 1007/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Abrir o pedido nº 1007' }).getAttribute('href')).toBe(
      '/painel/pedidos/1007',
    );
    expect(screen.queryByRole('button', { name: 'Cancelar inscrição' })).toBeNull();
  });

  it('a team’s place says the team paid it, or what the runner paid of it', async () => {
    const answer = (valor: number) =>
      mockFetch(({ method, url }) =>
        method === 'GET' && url === '/api/painel/registrations/31/'
          ? {
              status: 200,
              body: detail(
                { equipe: 'Assessoria Vento Norte', vaga_de_equipe: true, total: valor },
                {
                  pagamento: {
                    txid: 'tx31',
                    metodo: valor === 0 ? 'gratuito' : 'pix',
                    status: 'CONCLUIDA',
                    valor,
                    devolucao: null,
                  },
                },
              ),
            }
          : undefined,
      );
    answer(0);
    show();
    expect(await screen.findByText('Paga pela equipe Assessoria Vento Norte')).toBeTruthy();
    expect(screen.queryByText('Gratuita')).toBeNull();
    cleanup();
    vi.unstubAllGlobals();
    answer(43.96);
    show();
    expect(
      await screen.findByText(/R\$\s43,96: a parte do corredor \(o restante pago pela equipe\)/),
    ).toBeTruthy();
  });

  it('when the payment paid several registrations, the page and the confirmation name them all', async () => {
    const calls = mockFetch(({ method, url }) =>
      method === 'GET' && url === '/api/painel/registrations/31/'
        ? {
            status: 200,
            body: detail(
              {},
              {
                cancela: [
                  { id: 31, nome_completo: 'Rita Corredora' },
                  { id: 32, nome_completo: 'Caio Corredor' },
                ],
              },
            ),
          }
        : method === 'POST'
          ? {
              status: 409,
              body: { detail: 'O kit da inscrição nº 32 já foi retirado.', code: 'kit_retirado' },
            }
          : undefined,
    );
    const confirm = vi.fn().mockReturnValue(true);
    vi.stubGlobal('confirm', confirm);
    show();
    const region = await screen.findByRole('region', { name: 'Cancelamento' });
    expect(region.textContent).toContain('a inscrição nº 32 (Caio Corredor): ela será cancelada junto');
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar inscrição' }));
    expect(confirm).toHaveBeenCalledWith(
      expect.stringContaining('nº 31 (Rita Corredora), nº 32 (Caio Corredor). Cancelar todas'),
    );
    // A refusal is shown as the server wrote it.
    // (In its own section: the change section beside it reads the event, which this test does not serve.)
    expect((await within(region).findByRole('alert')).textContent).toBe(
      'O kit da inscrição nº 32 já foi retirado.',
    );
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{}]);
  });

  it('an operator sees the registration but no cancel button: returning money is for admins', async () => {
    const calls = mockFetch(({ method, url }) =>
      method === 'GET' && url === '/api/painel/registrations/31/'
        ? { status: 200, body: detail() }
        : undefined,
    );
    show('operador');
    const region = await screen.findByRole('region', { name: 'Cancelamento' });
    expect(region.textContent).toBe(
      'CancelamentoCancelar uma inscrição devolve o pagamento: só administradores podem fazer isso.',
    );
    expect(screen.queryByRole('button', { name: 'Cancelar inscrição' })).toBeNull();
    expect(screen.queryByLabelText('Motivo do cancelamento (opcional)')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});
