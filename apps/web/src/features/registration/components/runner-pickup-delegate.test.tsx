import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { RunnerPickupDelegate } from './runner-pickup-delegate.tsx';

const base = '/api/inscricoes/link/abc';

/** The runner names who may collect the kit, and revokes (docs/decisions/0063, later). */
describe('RunnerPickupDelegate', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('authorises a person by name and CPF, then revokes', async () => {
    let autorizado: { nome: string; cpf: string } | null = null;
    const calls = mockFetch((call) => {
      if (!call.url.endsWith('/retirada-autorizada/')) return undefined;
      if (call.method === 'PUT') autorizado = { nome: 'Beto Amigo', cpf: '***.***.***-47' };
      if (call.method === 'DELETE') autorizado = null;
      return { status: 200, body: { permitido: true, motivo: null, autorizado } };
    });
    renderRoutes([{ path: '/', element: <RunnerPickupDelegate base={base} /> }], '/');
    fireEvent.change(await screen.findByLabelText('Nome completo de quem vai retirar'), {
      target: { value: 'Beto Amigo' },
    });
    fireEvent.change(screen.getByLabelText('CPF de quem vai retirar'), {
      target: { value: '529.982.247-25' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Autorizar esta pessoa' }));
    expect(
      await screen.findByText(/Retirada autorizada para Beto Amigo, CPF \*\*\*\.\*\*\*\.\*\*\*-47/),
    ).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      nome_completo: 'Beto Amigo',
      cpf: '529.982.247-25',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Revogar autorização' }));
    expect(await screen.findByText('Autorização revogada: só você retira o kit.')).toBeTruthy();
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', url: `${base}/retirada-autorizada/` });
  });

  it("says why not when the event's rules refuse it", async () => {
    mockFetch(() => ({
      status: 200,
      body: {
        permitido: false,
        motivo: 'Este evento não permite a retirada do kit por outra pessoa.',
        autorizado: null,
      },
    }));
    renderRoutes([{ path: '/', element: <RunnerPickupDelegate base={base} /> }], '/');
    expect(
      await screen.findByText('Este evento não permite a retirada do kit por outra pessoa.'),
    ).toBeTruthy();
    expect(screen.queryByLabelText('CPF de quem vai retirar')).toBeNull();
  });

  it('lets the team collect the kit, then takes it back', async () => {
    let autorizada = false;
    const calls = mockFetch((call) => {
      if (call.method === 'PUT' && call.url.endsWith('/retirada-equipe/'))
        autorizada = (call.body as { autorizada: boolean }).autorizada;
      return {
        status: 200,
        body: {
          permitido: true,
          motivo: null,
          autorizado: null,
          equipe: { nome: 'Pé Vermelho', autorizada },
        },
      };
    });
    renderRoutes([{ path: '/', element: <RunnerPickupDelegate base={base} /> }], '/');
    expect(await screen.findByText(/Equipe Pé Vermelho: o seu kit não sai com os da equipe/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Deixar a equipe Pé Vermelho retirar o meu kit' }));
    expect(await screen.findByText('Quem a equipe enviar pode retirar o seu kit.')).toBeTruthy();
    expect(calls.at(-1)).toMatchObject({
      method: 'PUT',
      url: `${base}/retirada-equipe/`,
      body: { autorizada: true },
    });
    fireEvent.click(
      screen.getByRole('button', { name: 'Não deixar a equipe Pé Vermelho retirar o meu kit' }),
    );
    expect(await screen.findByText(/Retirada pela equipe desfeita/)).toBeTruthy();
    expect(calls.at(-1)?.body).toEqual({ autorizada: false });
  });
});
