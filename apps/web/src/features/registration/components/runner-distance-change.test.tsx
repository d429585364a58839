import type { Event } from '@passada/core/contracts/events';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { RunnerDistanceChange } from './runner-distance-change.tsx';

const category = (id: number, nome_categoria: string) => ({ id, nome_categoria, quantidade_disponivel: 10 });
const weekend = {
  id: 5,
  dias_evento: [
    { data: '2027-04-17', categorias: [category(1, '5 km'), category(2, '10 km')] },
    { data: '2027-04-18', categorias: [category(3, '21 km'), category(4, '42 km')] },
  ],
} as unknown as Event;

beforeEach(() => {
  mockFetch(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const show = (event: Event, current: number[]) =>
  renderRoutes(
    [
      {
        path: '/user/inscricoes',
        element: (
          <RunnerDistanceChange
            base="/api/inscricoes/9"
            event={event}
            current={current}
            pays={{ inscricao: 9 }}
            onChanged={() => {}}
          />
        ),
      },
    ],
    '/user/inscricoes',
  );

describe('changing distance', () => {
  it('opens on request and, on a two-day event, says which day each change is for', async () => {
    show(weekend, [2, 3]);
    expect(screen.queryByRole('combobox')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Trocar de distância do dia 18/04/2027' }));
    const select = screen.getByLabelText('Nova distância do dia 18/04/2027');
    expect(screen.getByText('Distância atual: 21 km')).toBeTruthy();
    expect(Array.from((select as HTMLSelectElement).options).map((o) => o.text)).toEqual([
      'Selecione',
      '42 km',
    ]);
    // The other day's change is its own, still folded.
    expect(screen.getByRole('button', { name: 'Trocar de distância do dia 17/04/2027' })).toBeTruthy();
  });

  it('keeps the plain wording on a one-day event', async () => {
    const oneDay = { ...weekend, dias_evento: [weekend.dias_evento[0]!] } as Event;
    show(oneDay, [1]);
    await userEvent.click(screen.getByRole('button', { name: 'Trocar de distância' }));
    expect(screen.getByLabelText('Nova distância')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Trocar de distância — inscrição nº 9' })).toBeTruthy();
  });
});
