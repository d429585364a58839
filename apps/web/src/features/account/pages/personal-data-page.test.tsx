import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import PersonalDataPage from './personal-data-page.tsx';

const profile = { id: 7, username: 'cida', full_name: 'Cida Corredora', email: 'cida@example.com' };

const show = () =>
  renderRoutes([{ path: '/user/pessoal-data', element: <PersonalDataPage /> }], '/user/pessoal-data');
const form = (name: string) => screen.getByRole('form', { name });
const fill = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.input(within(scope).getByLabelText(label), { target: { value } });

beforeEach(() => localStorage.setItem('token', 'abc'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('PersonalDataPage', () => {
  it('shows each block with its labelled fields, filled from the profile', async () => {
    mockFetch(({ url }) => (url === '/api/users/profile/' ? { status: 200, body: profile } : undefined));
    show();
    const data = await screen.findByRole('form', { name: 'Nome e e-mail' });
    expect(within(data).getByRole('textbox', { name: 'Nome completo' })).toHaveProperty(
      'value',
      'Cida Corredora',
    );
    expect(within(data).getByRole('textbox', { name: 'E-mail' })).toHaveProperty('value', 'cida@example.com');
    expect(within(data).queryByLabelText('Senha atual')).toBeNull();
    const password = form('Alterar senha');
    for (const [label, autoComplete] of [
      ['Senha atual', 'current-password'],
      ['Nova senha', 'new-password'],
      ['Confirme a nova senha', 'new-password'],
    ]) {
      const field = within(password).getByLabelText(label ?? '');
      expect(field.getAttribute('type')).toBe('password');
      expect(field.getAttribute('autocomplete')).toBe(autoComplete);
    }
    expect(screen.getByRole('region', { name: 'Baixar meus dados' })).toBeTruthy();
    expect(within(form('Excluir conta')).getByLabelText('Senha para confirmar')).toBeTruthy();
  });

  it('asks the current password for a new e-mail and sends it with the change', async () => {
    const calls = mockFetch(({ url, method }) =>
      url === '/api/users/profile/'
        ? { status: 200, body: method === 'PATCH' ? { ...profile, email: 'nova@example.com' } : profile }
        : undefined,
    );
    show();
    const data = await screen.findByRole('form', { name: 'Nome e e-mail' });
    fill(data, 'E-mail', 'nova@example.com');
    fireEvent.click(within(data).getByRole('button', { name: 'Salvar dados' }));
    const current = await within(data).findByLabelText('Senha atual');
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    expect(within(data).getByText('Informe sua senha atual para trocar o e-mail.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    fill(data, 'Senha atual', 'passada de sábado');
    fireEvent.click(within(data).getByRole('button', { name: 'Salvar dados' }));
    expect((await within(data).findByRole('status')).textContent).toBe('Dados atualizados com sucesso.');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      full_name: 'Cida Corredora',
      email: 'nova@example.com',
      current_password: 'passada de sábado',
    });
  });

  it('shows the server’s refusal of a password change on its field', async () => {
    mockFetch(({ url }) => {
      if (url === '/api/users/profile/') return { status: 200, body: profile };
      if (url === '/api/users/profile/password/')
        return {
          status: 400,
          body: {
            detail: 'Senha atual incorreta.',
            code: 'validation_error',
            errors: { current_password: 'Senha atual incorreta.' },
          },
        };
      return undefined;
    });
    show();
    const password = await screen.findByRole('form', { name: 'Alterar senha' });
    fill(password, 'Senha atual', 'errada mas longa');
    fill(password, 'Nova senha', 'outra senha de corrida');
    fill(password, 'Confirme a nova senha', 'outra senha de corrida');
    fireEvent.click(within(password).getByRole('button', { name: 'Alterar senha' }));
    expect((await within(password).findByRole('alert')).textContent).toBe('Senha atual incorreta.');
    const current = within(password).getByLabelText('Senha atual');
    expect(current.getAttribute('aria-invalid')).toBe('true');
    expect(current.getAttribute('aria-describedby')).toBeTruthy();
  });
});
