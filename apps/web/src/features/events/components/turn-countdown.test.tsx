import type { OpeningStatus, QueueTicket } from '@passada/core/contracts/opening';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TurnCountdown } from '../../../components/turn-countdown.tsx';
import { type Call, mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { WaitingRoom } from './waiting-room.tsx';

const opening: OpeningStatus = {
  modo: 'fila',
  abre_em: '2026-12-02T12:00:00Z',
  pre_fila_abre_em: '2026-12-02T11:30:00Z',
  fase: 'aberta',
  minutos_da_vez: 10,
};
const admitted: QueueTicket = {
  vez: '7.1.2.3.mac',
  estado: 'admitido',
  lugar: 1,
  a_frente: 0,
  espera_minutos: 0,
  abre_em: opening.abre_em,
  vez_expira_em: new Date(Date.now() + 9 * 60_000).toISOString(),
};
let calls: Call[];

const FORM = '/eventos/register/7/finalizar';
const show = (path: string) =>
  renderRoutes(
    [
      { path: '/eventos/register/7', element: <WaitingRoom eventId={7} /> },
      { path: FORM, element: <TurnCountdown eventId={7} /> },
    ],
    path,
  );
const joins = () => calls.filter((c) => c.method === 'POST' && c.url === '/api/events/7/fila/');

beforeEach(() => {
  localStorage.setItem('token', 'abc');
  calls = mockFetch(({ url }) => {
    if (url === '/api/users/profile/') return { status: 200, body: { username: 'ana', email: 'a@b.c' } };
    if (url === '/api/events/7/abertura/') return { status: 200, body: opening };
    if (url.startsWith('/api/events/7/fila/')) return { status: 200, body: admitted };
    return undefined;
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

describe('the turn on the registration form', () => {
  it('never joins the queue: without a turn from the event page it sends the runner there', async () => {
    show(FORM);
    const back = await screen.findByRole('link', { name: 'Acompanhe a fila na página do evento' });
    expect(back.getAttribute('href')).toBe('/eventos/register/7');
    expect(screen.queryByRole('timer')).toBeNull();
    expect(joins()).toEqual([]);
  });

  it('counts down the turn the event page got, read without joining again', async () => {
    const router = show('/eventos/register/7');
    await screen.findByText(/É a sua vez!/);
    expect(joins()).toHaveLength(1);

    await router.navigate(FORM);
    expect(await screen.findByRole('timer', { name: 'Tempo restante da sua vez' })).toBeTruthy();
    expect(joins()).toHaveLength(1);
    // The timer may show the event page's cached turn first; the form then reads it back (never joins).
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'GET' && c.url === '/api/events/7/fila/?vez=7.1.2.3.mac')).toBe(
        true,
      ),
    );
    expect(joins()).toHaveLength(1);

    // A reload of the form keeps it: the tab remembers the turn.
    cleanup();
    show(FORM);
    expect(await screen.findByRole('timer', { name: 'Tempo restante da sua vez' })).toBeTruthy();
    expect(joins()).toHaveLength(1);
  });
});
