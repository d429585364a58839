import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { AddressForm, filledText } from './address-form.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let saved: unknown[];
let cepStreet: string;
beforeEach(() => {
  saved = [];
  cepStreet = '';
  localStorage.setItem('token', 'abc');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      if (input === '/api/users/profile/')
        return json(200, { username: 'cida', email: 'c@x.com', full_name: 'Cida' });
      if (input.startsWith('/api/cep/'))
        return json(200, {
          cep: '60165121',
          state: 'CE',
          city: 'Fortaleza',
          neighborhood: 'Meireles',
          street: cepStreet,
        });
      if (input === '/api/users/addresses/' && init?.method === 'POST') {
        saved.push(JSON.parse(String(init.body)));
        return json(201, { id: 1 });
      }
      return json(200, []);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('address form masks', () => {
  it('shows CEP and phone punctuated while typing and sends digits', async () => {
    renderRoutes(
      [
        {
          path: '/adicionar-endereco',
          element: <AddressForm failureMessage="Erro ao adicionar o endereço." />,
        },
        { path: '/enderecos', element: <p>Endereços</p> },
      ],
      '/adicionar-endereco',
    );
    await userEvent.type(await screen.findByLabelText('Nome completo'), 'Cida Corredora');
    const cep = screen.getByLabelText('CEP') as HTMLInputElement;
    await userEvent.type(cep, '60165121');
    expect(cep.value).toBe('60165-121');
    await vi.waitFor(() =>
      expect((screen.getByLabelText('Cidade') as HTMLInputElement).value).toBe('Fortaleza'),
    );
    await userEvent.type(screen.getByLabelText('Rua'), 'Rua Silva Paulet');
    await userEvent.type(screen.getByLabelText('Número'), '10');
    const phone = screen.getByLabelText('Telefone') as HTMLInputElement;
    await userEvent.type(phone, '8532345678');
    expect(phone.value).toBe('(85) 3234-5678');
    // An eleventh digit makes it a mobile number.
    await userEvent.type(phone, '9');
    expect(phone.value).toBe('(85) 32345-6789');
    await userEvent.clear(phone);
    await userEvent.type(phone, '85932345678');
    expect(phone.value).toBe('(85) 93234-5678');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar endereço' }));
    await screen.findByText('Endereços');
    expect(saved).toEqual([
      expect.objectContaining({
        zip_code: '60165121',
        phone: '85932345678',
        street: 'Rua Silva Paulet',
        number: '10',
        complement: '',
      }),
    ]);
  });
});

describe('address form: number and complement', () => {
  const show = () =>
    renderRoutes(
      [
        {
          path: '/adicionar-endereco',
          element: <AddressForm failureMessage="Erro ao adicionar o endereço." />,
        },
        { path: '/enderecos', element: <p>Endereços</p> },
      ],
      '/adicionar-endereco',
    );

  it('fills the street from the CEP and asks for the number next; the complement is optional', async () => {
    cepStreet = 'Avenida Beira Mar';
    show();
    await userEvent.type(await screen.findByLabelText('Nome completo'), 'Cida Corredora');
    await userEvent.type(screen.getByLabelText('CEP'), '60165121');
    await vi.waitFor(() =>
      expect((screen.getByLabelText('Rua') as HTMLInputElement).value).toBe('Avenida Beira Mar'),
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Número')));
    await userEvent.type(screen.getByLabelText('Telefone'), '85932345678');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar endereço' }));
    expect(await screen.findByText('Informe o número (ou S/N, se não houver).')).toBeTruthy();
    expect(saved).toEqual([]);

    await userEvent.type(screen.getByLabelText('Número'), 'S/N');
    await userEvent.type(screen.getByLabelText('Complemento (opcional)'), 'Bloco B, apto 302');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar endereço' }));
    await screen.findByText('Endereços');
    expect(saved).toEqual([
      expect.objectContaining({
        street: 'Avenida Beira Mar',
        number: 'S/N',
        complement: 'Bloco B, apto 302',
      }),
    ]);
  });
});

describe('what the CEP filled', () => {
  it('says what the lookup filled and what is left to type', async () => {
    renderRoutes(
      [
        {
          path: '/adicionar-endereco',
          element: <AddressForm failureMessage="Erro ao adicionar o endereço." />,
        },
      ],
      '/adicionar-endereco',
    );
    await userEvent.type(await screen.findByLabelText('CEP'), '60165121');
    expect(
      await screen.findByText(
        'O CEP preencheu o estado, a cidade e o bairro. Confira e digite a rua e o número.',
      ),
    ).toBeTruthy();
  });

  it('names only the state when the offline table knows no city', () => {
    expect(filledText({ cep: '62010000', state: 'CE' })).toBe(
      'O CEP preencheu o estado. Confira e digite a cidade, o bairro, a rua e o número.',
    );
    expect(filledText({ cep: '60165121', state: 'CE', city: 'Fortaleza' })).toBe(
      'O CEP preencheu o estado e a cidade. Confira e digite o bairro, a rua e o número.',
    );
  });
});
