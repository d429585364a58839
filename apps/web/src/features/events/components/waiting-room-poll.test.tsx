import type { OpeningStatus, QueueTicket } from '@passada/core/contracts/opening';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLL_MS } from '../../../lib/opening.ts';
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
const joined: QueueTicket = {
  vez: '7.1.2.3.mac',
  estado: 'aguardando',
  lugar: 3,
  a_frente: 2,
  espera_minutos: 2,
  abre_em: opening.abre_em,
  vez_expira_em: null,
};

/** The position polls: GETs of the turn, apart from the one join (a POST). */
const polls = (calls: Call[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/events/7/fila/'));
const place = () => screen.getByRole('status').textContent;

beforeEach(() => {
  // Only the intervals are faked: promises and React's own scheduling stay real.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  localStorage.setItem('token', 'abc');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

describe('the waiting room', () => {
  it('polls the turn every POLL_MS with the signed turn, and keeps the last place while a poll fails', async () => {
    const answers: Array<QueueTicket | 'network'> = [
      { ...joined, a_frente: 1, espera_minutos: 1 },
      'network',
      { ...joined, estado: 'admitido', a_frente: 0, vez_expira_em: '2026-12-02T12:20:00Z' },
    ];
    const calls = mockFetch(({ method, url }) => {
      if (url === '/api/users/profile/') return { status: 200, body: { username: 'ana', email: 'a@b.c' } };
      if (url === '/api/events/7/abertura/') return { status: 200, body: opening };
      if (method === 'POST' && url === '/api/events/7/fila/') return { status: 200, body: joined };
      if (url.startsWith('/api/events/7/fila/')) {
        const next = answers.shift() ?? answers.at(-1)!;
        return next === 'network' ? 'network' : { status: 200, body: next };
      }
      return undefined;
    });
    renderRoutes(
      [{ path: '/eventos/register/7', element: <WaitingRoom eventId={7} /> }],
      '/eventos/register/7',
    );

    // The join's answer is shown at once, and nothing is polled before the interval.
    expect(await screen.findByText(/2 pessoas à sua frente/)).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS - 1));
    expect(polls(calls)).toHaveLength(0);

    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(await screen.findByText(/1 pessoa à sua frente/)).toBeTruthy();
    expect(polls(calls).map((c) => c.url)).toEqual([
      `/api/events/7/fila/?vez=${encodeURIComponent(joined.vez)}`,
    ]);
    // The poll is public: the signed turn says who it is, not the session's token.
    expect(polls(calls)[0]!.headers.authorization).toBeUndefined();

    // A poll that fails leaves the last place on the screen.
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(polls(calls)).toHaveLength(2);
    expect(place()).toMatch(/1 pessoa à sua frente/);

    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(await screen.findByText(/É a sua vez!/)).toBeTruthy();
    // One join: polling never takes a second place.
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });
});
