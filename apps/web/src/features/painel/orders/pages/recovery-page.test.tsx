import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import RecoveryPage from './recovery-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const panel = (ativa: boolean, atraso_minutos: number, lockVersion: number) => ({
  ativa,
  atraso_minutos,
  lockVersion,
  ultimos_30_dias: { lembretes_carrinho: 12, lembretes_inscricao: 3, compras_depois: 5 },
});

describe('the reminders’ settings in the back office', () => {
  it('saves the choice with the version it was opened with, and shows a refusal in words', async () => {
    let conflict = false;
    const calls = mockFetch((call) => {
      if (call.method === 'GET') return { status: 200, body: panel(true, 60, 2) };
      if (conflict) {
        return {
          status: 409,
          body: { detail: 'Outra pessoa alterou estes lembretes agora.', code: 'versao_desatualizada' },
        };
      }
      const body = call.body as { ativa: boolean; atraso_minutos: number };
      return { status: 200, body: panel(body.ativa, body.atraso_minutos, 3) };
    });
    renderRoutes([{ path: '/painel/lembretes', element: <RecoveryPage /> }], '/painel/lembretes');
    expect(await screen.findByText('12')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Enviar o lembrete' }));
    fireEvent.change(screen.getByRole('spinbutton', { name: /Minutos depois/ }), {
      target: { value: '120' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Lembretes salvos.');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      ativa: false,
      atraso_minutos: 120,
      lockVersion: 2,
    });

    conflict = true;
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Outra pessoa alterou');
  });
});
