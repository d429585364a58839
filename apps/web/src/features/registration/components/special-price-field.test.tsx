import { PCD_PROOF_CONSENT } from '@passada/core/contracts/consents';
import type { EventPriceRule } from '@passada/core/contracts/price-rules';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { RunnerRuleDifference } from './runner-rule-difference.tsx';
import { type SpecialPrice, SpecialPriceField } from './special-price-field.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const rule = (over: Partial<EventPriceRule>): EventPriceRule => ({
  id: 1,
  categoria: 7,
  publico: 'estudante',
  nome: 'Estudante',
  desconto: 'meia',
  preco: 44.95,
  exige_comprovante: true,
  comprovante: 'Carteira de estudante válida.',
  ate: null,
  esgotada: false,
  ...over,
});

function Field() {
  const [value, setValue] = useState<SpecialPrice | null>(null);
  return <SpecialPriceField eventId={3} categories={[7]} value={value} onChange={setValue} />;
}

describe('the special price field', () => {
  it('a PCD document is chosen only after its own consent; a student’s needs none', async () => {
    mockFetch((call) =>
      call.url.endsWith('/regras-preco/')
        ? {
            status: 200,
            body: [rule({}), rule({ id: 2, publico: 'pcd', nome: 'PCD', comprovante: 'Laudo médico.' })],
          }
        : undefined,
    );
    renderRoutes([{ path: '/', element: <Field /> }], '/');
    await userEvent.click(await screen.findByRole('radio', { name: /PCD/ }));
    const file = screen.getByLabelText<HTMLInputElement>('Comprovante de PCD (foto ou PDF)');
    expect(file.disabled).toBe(true);
    await userEvent.click(screen.getByRole('checkbox', { name: PCD_PROOF_CONSENT.text }));
    expect(file.disabled).toBe(false);
    await userEvent.click(screen.getByRole('radio', { name: /Estudante/ }));
    expect(screen.queryByRole('checkbox', { name: PCD_PROOF_CONSENT.text })).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Comprovante de Estudante (foto ou PDF)').disabled).toBe(
      false,
    );
  });
});

describe('a refused proof on the runner’s card', () => {
  it('says why and offers to pay the difference; nothing shows when there is nothing to pay', async () => {
    const calls = mockFetch((call) =>
      call.url.endsWith('/api/inscricoes/9/diferenca-preco/')
        ? {
            status: 200,
            body: {
              permitido: true,
              motivo: null,
              regra: 'Estudante',
              motivo_recusa: 'Documento ilegível.',
              a_pagar: 54.95,
            },
          }
        : call.url.endsWith('/api/inscricoes/8/diferenca-preco/')
          ? {
              status: 200,
              body: {
                permitido: false,
                motivo: 'Não há diferença a pagar.',
                regra: null,
                motivo_recusa: null,
                a_pagar: 0,
              },
            }
          : undefined,
    );
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <>
              <RunnerRuleDifference
                refused
                base="/api/inscricoes/9"
                pays={{ inscricao: 9 }}
                onPaid={() => {}}
              />
              <RunnerRuleDifference
                refused
                base="/api/inscricoes/8"
                pays={{ inscricao: 8 }}
                onPaid={() => {}}
              />
              <RunnerRuleDifference
                refused={false}
                base="/api/inscricoes/7"
                pays={{ inscricao: 7 }}
                onPaid={() => {}}
              />
            </>
          ),
        },
      ],
      '/',
    );
    const box = await screen.findByRole('region', {
      name: 'Comprovante do preço especial Estudante recusado',
    });
    expect(box.textContent).toContain('Motivo: Documento ilegível.');
    expect(box.textContent).toContain('devolução integral');
    // Signed out (a participant's link): paying asks to sign in first.
    expect(screen.getByRole('link', { name: 'entre na sua conta' })).toBeTruthy();
    expect(screen.getAllByRole('region')).toHaveLength(1);
    // A registration not flagged asks nothing.
    expect(calls.some((c) => c.url.includes('/api/inscricoes/7/'))).toBe(false);
  });
});
