import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  approved,
  type Call,
  configAnswer,
  fillValid,
  installments,
  mockFetch,
  type,
} from '../../test/fetch-mock.test-utils.ts';
import { CardForm, type CardPhase } from './card-form.tsx';
import { CARD_RETRY_DELAYS_MS, CARD_REVIEW_POLL_MS } from './payments-api.ts';

type Answer = { status: number; body: unknown } | 'network';

interface Server {
  token?: { status: number; body: unknown };
  /** The payment's answer; a list is answered in turn, its last item from then on. */
  pay?: Answer | Answer[];
  /**
   * `GET /api/status-pix/{txid}/` answers in turn, the last one from then on; or a function asked at
   * each read (the bank's state as the test sets it).
   */
  status?: unknown[] | (() => unknown);
}

function inTurn<T>(answers: T[]): T {
  return (answers.length > 1 ? answers.shift() : answers[0]) as T;
}

function serve(server: Server = {}): Call[] {
  const pay = Array.isArray(server.pay) ? [...server.pay] : server.pay ? [server.pay] : null;
  const status = typeof server.status === 'function' ? server.status : [...(server.status ?? [])];
  return mockFetch(({ url }) => {
    if (url === '/api/status-pix/cartaosimulado77/') {
      if (typeof status === 'function') return { status: 200, body: status() };
      if (status.length > 0) return { status: 200, body: inTurn(status) };
    }
    if (url === '/api/config/') return configAnswer('simulado');
    if (url === '/api/simulador/cartao/token') {
      if (server.token) return server.token;
      return { status: 200, body: { payment_token: 'tok_abc', card_mask: '411111******1111' } };
    }
    if (url.startsWith('/api/parcelas/')) return { status: 200, body: installments };
    if (url === '/api/pagar-cartao/') return pay ? inTurn(pay) : { status: 200, body: approved() };
    return undefined;
  });
}

function renderForm() {
  const onPaid = vi.fn();
  const onInstallmentChange = vi.fn();
  const phases: CardPhase[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const form = (totalCents: number) => (
    <QueryClientProvider client={client}>
      <CardForm
        finalidade="pedido"
        draft={{ items: [{ product: 1, quantity: 1, color: 1, size: 1 }], address_id: 3 }}
        totalCents={totalCents}
        produto="Camiseta Sertão"
        payer={{ email: 'ana@example.com', phone: '85999990000' }}
        onPaid={onPaid}
        onInstallmentChange={onInstallmentChange}
        onPhaseChange={(phase) => phases.push(phase)}
      />
    </QueryClientProvider>
  );
  const { rerender } = render(form(20000));
  /** The page's total changed (an item removed on the review page). */
  const changeTotal = (totalCents: number) => rerender(form(totalCents));
  return { onPaid, onInstallmentChange, phases, changeTotal };
}

const payments = (calls: Call[]) => calls.filter((c) => c.url === '/api/pagar-cartao/');
const statusReads = (calls: Call[]) =>
  calls.filter((c) => c.url === '/api/status-pix/cartaosimulado77/').length;
const keysOf = (calls: Call[]) => payments(calls).map((c) => c.headers['Idempotency-Key']);

/** The card answer while the bank reviews it: 202, `em_analise`, and the charge to poll. */
const underReview = {
  status: 202,
  body: { ...approved('em_analise'), txid: 'cartaosimulado77' },
};
const refused = (detail: string) => ({ status: 400, body: { detail, code: 'pagamento_recusado' } });

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
      'Data de nascimento do titular',
    ]) {
      expect(errorOf(label)).toBe('Campo obrigatório.');
    }
    expect(errorOf('Parcelas')).toBe('Campo obrigatório.');
    await act(async () => {});
    expect(calls.filter((c) => c.url.includes('pagar-cartao') || c.url.includes('token'))).toHaveLength(0);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('keeps the card details when the total changes, and asks for the instalments again', async () => {
    serve();
    const { changeTotal } = renderForm();
    await fillValid();
    expect(screen.getByLabelText<HTMLSelectElement>('Parcelas').value).toBe('3');
    changeTotal(15000);
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('Parcelas').value).toBe(''));
    expect(screen.getByLabelText<HTMLInputElement>('Número do cartão').value).toBe('4111 1111 1111 1111');
    expect(screen.getByLabelText<HTMLInputElement>('Nome impresso no cartão').value).toBe('Ana Maria Teste');
    expect(screen.getByLabelText<HTMLInputElement>('CVV').value).toBe('123');
  });

  it('groups the number while typing (Amex 4-6-5) and hands the tokenizer digits only', async () => {
    vi.useRealTimers();
    const calls = serve();
    renderForm();
    const number = screen.getByLabelText('Número do cartão') as HTMLInputElement;
    await userEvent.type(number, '378282246310005');
    expect(number.value).toBe('3782 822463 10005');
    await userEvent.clear(number);
    await userEvent.type(number, '4111x1111-1111 1111');
    expect(number.value).toBe('4111 1111 1111 1111');
    await fillValid('4111 1111 1111 1111');
    await submit();
    await waitFor(() => expect(calls.some((c) => c.url === '/api/simulador/cartao/token')).toBe(true));
    expect(calls.find((c) => c.url === '/api/simulador/cartao/token')?.body).toMatchObject({
      number: '4111111111111111',
    });
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
      birth: '1990-12-05',
      finalidade: 'pedido',
      // The draft as the page built it: the server takes the buyer's CPF from the card holder's.
      pedido: { address_id: 3 },
    });
    expect(pay?.headers['Idempotency-Key']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
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

  it("takes the holder's birth date as dd/mm/aaaa: a real day, 16 to 120 years ago", async () => {
    const calls = serve();
    renderForm();
    const birth = screen.getByLabelText('Data de nascimento do titular') as HTMLInputElement;
    type('Data de nascimento do titular', '3102199');
    expect(birth.value).toBe('31/02/199');
    const cases: [string, string | null][] = [
      ['31/02/1990', 'Informe uma data válida no formato dd/mm/aaaa.'],
      ['16/06/2010', 'O titular do cartão deve ter ao menos 16 anos.'],
      ['15/06/2010', null],
      ['14/06/1905', 'Informe uma data de nascimento válida.'],
      ['15/06/1906', null],
    ];
    for (const [typed, error] of cases) {
      type('Data de nascimento do titular', typed);
      await submit();
      expect(errorOf('Data de nascimento do titular')).toBe(error);
    }
    expect(payments(calls)).toHaveLength(0);
  });
});

describe('CardForm: one attempt, charged once', () => {
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
      shouldAdvanceTime: true,
    });
    vi.setSystemTime(new Date('2026-06-15T12:00:00-03:00'));
  });

  const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
  const stillProcessing = {
    status: 409,
    body: { detail: 'Pagamento em processamento.', code: 'pagamento_em_processamento' },
  };

  it('resends a lost or still-processing attempt with the same key and token, and reports it paid once', async () => {
    const calls = serve({ pay: ['network', stillProcessing, { status: 200, body: approved() }] });
    const { onPaid } = renderForm();
    await fillValid();
    await submit();
    await wait(CARD_RETRY_DELAYS_MS[0]!);
    await wait(CARD_RETRY_DELAYS_MS[1]!);
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    const keys = keysOf(calls);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(calls.filter((c) => c.url === '/api/simulador/cartao/token')).toHaveLength(1);
    expect(
      payments(calls).every((c) => (c.body as { payment_token: string }).payment_token === 'tok_abc'),
    ).toBe(true);
  });

  it('an outcome still unknown after the retries is said so; paying again resumes the same attempt', async () => {
    const gatewayDown = { status: 504, body: { detail: 'Tempo esgotado.' } };
    const serverFailed = { status: 500, body: { detail: 'Erro interno.' } };
    const calls = serve({
      pay: [gatewayDown, 'network', serverFailed, 'network', { status: 200, body: approved() }],
    });
    const { onPaid } = renderForm();
    await fillValid();
    await submit();
    for (const delay of CARD_RETRY_DELAYS_MS) await wait(delay);
    expect((await screen.findByRole('alert')).textContent).toMatch(/sem cobrança em dobro/);
    expect(onPaid).not.toHaveBeenCalled();
    await submit();
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    expect(keysOf(calls)).toHaveLength(5);
    expect(new Set(keysOf(calls)).size).toBe(1);
  });

  it('changing the card after an unknown outcome starts a new attempt', async () => {
    const calls = serve({
      pay: ['network', 'network', 'network', 'network', { status: 200, body: approved() }],
    });
    const { onPaid } = renderForm();
    await fillValid();
    await submit();
    for (const delay of CARD_RETRY_DELAYS_MS) await wait(delay);
    await screen.findByRole('alert');
    type('CVV', '321');
    await submit();
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    const keys = keysOf(calls);
    expect(keys.at(-1)).not.toBe(keys[0]);
  });

  it("a refusal shows the bank's reason and is never resent; the next payment is a new attempt", async () => {
    const calls = serve({
      pay: [refused('Saldo insuficiente.'), { status: 200, body: approved() }],
    });
    const { onPaid } = renderForm();
    await fillValid();
    await submit();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Erro ao gerar token ou pagar. Pagamento recusado: Saldo insuficiente.',
    );
    await wait(CARD_RETRY_DELAYS_MS[0]!);
    expect(payments(calls)).toHaveLength(1);
    expect(onPaid).not.toHaveBeenCalled();
    await submit();
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    const [first, second] = keysOf(calls);
    expect(second).not.toBe(first);
  });

  it('a card under review is read until the bank approves it, then reported paid once', async () => {
    // The bank approves when the test says so, not after a number of reads: the fake timers also move
    // with the real clock, so on a busy machine one wait may hold more than one read.
    const bank = { approved: false };
    const calls = serve({
      pay: underReview,
      status: () => (bank.approved ? { status: 'CONCLUIDA', pedido_id: 9 } : { status: 'EM_ANALISE' }),
    });
    const reads = () => statusReads(calls);
    const { onPaid, phases } = renderForm();
    await fillValid();
    await submit();
    await waitFor(() => expect(phases.at(-1)).toBe('review'));
    expect(screen.getByRole('button', { name: /Processando|Pagar com cartão/ })).toHaveProperty(
      'disabled',
      true,
    );
    await wait(CARD_REVIEW_POLL_MS);
    await waitFor(() => expect(reads()).toBeGreaterThan(0));
    expect(onPaid).not.toHaveBeenCalled();
    expect(phases.at(-1)).toBe('review');
    bank.approved = true;
    await wait(CARD_REVIEW_POLL_MS);
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    expect(onPaid).toHaveBeenCalledWith({
      chargeId: 'cartaosimulado77',
      fulfilledId: 9,
      totalCents: 20000,
      installments: 3,
      precoJuros: 200.01,
    });
    // The form leaves review in the render after the one that reported the payment.
    await waitFor(() => expect(phases.at(-1)).toBe('idle'));
    await wait(CARD_REVIEW_POLL_MS * 3);
    expect(onPaid).toHaveBeenCalledTimes(1);
    expect(payments(calls)).toHaveLength(1);
  });

  it("a card the bank refuses after review shows the bank's reason, and the next try is a new attempt", async () => {
    const calls = serve({
      pay: [underReview, { status: 200, body: approved() }],
      status: [{ status: 'RECUSADA', motivo: 'Transação não autorizada pelo banco emissor.' }],
    });
    const { onPaid, phases } = renderForm();
    await fillValid();
    await submit();
    await wait(CARD_REVIEW_POLL_MS);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Erro ao gerar token ou pagar. Pagamento recusado: Transação não autorizada pelo banco emissor.',
    );
    await waitFor(() => expect(phases.at(-1)).toBe('idle'));
    expect(onPaid).not.toHaveBeenCalled();
    await submit();
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    const [first, second] = keysOf(calls);
    expect(second).not.toBe(first);
  });
});
