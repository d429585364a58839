import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import { ResultLinksForm } from './result-links.tsx';

afterEach(cleanup);

const product = (id: number, name: string) => ({
  id,
  name,
  description: '',
  price: 89.9,
  category: 'camisetas',
  aparecer_home: false,
  oculto: false,
  weight_grams: 200,
});
const event = (id: number, nome_evento: string, start_data_evento: string) => ({
  id,
  nome_evento,
  start_data_evento,
  inscritos: 0,
  retirados: 0,
  inscricoes_abertas: true,
});

describe('ResultLinksForm', () => {
  it('offers the catalogue’s products and only later events, shows what is saved and saves the choice', async () => {
    let links = { camisa_finisher_id: null as number | null, proxima_edicao_id: null as number | null };
    const calls = mockFetch(({ method, url, body }) => {
      if (url === '/api/painel/events/7/resultados/loja/') {
        if (method === 'PUT') links = body as typeof links;
        return { status: 200, body: links };
      }
      if (url === '/api/painel/products/')
        return { status: 200, body: [product(3, 'Camiseta Finisher 2026'), product(4, 'Boné')] };
      if (url === '/api/painel/events/')
        return {
          status: 200,
          body: [
            event(7, 'Corrida do Sol', '2026-12-06'),
            event(8, 'Corrida do Sol 2027', '2027-12-05'),
            event(2, 'Corrida de Outubro', '2026-10-10'),
          ],
        };
      return undefined;
    });
    renderRoutes(
      [{ path: '/painel/eventos/:id/resultados', element: <ResultLinksForm eventId={7} className="" /> }],
      '/painel/eventos/7/resultados',
    );
    const form = await screen.findByRole('form', { name: 'Depois da chegada' });
    const shirt = within(form).getByRole('combobox', { name: 'Camisa finisher' }) as HTMLSelectElement;
    const next = within(form).getByRole('combobox', { name: 'Próxima edição' }) as HTMLSelectElement;
    await within(form).findByRole('option', { name: 'Camiseta Finisher 2026' });
    await within(form).findByRole('option', { name: 'Corrida do Sol 2027 (05/12/2027)' });
    // Neither this event nor an earlier one is a next edition.
    expect(within(next).queryByRole('option', { name: /Corrida de Outubro/ })).toBeNull();
    expect(within(next).queryByRole('option', { name: /Corrida do Sol \(/ })).toBeNull();
    expect([shirt.value, next.value]).toEqual(['', '']);

    fireEvent.change(shirt, { target: { value: '3' } });
    fireEvent.change(next, { target: { value: '8' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar camisa e próxima edição' }));
    await within(form).findByText('Camisa e próxima edição salvas.');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      camisa_finisher_id: 3,
      proxima_edicao_id: 8,
    });
    expect([shirt.value, next.value]).toEqual(['3', '8']);

    // "Nenhuma" takes the shirt off.
    fireEvent.change(shirt, { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar camisa e próxima edição' }));
    await within(form).findByText('Camisa e próxima edição salvas.');
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({
      camisa_finisher_id: null,
      proxima_edicao_id: 8,
    });
  });
});
