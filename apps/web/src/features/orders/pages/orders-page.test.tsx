import type { Order } from '@passada/core/contracts/orders';
import type { OrderAfterSale } from '@passada/core/contracts/returns';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import OrdersPage from './orders-page.tsx';

const shipped: Order = {
  id: 41,
  items: [
    {
      item_id: 1,
      product: 3,
      product_image: '/media/camiseta.webp',
      product_name: 'Camiseta Passada',
      product_price: 50,
      quantity: 2,
      product_size: 'M',
      product_color: 'Azul',
    },
  ],
  frete: 20,
  servico_frete: 'PAC',
  preco_juros: 120,
  juros: 0,
  subtotal: 100,
  total: 120,
  parcelas: 1,
  metodo_pagamento: 'pix',
  status: 'enviado',
  order_date: '2026-11-20T13:05:00Z',
  address: null,
  codigo_rastreio: 'AB123456785BR',
  rastreio_url: 'https://rastreamento.correios.com.br/app/index.php?objeto=AB123456785BR',
  reembolsado: 50,
  andamento: [
    { status: 'em separação', em: '2026-11-21T12:00:00Z' },
    { status: 'enviado', em: '2026-11-22T18:30:00Z' },
  ],
};
const afterSale: OrderAfterSale = {
  versao: 2,
  pode_desistir: false,
  pode_devolver: false,
  prazo_arrependimento: null,
  prazo_defeito: null,
  entregue_em: null,
  restantes: [{ item_id: 1, quantidade: 1 }],
  pago: 120,
  reembolsado: 50,
  solicitacoes: [],
};

beforeEach(() => {
  localStorage.setItem('token', 'abc');
  mockFetch(({ url }) => {
    if (url === '/api/users/profile/') return { status: 200, body: { username: 'ana', email: 'a@b.c' } };
    if (url === '/api/pagamentos/') return { status: 200, body: [] };
    if (url === '/api/orders/') return { status: 200, body: [shipped] };
    if (url === '/api/orders/41/pos-venda/') return { status: 200, body: afterSale };
    return undefined;
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** The account with `orders`, their after-sale, and product 3 with `stock` (answered by the catalogue). */
function mockOrdersWithProduct(
  orders: Order[],
  stock: object[],
  more: Parameters<typeof mockFetch>[0] = () => undefined,
) {
  return mockFetch((call) => {
    const { url } = call;
    if (url === '/api/users/profile/') return { status: 200, body: { username: 'ana', email: 'a@b.c' } };
    if (url === '/api/pagamentos/') return { status: 200, body: [] };
    if (url === '/api/orders/') return { status: 200, body: orders };
    if (url.endsWith('/pos-venda/')) return { status: 200, body: afterSale };
    if (url === '/api/products/3/') return { status: 200, body: { id: 3, price: 50, stock } };
    return more(call);
  });
}

describe('/user/pedidos', () => {
  it("dates every step reached from the order's own moves and says what was refunded", async () => {
    renderRoutes([{ path: '/user/pedidos', element: <OrdersPage /> }], '/user/pedidos');
    const card = await screen.findByRole('article', { name: 'Pedido 41' });
    const steps = within(card).getByRole('list', { name: 'Andamento do pedido 41' });
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Pago20/11/2026', 'Em separação21/11/2026', 'Enviado22/11/2026', 'Entreguea seguir']);
    const refunded = within(card).getByText('Reembolsado');
    expect(refunded.tagName).toBe('DT');
    expect(refunded.nextElementSibling?.textContent).toMatch(/^R\$\s50,00$/);
    // Said once, with the order's totals.
    expect(within(card).getAllByText(/Reembolsado/)).toHaveLength(1);
  });

  it('before shipping: the chosen unit shows what the server quotes back, and the change is sent with the order’s version', async () => {
    const paid: Order = {
      ...shipped,
      status: 'pago',
      codigo_rastreio: null,
      rastreio_url: null,
      reembolsado: 0,
    };
    const before: OrderAfterSale = {
      ...afterSale,
      pode_desistir: true,
      versao: 3,
      reembolsado: 0,
      restantes: [{ item_id: 1, quantidade: 2 }],
    };
    const calls = mockFetch(({ url, method, body }) => {
      if (url === '/api/users/profile/') return { status: 200, body: { username: 'ana', email: 'a@b.c' } };
      if (url === '/api/pagamentos/') return { status: 200, body: [] };
      if (url === '/api/orders/') return { status: 200, body: [paid] };
      if (url === '/api/orders/41/pos-venda/') return { status: 200, body: before };
      if (url === '/api/orders/41/alteracoes/cotacao/' && method === 'POST') {
        const units = (body as { itens: Array<{ quantidade: number }> }).itens[0]?.quantidade ?? 0;
        return {
          status: 200,
          body: { a_devolver: 50 * units, itens: [], inscricoes: [], cancela_pedido: units === 2, versao: 3 },
        };
      }
      if (url === '/api/orders/41/alteracoes/' && method === 'POST')
        return {
          status: 409,
          body: { detail: 'Este pedido mudou desde que você o abriu.', code: 'pedido_alterado' },
        };
      return undefined;
    });
    renderRoutes([{ path: '/user/pedidos', element: <OrdersPage /> }], '/user/pedidos');
    const card = await screen.findByRole('article', { name: 'Pedido 41' });
    fireEvent.click(await within(card).findByRole('button', { name: 'Quero desistir' }));
    const form = within(card).getByRole('form', { name: 'Desistir da compra' });
    fireEvent.change(
      within(form).getByRole('spinbutton', { name: 'Quantidade de Camiseta Passada (Azul, M)' }),
      {
        target: { value: '1' },
      },
    );
    expect((await within(form).findByRole('status')).textContent).toMatch(
      /^Você recebe de volta R\$\s50,00\.$/,
    );
    fireEvent.change(
      within(form).getByRole('spinbutton', { name: 'Quantidade de Camiseta Passada (Azul, M)' }),
      {
        target: { value: '2' },
      },
    );
    await within(form).findByText(
      /Você recebe de volta R\$\s100,00\. Nada fica no pedido: ele será cancelado\./,
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Desistir dos itens escolhidos' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(
      'Este pedido mudou desde que você o abriu.',
    );
    const sent = calls.find((c) => c.url === '/api/orders/41/alteracoes/');
    expect(sent?.body).toEqual({ itens: [{ item_id: 1, quantidade: 2 }], versao: 3 });
  });

  it('before shipping: a unit swapped to another size shows the quote with the new total, then the list is sent', async () => {
    const paid: Order = {
      ...shipped,
      status: 'pago',
      codigo_rastreio: null,
      rastreio_url: null,
      reembolsado: 0,
    };
    const before: OrderAfterSale = {
      ...afterSale,
      pode_desistir: true,
      versao: 5,
      reembolsado: 0,
      restantes: [{ item_id: 1, quantidade: 2 }],
    };
    const calls = mockFetch(({ url, method }) => {
      if (url === '/api/users/profile/') return { status: 200, body: { username: 'ana', email: 'a@b.c' } };
      if (url === '/api/pagamentos/') return { status: 200, body: [] };
      if (url === '/api/orders/') return { status: 200, body: [paid] };
      if (url === '/api/orders/41/pos-venda/') return { status: 200, body: before };
      if (url === '/api/products/3/')
        return {
          status: 200,
          body: {
            id: 3,
            stock: [
              { color: { id: 1, name: 'Azul', hex: '#00f' }, size: { id: 2, name: 'M' }, quantity: 4 },
              { color: { id: 1, name: 'Azul', hex: '#00f' }, size: { id: 3, name: 'G' }, quantity: 2 },
            ],
          },
        };
      if (url === '/api/orders/41/alteracoes/cotacao/' && method === 'POST')
        return {
          status: 200,
          body: {
            a_devolver: 0,
            itens: [],
            inscricoes: [],
            trocas: [{ item_id: 1, quantidade: 1, cor: 'Azul', tamanho: 'G' }],
            novo_total: 120,
            cancela_pedido: false,
            versao: 5,
          },
        };
      if (url === '/api/orders/41/alteracoes/' && method === 'POST')
        return {
          status: 201,
          body: { id: 7, pedido: 41, tipo: 'desistencia', status: 'reembolsada', itens: [], inscricoes: [] },
        };
      return undefined;
    });
    renderRoutes([{ path: '/user/pedidos', element: <OrdersPage /> }], '/user/pedidos');
    const card = await screen.findByRole('article', { name: 'Pedido 41' });
    fireEvent.click(await within(card).findByRole('button', { name: 'Quero desistir' }));
    const form = within(card).getByRole('form', { name: 'Desistir da compra' });
    await within(form).findByRole('option', { name: 'Azul, G' });
    await userEvent.selectOptions(
      within(form).getByRole('combobox', { name: 'Trocar Camiseta Passada (Azul, M) por' }),
      'Azul, G',
    );
    expect((await within(form).findByRole('status')).textContent).toMatch(
      /^Você recebe de volta R\$\s0,00\. Troca: 1 para Azul, G\. Novo total: R\$\s120,00\.$/,
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Trocar cor ou tamanho' }));
    await within(card).findByText(/registrada/);
    expect(calls.find((c) => c.url === '/api/orders/41/alteracoes/')?.body).toEqual({
      itens: [],
      trocas: [{ item_id: 1, quantidade: 1, cor_id: 1, tamanho_id: 3 }],
      versao: 5,
    });
  });

  it('offers an addition before shipping at the combination’s price, and an addition names its order', async () => {
    const paid: Order = {
      ...shipped,
      status: 'pago',
      codigo_rastreio: null,
      rastreio_url: null,
      complementos: [42],
    };
    const addition: Order = { ...paid, id: 42, frete: 0, complementos: undefined, complemento_de: 41 };
    const calls = mockOrdersWithProduct(
      [addition, paid],
      [
        { color: { id: 1, name: 'Azul', hex: '#00f' }, size: { id: 2, name: 'M' }, quantity: 0 },
        { color: { id: 1, name: 'Azul', hex: '#00f' }, size: { id: 3, name: 'G' }, quantity: 5, preco: 39.9 },
      ],
      ({ url, method }) => {
        if (url === '/api/pagar-pix/' && method === 'POST')
          return {
            status: 409,
            body: {
              detail: 'Este pedido já foi enviado: faça um pedido novo.',
              code: 'acrescimo_indisponivel',
            },
          };
        return undefined;
      },
    );
    renderRoutes([{ path: '/user/pedidos', element: <OrdersPage /> }], '/user/pedidos');
    const extra = await screen.findByRole('article', { name: 'Pedido 42' });
    expect(extra.textContent).toContain('Acréscimo ao pedido nº 41: vai na mesma caixa.');
    expect(within(extra).queryByRole('button', { name: 'Acrescentar itens ao pedido' })).toBeNull();
    const card = screen.getByRole('article', { name: 'Pedido 41' });
    expect(card.textContent).toContain('Vai junto nesta caixa: acréscimo nº 42.');

    await userEvent.click(within(card).getByRole('button', { name: 'Acrescentar itens ao pedido' }));
    const region = within(card).getByRole('region', { name: 'Acrescentar ao pedido 41' });
    // Only what is in stock is offered.
    await within(region).findByRole('option', { name: 'Azul, G' });
    expect(within(region).queryByRole('option', { name: 'Azul, M' })).toBeNull();
    await userEvent.selectOptions(within(region).getByRole('combobox', { name: 'Cor e tamanho' }), 'Azul, G');
    fireEvent.change(within(region).getByRole('spinbutton', { name: 'Unidades a acrescentar' }), {
      target: { value: '2' },
    });
    expect(within(region).getByText(/Total do acréscimo/).textContent).toMatch(
      /^Total do acréscimo: R\$\s79,80 \(sem frete\)$/,
    );
    await userEvent.click(within(region).getByRole('button', { name: 'Pagar o acréscimo por Pix' }));
    expect(await within(region).findByText('Este pedido já foi enviado: faça um pedido novo.')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/pagar-pix/')?.body).toMatchObject({
      total: 79.8,
      finalidade: 'pedido',
      pedido: { items: [{ product: 3, color: 1, size: 3, quantity: 2 }], complemento_de: 41 },
    });
  });

  it('offers no addition once the order shipped', async () => {
    renderRoutes([{ path: '/user/pedidos', element: <OrdersPage /> }], '/user/pedidos');
    const card = await screen.findByRole('article', { name: 'Pedido 41' });
    await within(card).findByRole('list', { name: 'Andamento do pedido 41' });
    expect(within(card).queryByRole('button', { name: 'Acrescentar itens ao pedido' })).toBeNull();
  });

  it('the shop’s proposal link opens the addition filled in, ready to pay', async () => {
    const paid: Order = { ...shipped, status: 'pago', codigo_rastreio: null, rastreio_url: null };
    mockOrdersWithProduct(
      [paid],
      [{ color: { id: 1, name: 'Azul', hex: '#00f' }, size: { id: 3, name: 'G' }, quantity: 5 }],
    );
    renderRoutes(
      [{ path: '/user/pedidos', element: <OrdersPage /> }],
      '/user/pedidos?acrescentar=41&produto=3&cor=1&tamanho=3&unidades=2',
    );
    const card = await screen.findByRole('article', { name: 'Pedido 41' });
    const region = within(card).getByRole('region', { name: 'Acrescentar ao pedido 41' });
    expect(
      within(region)
        .getByRole('button', { name: 'Acrescentar itens ao pedido' })
        .getAttribute('aria-expanded'),
    ).toBe('true');
    expect((await within(region).findByText(/Total do acréscimo/)).textContent).toMatch(
      /^Total do acréscimo: R\$\s100,00 \(sem frete\)$/,
    );
    expect(within(region).getByRole<HTMLSelectElement>('combobox', { name: 'Cor e tamanho' }).value).toBe(
      '1-3',
    );
    expect(within(region).getByRole('button', { name: 'Pagar o acréscimo por Pix' })).toBeTruthy();
  });
});
