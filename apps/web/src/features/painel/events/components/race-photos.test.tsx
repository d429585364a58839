import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import { RacePhotosForm } from './race-photos.tsx';

afterEach(cleanup);

const photo = (id: number, nome_arquivo: string, numeros: number[]) => ({
  id,
  url: `/api/media/uploads/resultados/${'a'.repeat(19)}${id}-800.webp`,
  nome_arquivo,
  numeros,
  status: 'pronta' as const,
});

describe('RacePhotosForm', () => {
  it("sends the album a photo at a time, tags by the timer's file and by hand, and lists the refused lines", async () => {
    let photos = [photo(1, 'largada-001.jpg', [])];
    const calls = mockFetch(({ method, url, body }) => {
      const base = '/api/painel/events/7/resultados/fotos/';
      if (url === base && method === 'GET') return { status: 200, body: photos };
      if (url === base && method === 'POST') {
        const added = photo(photos.length + 1, `foto-${photos.length + 1}.jpg`, []);
        photos = [...photos, added];
        return { status: 202, body: { ...added, status: 'processando' } };
      }
      if (url === `${base}numeros/`)
        return {
          status: 200,
          body: {
            fotos_marcadas: 1,
            linhas_recusadas: [
              { linha: 3, arquivo: 'nao-existe.jpg', motivo: 'nenhuma foto do evento com este nome' },
            ],
          },
        };
      if (url === `${base}1/` && method === 'PUT') {
        photos = [{ ...photos[0]!, numeros: (body as { numeros: number[] }).numeros }, ...photos.slice(1)];
        return { status: 200, body: photos[0] };
      }
      return undefined;
    });
    renderRoutes(
      [{ path: '/painel/eventos/:id/resultados', element: <RacePhotosForm eventId={7} className="" /> }],
      '/painel/eventos/7/resultados',
    );
    const section = await screen.findByRole('region', { name: '6. Fotos da prova' });
    await within(section).findByRole('img', { name: 'Foto largada-001.jpg' });

    const album = within(section).getByRole('form', { name: 'Enviar fotos da prova' });
    const jpeg = (name: string) =>
      new File([new Uint8Array([0xff, 0xd8, 0xff])], name, { type: 'image/jpeg' });
    fireEvent.change(within(album).getByLabelText('Fotos (JPEG, PNG, WebP ou HEIC)'), {
      target: { files: [jpeg('a.jpg'), jpeg('b.jpg')] },
    });
    fireEvent.click(within(album).getByRole('button', { name: 'Enviar fotos' }));
    expect((await within(album).findByRole('status')).textContent).toBe('Fotos enviadas: 2 de 2.');
    expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/fotos/'))).toHaveLength(2);

    const csv = 'Foto;Números\nlargada-001.jpg;7\nnao-existe.jpg;8\n';
    const byFile = within(section).getByRole('form', { name: 'Marcar pelo arquivo de números por foto' });
    fireEvent.change(within(byFile).getByLabelText('Arquivo de números por foto (colunas Foto e Números)'), {
      // jsdom's File has no text(); the browser's does.
      target: { files: [Object.assign(new File([csv], 'numeros.csv'), { text: async () => csv })] },
    });
    fireEvent.click(within(byFile).getByRole('button', { name: 'Marcar as fotos pelo arquivo' }));
    expect((await within(byFile).findByRole('status')).textContent).toBe('Fotos marcadas: 1.');
    expect(within(byFile).getByRole('list', { name: 'Linhas recusadas' }).textContent).toBe(
      'Linha 3 (nao-existe.jpg): nenhuma foto do evento com este nome',
    );
    expect(calls.find((c) => c.url.endsWith('/fotos/numeros/'))?.body).toEqual({ conteudo: csv });

    const one = within(section).getByRole('form', { name: 'Números da foto largada-001.jpg' });
    const field = within(one).getByRole('textbox', { name: 'Números de peito em largada-001.jpg' });
    fireEvent.change(field, { target: { value: '12, x' } });
    fireEvent.click(within(one).getByRole('button', { name: 'Salvar números' }));
    await within(one).findByText('Digite só números de peito, separados por vírgula ou espaço.');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(field, { target: { value: '12 31,7' } });
    fireEvent.click(within(one).getByRole('button', { name: 'Salvar números' }));
    await screen.findByDisplayValue('12, 31, 7');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ numeros: [12, 31, 7] });
  });
});
