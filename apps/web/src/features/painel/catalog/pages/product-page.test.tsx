import { type PainelProduct, PainelProductSchema, ProductPatchSchema } from '@passada/core/contracts/painel';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import ProductPage from './product-page.tsx';

const STALE =
  'Este produto foi alterado por outra pessoa depois que você abriu o formulário. Recarregue a página para ver a versão atual; suas alterações não foram salvas.';

/** A product as GET /api/painel/products/5/ answers it. */
const product = (overrides: Partial<PainelProduct> = {}) =>
  PainelProductSchema.parse({
    id: 5,
    name: 'Boné Passada Sol',
    description: 'Aba curva, tecido leve.',
    price: 89.9,
    category: 'acessorios',
    aparecer_home: true,
    oculto: false,
    weight_grams: 900,
    versao: 3,
    images: [],
    stock: [{ color: { id: 1, name: 'Preto', hex: '#000000' }, size: { id: 2, name: 'Único' }, quantity: 7 }],
    ...overrides,
  });

const show = () =>
  renderRoutes(
    [
      {
        element: (
          <Outlet
            context={{
              staff: {
                id: 1,
                email: 'a@passada.com.br',
                name: 'A',
                role: 'admin',
                totp_enabled: false,
                active: true,
              },
              precisa_ativar_2fa: false,
            }}
          />
        ),
        children: [{ path: '/painel/produtos/:id', element: <ProductPage /> }],
      },
    ],
    '/painel/produtos/5',
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ProductPage', () => {
  it('saves only the fields changed, with the version it read; a 409 keeps what was typed and reloads on request', async () => {
    let current = product();
    let refuse = false;
    const calls = mockFetch(({ method, url, body }) => {
      if (method === 'GET' && url === '/api/painel/products/5/') return { status: 200, body: current };
      if (method === 'GET' && (url === '/api/painel/colors/' || url === '/api/painel/sizes/'))
        return { status: 200, body: [] };
      if (method === 'PATCH') {
        expect(ProductPatchSchema.safeParse(body).success).toBe(true);
        if (refuse) return { status: 409, body: { code: 'versao_desatualizada', detail: STALE } };
        current = product({ ...current, price: 59.9, versao: 4 });
        return { status: 200, body: current };
      }
      return undefined;
    });
    show();
    const price = (await screen.findByLabelText('Preço (R$)')) as HTMLInputElement;
    fireEvent.change(price, { target: { value: '59,90' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar alterações' }));
    expect((await screen.findByRole('status')).textContent).toBe('Produto salvo.');
    // Only the price: the home-page flag, the weight and the stock are not sent, so they cannot change.
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { price: 59.9, versao: 3 },
    ]);

    refuse = true;
    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Boné Passada Lua' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar alterações' }));
    expect((await screen.findByRole('alert')).textContent).toBe(STALE);
    expect((screen.getByLabelText('Nome') as HTMLInputElement).value).toBe('Boné Passada Lua');
    expect(calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({
      name: 'Boné Passada Lua',
      versao: 4,
    });

    current = product({ name: 'Boné Passada Mar', price: 59.9, versao: 5 });
    fireEvent.click(screen.getByRole('button', { name: 'Recarregar o produto' }));
    await waitFor(() =>
      expect((screen.getByLabelText('Nome') as HTMLInputElement).value).toBe('Boné Passada Mar'),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a size guide: measurements per size in cm, saved whole with the product version', async () => {
    const shirt = product({
      versao: 7,
      stock: [
        { color: { id: 1, name: 'Preto', hex: '#000000' }, size: { id: 2, name: 'P' }, quantity: 1 },
        { color: { id: 1, name: 'Preto', hex: '#000000' }, size: { id: 3, name: 'M' }, quantity: 1 },
      ],
      tabela_medidas: { colunas: ['Tórax'], linhas: [{ tamanho_id: 2, valores: [50] }] },
    });
    const calls = mockFetch(({ method, url, body }) => {
      if (method === 'GET' && url === '/api/painel/products/5/') return { status: 200, body: shirt };
      if (method === 'GET' && url.startsWith('/api/painel/')) return { status: 200, body: [] };
      if (method === 'PUT' && url === '/api/painel/products/5/medidas/')
        return { status: 200, body: { ...shirt, versao: 8, tabela_medidas: body } };
      return undefined;
    });
    show();
    const form = await screen.findByRole('form', { name: 'Guia de medidas' });
    expect((within(form).getByRole('textbox', { name: 'P: Tórax (cm)' }) as HTMLInputElement).value).toBe(
      '50',
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Adicionar medida' }));
    fireEvent.change(within(form).getByRole('textbox', { name: 'Nome da medida 2' }), {
      target: { value: 'Comprimento' },
    });
    fireEvent.change(within(form).getByRole('textbox', { name: 'M: Tórax (cm)' }), {
      target: { value: 'x' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar guia de medidas' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Digite as medidas em cm, só números (ex.: 54 ou 54,5).',
    );
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(within(form).getByRole('textbox', { name: 'M: Tórax (cm)' }), {
      target: { value: '52,5' },
    });
    fireEvent.change(within(form).getByRole('textbox', { name: 'M: Comprimento (cm)' }), {
      target: { value: '71' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar guia de medidas' }));
    expect((await within(form).findByRole('status')).textContent).toBe('Guia de medidas salvo.');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      versao: 7,
      colunas: ['Tórax', 'Comprimento'],
      linhas: [
        { tamanho_id: 2, valores: [50, null] },
        { tamanho_id: 3, valores: [52.5, 71] },
      ],
    });
  });

  it('names what a draft lacks, schedules its launch, and the next save goes from the new version', async () => {
    let current = product({ rascunho: true, falta_para_vender: ['foto'] });
    const calls = mockFetch(({ method, url }) => {
      if (method === 'GET' && url === '/api/painel/products/5/') return { status: 200, body: current };
      if (method === 'GET' && url.startsWith('/api/painel/')) return { status: 200, body: [] };
      if (method === 'POST' && url === '/api/painel/products/5/publicar/') {
        current = product({ ...current, versao: 4, publicar_em: '2026-12-20T12:00:00.000Z' });
        return { status: 200, body: current };
      }
      if (method === 'PATCH') return { status: 200, body: product({ ...current, price: 79.9, versao: 5 }) };
      return undefined;
    });
    show();
    const section = await screen.findByRole('region', { name: 'Publicação' });
    expect(within(section).getByText('Rascunho: a loja ainda não mostra este produto.')).toBeTruthy();
    expect(within(section).getByText(/Para colocar à venda, falta uma foto pronta\./)).toBeTruthy();
    expect(
      (within(section).getByRole('button', { name: 'Publicar agora' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.change(within(section).getByLabelText('Data e hora do lançamento'), {
      target: { value: '2026-12-20T09:00' },
    });
    fireEvent.click(within(section).getByRole('button', { name: 'Agendar lançamento' }));
    expect((await within(section).findByRole('status')).textContent).toBe('Lançamento agendado.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      versao: 3,
      publicar_em: '2026-12-20T09:00:00-03:00',
    });
    expect(await within(section).findByText(/^Lançamento agendado para 20\/12\/2026,? 09:00/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Preço (R$)'), { target: { value: '79,90' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar alterações' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
        { price: 79.9, versao: 4 },
      ]),
    );
  });
});
