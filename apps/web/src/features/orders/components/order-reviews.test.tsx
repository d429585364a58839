import type { Order } from '@passada/core/contracts/orders';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { OrderReviews } from './order-reviews.tsx';

afterEach(cleanup);

const line = (item_id: number, product_size: string) => ({
  item_id,
  product: 3,
  product_image: '/media/camiseta.webp',
  product_name: 'Camiseta Passada',
  product_price: 50,
  quantity: 1,
  product_size,
  product_color: 'Azul',
});
const delivered = {
  id: 41,
  items: [line(1, 'M'), line(2, 'G'), line(3, 'P')],
  status: 'entregue',
} as unknown as Order;

describe('OrderReviews', () => {
  it('reviews a kept line with stars, a comment and the fit; shows the shop’s refusal for a line sent back', async () => {
    const reviewed = [{ item_id: 3, estado: 'publicada' }];
    const calls = mockFetch(({ url, method, body }) => {
      if (url === '/api/avaliacoes/minhas/') return { status: 200, body: reviewed };
      if (url !== '/api/avaliacoes/' || method !== 'POST') return undefined;
      if ((body as { item_id: number }).item_id === 2)
        return {
          status: 409,
          body: {
            detail: 'Este item foi devolvido: só quem ficou com a peça pode avaliá-la.',
            code: 'item_devolvido',
          },
        };
      reviewed.push({ item_id: 1, estado: 'pendente' });
      return { status: 201, body: { id: 9, estado: 'pendente' } };
    });
    renderRoutes([{ path: '/user/pedidos', element: <OrderReviews order={delivered} /> }], '/user/pedidos');
    const section = await screen.findByRole('region', { name: 'Avaliações do pedido 41' });
    expect(section.textContent).toContain('Camiseta Passada (Azul, P): avaliação publicada na loja.');

    await userEvent.click(
      within(section).getByRole('button', { name: 'Avaliar Camiseta Passada (Azul, M)' }),
    );
    const form = within(section).getByRole('form', { name: 'Avaliar Camiseta Passada (Azul, M)' });
    await userEvent.click(within(form).getByRole('button', { name: 'Enviar avaliação' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Escolha de 1 a 5 estrelas.');
    await userEvent.click(within(form).getByRole('radio', { name: '4 estrelas' }));
    await userEvent.type(
      within(form).getByRole('textbox', { name: 'Comentário (opcional)' }),
      'Tecido leve.',
    );
    await userEvent.click(within(form).getByRole('radio', { name: 'Ficou pequeno' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Enviar avaliação' }));
    // The line turns into its state once the account's reviews are read again.
    await within(section).findByText(
      'Camiseta Passada (Azul, M): avaliação enviada. Obrigado! Ela aparece na loja depois de revisada.',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      item_id: 1,
      estrelas: 4,
      texto: 'Tecido leve.',
      caimento: 'pequeno',
    });

    await userEvent.click(
      within(section).getByRole('button', { name: 'Avaliar Camiseta Passada (Azul, G)' }),
    );
    const back = within(section).getByRole('form', { name: 'Avaliar Camiseta Passada (Azul, G)' });
    await userEvent.click(within(back).getByRole('radio', { name: '1 estrela' }));
    await userEvent.click(within(back).getByRole('button', { name: 'Enviar avaliação' }));
    expect((await within(back).findByRole('alert')).textContent).toBe(
      'Este item foi devolvido: só quem ficou com a peça pode avaliá-la.',
    );
  });

  it('sends the chosen photo after the review; a refused photo leaves the review sent and says why', async () => {
    const reviewed: Array<{ item_id: number; estado: string }> = [];
    const calls = mockFetch(({ url, method }) => {
      if (url === '/api/avaliacoes/minhas/') return { status: 200, body: reviewed };
      if (url === '/api/avaliacoes/' && method === 'POST') {
        reviewed.push({ item_id: 1, estado: 'pendente' });
        return { status: 201, body: { id: 12, estado: 'pendente' } };
      }
      if (url === '/api/avaliacoes/12/foto/' && method === 'POST')
        return {
          status: 415,
          body: { detail: 'Envie uma foto JPEG, PNG, WebP ou HEIC.', code: 'formato_nao_suportado' },
        };
      return undefined;
    });
    renderRoutes([{ path: '/user/pedidos', element: <OrderReviews order={delivered} /> }], '/user/pedidos');
    const section = await screen.findByRole('region', { name: 'Avaliações do pedido 41' });
    await userEvent.click(
      within(section).getByRole('button', { name: 'Avaliar Camiseta Passada (Azul, M)' }),
    );
    const form = within(section).getByRole('form', { name: 'Avaliar Camiseta Passada (Azul, M)' });
    await userEvent.click(within(form).getByRole('radio', { name: '5 estrelas' }));
    await userEvent.upload(
      within(form).getByLabelText('Foto da peça (opcional)'),
      new File(['não é foto'], 'foto.png', { type: 'image/png' }),
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Enviar avaliação' }));
    expect((await within(section).findByRole('alert')).textContent).toBe(
      'A foto não foi enviada: Envie uma foto JPEG, PNG, WebP ou HEIC.',
    );
    expect(section.textContent).toContain('Camiseta Passada (Azul, M): avaliação enviada.');
    const sent = calls.find((c) => c.url === '/api/avaliacoes/12/foto/')?.body;
    expect(sent).toBeInstanceOf(FormData);
    expect(((sent as FormData).get('foto') as File).name).toBe('foto.png');
  });

  it('asks nothing of an order not delivered', () => {
    const calls = mockFetch(() => undefined);
    renderRoutes(
      [{ path: '/user/pedidos', element: <OrderReviews order={{ ...delivered, status: 'enviado' }} /> }],
      '/user/pedidos',
    );
    expect(screen.queryByRole('region')).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
