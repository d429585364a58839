import type { Event } from '@passada/core/contracts/events';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import type { ParticipantFormValues } from './participant-form.tsx';
import { WaveFields } from './wave-fields.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const event = {
  id: 9,
  dias_evento: [
    {
      data: '2026-12-06',
      categorias: [
        { id: 3, nome_categoria: '10 km' },
        { id: 4, nome_categoria: '5 km' },
      ],
    },
  ],
} as unknown as Event;

/** The form around the fields: what a submit would send. */
function Harness({ categories, onSubmit }: { categories: number[]; onSubmit: (v: unknown) => void }) {
  const { register, handleSubmit, formState } = useForm<ParticipantFormValues>();
  return (
    <form onSubmit={handleSubmit(onSubmit)} aria-label="Inscrição">
      <WaveFields event={event} categories={categories} register={register} errors={formState.errors} />
      <button type="submit">Enviar</button>
    </form>
  );
}

describe('the estimated finish time asked for races with start waves', () => {
  it('asks it only for the chosen race that has waves, with the waves’ times, and sends it by race', async () => {
    mockFetch(({ url }) =>
      url === '/api/events/9/ondas/'
        ? {
            status: 200,
            body: [
              {
                categoria_id: 3,
                ondas: [
                  { nome: 'Onda A', ate: '0:50' },
                  { nome: 'Onda B', ate: null },
                ],
              },
            ],
          }
        : undefined,
    );
    const onSubmit = vi.fn();
    renderRoutes([{ path: '/', element: <Harness categories={[4, 3]} onSubmit={onSubmit} /> }], '/');
    const field = await screen.findByLabelText('Tempo estimado nos 10 km (h:mm)');
    expect(screen.queryByLabelText('Tempo estimado nos 5 km (h:mm)')).toBeNull();
    expect(screen.getByText('Onda A: até 0:50 · Onda B: acima disso ou sem tempo')).toBeTruthy();
    fireEvent.change(field, { target: { value: '0:47' } });
    fireEvent.change(screen.getByLabelText('Link de um resultado anterior (opcional)'), {
      target: { value: 'https://resultados.example.com/1' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({
      tempos_estimados: [{ categoria: 3, tempo: '0:47' }],
      resultado_anterior: 'https://resultados.example.com/1',
    });
  });
});
