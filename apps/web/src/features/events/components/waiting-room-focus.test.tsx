import type { OpeningStatus, QueueTicket } from '@passada/core/contracts/opening';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { WaitingRoom } from './waiting-room.tsx';

let opening: OpeningStatus;
let ticket: QueueTicket;

const show = () => {
  // A field the runner is in, as on a page where they were already typing or reading.
  renderRoutes(
    [
      {
        path: '/eventos/register/7',
        element: (
          <>
            <input aria-label="Busca" />
            <WaitingRoom eventId={7} />
          </>
        ),
      },
    ],
    '/eventos/register/7',
  );
};
const heading = () => screen.findByRole('heading', { name: 'Sala de espera' });
/** The page as a reload leaves it: the runner's own place shown, their focus where they put it. */
async function reload() {
  cleanup();
  show();
  screen.getByLabelText('Busca').focus();
  await screen.findByRole('status');
  return heading();
}

beforeEach(() => {
  localStorage.setItem('token', 'abc');
  opening = {
    modo: 'fila',
    abre_em: '2026-12-02T12:00:00Z',
    pre_fila_abre_em: '2026-12-02T11:30:00Z',
    fase: 'aberta',
    minutos_da_vez: 10,
  };
  ticket = {
    vez: '7.1.2.3.mac',
    estado: 'aguardando',
    lugar: 3,
    a_frente: 2,
    espera_minutos: 2,
    abre_em: opening.abre_em,
    vez_expira_em: null,
  };
  mockFetch(({ url }) => {
    if (url === '/api/users/profile/') return { status: 200, body: { username: 'ana', email: 'a@b.c' } };
    if (url === '/api/events/7/abertura/') return { status: 200, body: opening };
    if (url.startsWith('/api/events/7/fila/')) return { status: 200, body: ticket };
    return undefined;
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

describe('the waiting room heading', () => {
  it('takes the focus on the first arrival and on a real change, not on a reload that says the same', async () => {
    show();
    const first = await heading();
    await screen.findByRole('status');
    expect(document.activeElement).toBe(first);

    // A reload with the same place: the runner's focus stays where they put it.
    const same = await reload();
    await screen.findByText(/2 pessoas à sua frente/);
    expect(document.activeElement).not.toBe(same);
    expect(document.activeElement).toBe(screen.getByLabelText('Busca'));

    // The turn came: that is news, and the heading says it.
    ticket = { ...ticket, estado: 'admitido', a_frente: 0, vez_expira_em: '2026-12-02T12:20:00Z' };
    const admitted = await reload();
    await screen.findByText(/É a sua vez!/);
    expect(document.activeElement).toBe(admitted);
  });
});
