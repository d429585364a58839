import { vi } from 'vitest';

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

type Handler = (call: Call) => { status: number; body?: unknown } | undefined;

/** Replaces `fetch` with a router over `handler`; unknown calls answer 404. Returns the recorded calls. */
export function mockFetch(handler: Handler): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const call: Call = {
        method: init?.method ?? 'GET',
        url: String(input),
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const answer = handler(call) ?? { status: 404, body: { detail: 'Não encontrado.', code: 'not_found' } };
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
