import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../test/render-routes.test-utils.tsx';
import { AccountPayments } from './account-payments.tsx';
import { ACCOUNT_PAYMENTS_POLL_MS, type AccountPayment } from './payments-api.ts';

const profile = { status: 200, body: { username: 'ana', email: 'ana@example.com', full_name: 'Ana' } };

const underReview: AccountPayment = {
  txid: 'cartao1',
  finalidade: 'pedido',
  metodo: 'cartao',
  status: 'EM_ANALISE',
  valor: 207.96,
  criado_em: '2026-06-15T15:00:00.000Z',
};
const refunded: AccountPayment = {
  txid: 'pix2',
  finalidade: 'pedido',
  metodo: 'pix',
  status: 'DEVOLVIDA',
  valor: 129.9,
  criado_em: '2026-06-14T13:00:00.000Z',
  motivo: 'O pagamento chegou depois do prazo e o produto esgotou.',
  devolucao: { status: 'EM_PROCESSAMENTO', valor: 129.9, em: '2026-06-14T13:05:00.000Z' },
};
const registration: AccountPayment = {
  txid: 'pix3',
  finalidade: 'inscricao',
  metodo: 'pix',
  status: 'RECUSADA',
  valor: 80,
  criado_em: '2026-06-13T13:00:00.000Z',
  motivo: 'Cobrança recusada.',
};

function serve(answers: AccountPayment[][]): Call[] {
  return mockFetch(({ url }) => {
    if (url === '/api/users/profile/') return profile;
    if (url === '/api/pagamentos/')
      return { status: 200, body: answers.length > 1 ? answers.shift() : answers[0] };
    return undefined;
  });
}

function show(purpose: 'pedido' | 'inscricao', onSettled = vi.fn()) {
  renderRoutes([{ path: '/', element: <AccountPayments purpose={purpose} onSettled={onSettled} /> }], '/');
  return onSettled;
}

beforeEach(() => {
  localStorage.setItem('token', 'abc');
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('AccountPayments', () => {
  it("shows this purpose's payments under review and given back, with amount, date, reason and refund", async () => {
    serve([[underReview, refunded, registration]]);
    show('pedido');
    const section = await screen.findByRole('region', { name: 'Pagamentos em andamento' });
    const items = within(section).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toMatch(/Cartão de crédito de R\$\s207,96/);
    expect(items[0]!.textContent).toMatch(/15\/06\/2026/);
    expect(items[0]!.textContent).toMatch(/Em análise pelo banco/);
    expect(items[1]!.textContent).toMatch(/Pix de R\$\s129,90/);
    // Requested, not yet back: it does not say "Devolvido" yet.
    expect(items[1]!.textContent).toMatch(
      /Devolução em andamento: O pagamento chegou depois do prazo e o produto esgotou\./,
    );
    expect(items[1]!.textContent).not.toMatch(/Devolvido/);
    expect(items[1]!.textContent).toMatch(/Devolução solicitada ao banco: R\$\s129,90 em 14\/06\/2026/);
    expect(section.textContent).not.toMatch(/Cobrança recusada/);
  });

  it('says "Devolvido" once the bank returned the money, and asks to get in touch when it could not', async () => {
    const back = { ...refunded, devolucao: { ...refunded.devolucao!, status: 'DEVOLVIDO' } };
    const refused = {
      ...refunded,
      txid: 'pix4',
      devolucao: { ...refunded.devolucao!, status: 'NAO_REALIZADO' },
    };
    serve([[back, refused]]);
    show('pedido');
    const returned = await screen.findByRole('region', { name: 'Pagamentos devolvidos' });
    const [done] = within(returned).getAllByRole('listitem');
    expect(done!.textContent).toMatch(/^.*Devolvido: O pagamento chegou/);
    expect(done!.textContent).toMatch(/Valor devolvido: R\$\s129,90/);
    // Not back yet: it needs the buyer's attention, so it stays in progress.
    const open = screen.getByRole('region', { name: 'Pagamentos em andamento' });
    const [failed] = within(open).getAllByRole('listitem');
    expect(failed!.textContent).toMatch(/Devolução não realizada: O pagamento chegou/);
    expect(failed!.textContent).toMatch(/Devolução não realizada: fale conosco/);
  });

  it('a refused card is not "in progress": it says what the buyer chose, instalments included', async () => {
    const refusedCard: AccountPayment = {
      ...underReview,
      txid: 'cartao5',
      status: 'RECUSADA',
      valor: 721.2,
      parcelas: 6,
      motivo: 'Transação não autorizada.',
    };
    serve([[refusedCard]]);
    show('pedido');
    const refused = await screen.findByRole('region', { name: 'Pagamentos recusados' });
    expect(within(refused).getByRole('listitem').textContent).toMatch(
      /Cartão de crédito de R\$\s721,20 em 6×.*Recusado: Transação não autorizada\./,
    );
    expect(screen.queryByRole('region', { name: 'Pagamentos em andamento' })).toBeNull();
  });

  it('the registration pages see only registrations', async () => {
    serve([[underReview, refunded, registration]]);
    show('inscricao');
    const section = await screen.findByRole('region', { name: 'Pagamentos recusados' });
    expect(within(section).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Pagamentos em andamento' })).toBeNull();
    expect(section.textContent).toMatch(/Recusado: Cobrança recusada\./);
  });

  it('shows nothing when there is nothing to follow, or when signed out (no call)', async () => {
    const calls = serve([[registration]]);
    show('pedido');
    await waitFor(() => expect(calls.some((c) => c.url === '/api/pagamentos/')).toBe(true));
    await act(async () => {});
    expect(screen.queryByRole('region')).toBeNull();
    cleanup();

    localStorage.clear();
    const signedOut = serve([[underReview]]);
    show('pedido');
    await act(async () => {});
    expect(signedOut.some((c) => c.url === '/api/pagamentos/')).toBe(false);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('reads again while one is under review, and tells the page once it settles', async () => {
    vi.useFakeTimers({
      toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
      shouldAdvanceTime: true,
    });
    const calls = serve([[underReview, refunded], [refunded]]);
    const onSettled = show('pedido');
    await screen.findByText(/Em análise pelo banco/);
    expect(onSettled).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(ACCOUNT_PAYMENTS_POLL_MS));
    await waitFor(() => expect(screen.queryByText(/Em análise pelo banco/)).toBeNull());
    expect(onSettled).toHaveBeenCalledTimes(1);
    // Nothing left under review: the list is not read again.
    const reads = calls.filter((c) => c.url === '/api/pagamentos/').length;
    await act(() => vi.advanceTimersByTimeAsync(ACCOUNT_PAYMENTS_POLL_MS * 3));
    expect(calls.filter((c) => c.url === '/api/pagamentos/')).toHaveLength(reads);
  });
});
