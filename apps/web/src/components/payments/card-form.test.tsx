import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CardForm } from './card-form.tsx';
import {
  approved,
  type Call,
  configAnswer,
  fillValid,
  installments,
  mockFetch,
  type,
} from './fetch-mock.test-utils.ts';

interface Server {
  token?: { status: number; body: unknown };
  pay?: { status: number; body: unknown };
}

function serve(server: Server = {}): Call[] {
  return mockFetch(({ url }) => {
    if (url === '/api/config/') return configAnswer('simulado');
    if (url === '/api/simulador/cartao/token') {
      if (server.token) return server.token;
      return { status: 200, body: { payment_token: 'tok_abc', card_mask: '411111******1111' } };
    }
    if (url.startsWith('/api/parcelas/')) return { status: 200, body: installments };
    if (url === '/api/pagar-cartao/') return server.pay ?? { status: 200, body: approved() };
    return undefined;
  });
}

function renderForm() {
  const onPaid = vi.fn();
  const onInstallmentChange = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CardForm
        finalidade="pedido"
        draft={{ items: [{ product: 1, quantity: 1, color: 1, size: 1 }], address_id: 3 }}
        totalCents={20000}
        produto="Camiseta Sertão"
        payer={{ email: 'ana@example.com', phone: '85999990000' }}
        onPaid={onPaid}
        onInstallmentChange={onInstallmentChange}
      />
    </QueryClientProvider>,
  );
  return { onPaid, onInstallmentChange };
}

/** The error text announced with a field (its aria-describedby). */
function errorOf(label: string): string | null {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

/** Clicks "Pagar com cartão" and lets the form's validation settle. */
async function submit() {
  fireEvent.click(screen.getByRole('button', { name: 'Pagar com cartão' }));
  await act(async () => {});
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-06-15T12:00:00-03:00'));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('CardForm', () => {
  it('requires every field and calls nothing while one is missing', async () => {
    const calls = serve();
    const { onPaid } = renderForm();
    await submit();
    for (const label of [
      'Número do cartão',
      'Nome impresso no cartão',
      'Mês',
      'Ano',
      'CVV',
      'CPF do titular',
    ]) {
      expect(errorOf(label)).toBe('Campo obrigatório.');
    }
    expect(errorOf('Parcelas')).toBe('Campo obrigatório.');
    await act(async () => {});
    expect(calls.filter((c) => c.url.includes('pagar-cartao') || c.url.includes('token'))).toHaveLength(0);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('shows each card rule broken at its own field', async () => {
    const calls = serve();
    renderForm();
    type('Número do cartão', '4111 1111 1111 1112');
    type('Nome impresso no cartão', 'Ana');
    type('Mês', '05');
    type('Ano', '2026');
    type('CVV', '12');
    type('CPF do titular', '111.111.111-11');
    await submit();
    expect(errorOf('Número do cartão')).toBe('Número do cartão inválido.');
    expect(errorOf('Nome impresso no cartão')).toMatch(/nome e sobrenome/);
    expect(errorOf('Mês')).toBe('Cartão vencido.');
    expect(errorOf('CVV')).toBe('CVV inválido.');
    expect(errorOf('CPF do titular')).toBe('CPF do titular inválido.');
    await act(async () => {});
    expect(calls.some((c) => c.url === '/api/pagar-cartao/')).toBe(false);
  });

  it('detects the brand after 6 digits and flags an unsupported one', async () => {
    serve();
    renderForm();
    const brand = screen.getByLabelText('Bandeira') as HTMLInputElement;
    expect(brand.readOnly).toBe(true);
    type('Número do cartão', '55555');
    expect(brand.value).toBe('');
    type('Número do cartão', '555555');
    expect(brand.value).toBe('Mastercard');
    type('Número do cartão', '6011 1111 1111 1117');
    expect(brand.value).toBe('Não aceita');
    await submit();
    expect(errorOf('Número do cartão')).toMatch(/Bandeira não aceita/);
  });

  it("puts the tokenizer's error code at its field", async () => {
    serve({
      token: {
        status: 400,
        body: { code: 400, error: 'cvv_cartao_invalido', error_description: 'Número CVV do cartão inválido' },
      },
    });
    const { onPaid } = renderForm();
    await fillValid();
    await submit();
    await waitFor(() => expect(errorOf('CVV')).toBe('CVV inválido.'));
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('lists instalments per Decreto 5.903 and pays with the chosen one', async () => {
    const calls = serve();
    const { onPaid, onInstallmentChange } = renderForm();
    await fillValid();
    expect(
      screen.getByRole('option', {
        name: /4× de R\$\s51,99 com juros de 1,99% a\.m\. \(total R\$\s207,96\)/,
      }),
    ).toBeTruthy();
    expect(calls.find((c) => c.url.startsWith('/api/parcelas/'))?.url).toBe(
      '/api/parcelas/?brand=visa&total=20000',
    );
    await waitFor(() =>
      expect(onInstallmentChange).toHaveBeenLastCalledWith({
        installment: 3,
        value: 6667,
        has_interest: false,
        interest_percentage: 0,
      }),
    );
    await submit();
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    expect(onPaid).toHaveBeenCalledWith({
      chargeId: 'cartao-simulado-77',
      fulfilledId: 9,
      totalCents: 20000,
      installments: 3,
      precoJuros: 200.01,
    });
    const pay = calls.find((c) => c.url === '/api/pagar-cartao/');
    expect(pay?.body).toMatchObject({
      payment_token: 'tok_abc',
      name: 'Ana Maria Teste',
      cpf: '52998224725',
      email: 'ana@example.com',
      total: 200,
      installments: 3,
      finalidade: 'pedido',
      pedido: { address_id: 3 },
    });
    // The card number and CVV go only to the tokenizer, never to our payment call.
    expect(JSON.stringify(pay?.body)).not.toContain('4111');
  });

  it("a refused card shows the spec's message and is not reported as paid", async () => {
    serve({ pay: { status: 200, body: approved('unpaid') } });
    const { onPaid } = renderForm();
    await fillValid('4000 0000 0000 0002');
    await submit();
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Erro ao gerar token ou pagar/);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('a 409 from the API shows its detail', async () => {
    serve({
      pay: {
        status: 409,
        body: { detail: 'Estoque insuficiente para Camiseta Sertão.', code: 'sem_estoque' },
      },
    });
    const { onPaid } = renderForm();
    await fillValid();
    await submit();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Erro ao gerar token ou pagar. Estoque insuficiente para Camiseta Sertão.',
    );
    expect(onPaid).not.toHaveBeenCalled();
  });
});
