import { fireEvent, screen } from '@testing-library/react';
import { vi } from 'vitest';

export interface Call {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

/** An answer, or 'network' for a connection that drops before any answer. */
type Handler = (call: Call) => { status: number; body?: unknown } | 'network' | undefined;

/** Replaces `fetch` with a router over `handler`; unknown calls answer 404. Returns the recorded calls. */
export function mockFetch(handler: Handler): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const call: Call = {
        method: init?.method ?? 'GET',
        url: String(input),
        // JSON as the object sent; an upload (FormData) as it is.
        body:
          typeof init?.body === 'string'
            ? JSON.parse(init.body)
            : init?.body instanceof FormData
              ? init.body
              : undefined,
        headers: { ...(init?.headers as Record<string, string> | undefined) },
      };
      calls.push(call);
      const answer = handler(call) ?? { status: 404, body: { detail: 'Não encontrado.', code: 'not_found' } };
      if (answer === 'network') throw new TypeError('Failed to fetch');
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

/** `GET /api/config/` as the server answers it for the given payments provider. */
export function configAnswer(provedor: 'simulado' | 'efi') {
  return {
    status: 200,
    body: {
      nome_loja: 'Passada',
      pagamentos: { provedor, conta: provedor === 'efi' ? 'a'.repeat(32) : null, ambiente: 'sandbox' },
    },
  };
}

/** Types `value` into the field labelled `label` (an input event, as typing sends; a select changes). */
export function type(label: string, value: string) {
  const field = screen.getByLabelText(label);
  if (field instanceof HTMLSelectElement) fireEvent.change(field, { target: { value } });
  else fireEvent.input(field, { target: { value } });
}

/** A valid Visa card for Ana, paid in 3 instalments (the options must be served). */
export async function fillValid(number = '4111 1111 1111 1111') {
  type('Número do cartão', number);
  type('Nome impresso no cartão', 'Ana Maria Teste');
  type('Mês', '12');
  type('Ano', '2028');
  type('CVV', '123');
  type('CPF do titular', '529.982.247-25');
  type('Data de nascimento do titular', '05/12/1990');
  await screen.findByRole('option', { name: /3× de R\$\s66,67 sem juros/ });
  type('Parcelas', '3');
}

/** `GET /api/parcelas/` for a R$ 200,00 Visa total. */
export const installments = {
  installments: [
    { installment: 1, has_interest: false, value: 20000, currency: '200,00', interest_percentage: 0 },
    { installment: 3, has_interest: false, value: 6667, currency: '66,67', interest_percentage: 0 },
    { installment: 4, has_interest: true, value: 5199, currency: '51,99', interest_percentage: 199 },
  ],
};

/** `POST /api/pagar-cartao/` answered with `status`; an approved card also fulfils order 9. */
export function approved(status = 'approved') {
  return {
    detalhes: {
      data: {
        status,
        charge_id: 'cartao-simulado-77',
        installments: 3,
        installment_value: 6667,
        total: 20000,
        preco_juros: 200.01,
      },
    },
    ...(status === 'approved' ? { pedido_id: 9 } : {}),
  };
}
