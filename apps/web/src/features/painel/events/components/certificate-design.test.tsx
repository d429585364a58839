import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import { CertificateDesignForm } from './certificate-design.tsx';

afterEach(cleanup);

const URL = '/api/painel/events/7/resultados/certificado/';

describe('CertificateDesignForm', () => {
  it('shows the saved design, saves the changes with the version read, and offers to reload when someone saved first', async () => {
    let stored = {
      modelo: 'classico',
      cor: '#EA580C',
      assinatura_nome: null as string | null,
      assinatura_cargo: null as string | null,
      mensagem: null as string | null,
      versao: 1,
    };
    let someoneElse = false;
    const calls = mockFetch(({ method, url, body }) => {
      if (url !== URL) return undefined;
      if (method === 'PUT') {
        const { versao, ...design } = body as typeof stored;
        if (someoneElse || versao !== stored.versao)
          return {
            status: 409,
            body: {
              detail:
                'O certificado deste evento foi alterado por outra pessoa depois que você abriu a página.',
              code: 'versao_desatualizada',
            },
          };
        stored = { ...design, versao: versao + 1 };
      }
      return { status: 200, body: stored };
    });
    renderRoutes(
      [
        {
          path: '/painel/eventos/:id/resultados',
          element: <CertificateDesignForm eventId={7} className="" />,
        },
      ],
      '/painel/eventos/7/resultados',
    );
    const form = await screen.findByRole('form', { name: 'Certificado' });
    const layout = (await within(form).findByRole('combobox', { name: 'Modelo' })) as HTMLSelectElement;
    expect(layout.value).toBe('classico');
    expect((within(form).getByLabelText('Cor de destaque') as HTMLInputElement).value).toBe('#ea580c');

    fireEvent.change(layout, { target: { value: 'minimalista' } });
    fireEvent.change(within(form).getByLabelText('Cor de destaque'), { target: { value: '#1d4ed8' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Quem assina (nome)' }), {
      target: { value: ' Marta Rocha ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar certificado' }));
    await within(form).findByText('Certificado salvo. Os próximos certificados saem neste modelo.');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      modelo: 'minimalista',
      cor: '#1D4ED8',
      assinatura_nome: 'Marta Rocha',
      assinatura_cargo: null,
      mensagem: null,
      versao: 1,
    });
    expect(layout.value).toBe('minimalista');

    // Someone saved from another page meanwhile: the typed text stays until the person reloads.
    someoneElse = true;
    fireEvent.change(within(form).getByRole('textbox', { name: 'Cargo de quem assina' }), {
      target: { value: 'Diretora de prova' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar certificado' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('alterado por outra pessoa');
    const role = () =>
      within(form).getByRole('textbox', { name: 'Cargo de quem assina' }) as HTMLInputElement;
    expect(role().value).toBe('Diretora de prova');
    someoneElse = false;
    fireEvent.click(within(form).getByRole('button', { name: 'Recarregar o certificado' }));
    await expect.poll(() => within(form).queryByRole('alert')).toBeNull();
    expect(role().value).toBe('');
  });
});
