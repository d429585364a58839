import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import RegistrationLookupPage from './registration-lookup-page.tsx';

const EVENT = {
  id: 7,
  nome_evento: 'Corrida da Ponte',
  imagem_evento: '/api/media/events/x.svg',
  dias_evento: [],
};
const FOUND = {
  id: 1,
  nome_completo: 'Maria da Silva',
  email: 'maria@example.com',
  numero_contato: '(85) 99999-9999',
  evento_detalhes: { id: 7, nome_evento: 'Corrida da Ponte' },
  categoria_evento_detalhes: [{ id: 3, nome_categoria: '10 km' }],
  endereco: 'Av. Beira Mar, 100 - Meireles, Fortaleza - CE, 60165-121',
  total: 69.9,
  cupom: 'CORRE20',
  desconto: 20,
  cancelada_em: null,
};
/** The same registration after the shop cancelled it and returned its payment. */
const CANCELLED = { ...FOUND, id: 2, cancelada_em: '2026-06-20T15:30:00.000Z' };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A registration paid by Pix after its place went back, given back to the payer; and an order's card. */
const PAYMENTS = [
  {
    txid: 'pix9',
    finalidade: 'inscricao',
    metodo: 'pix',
    status: 'DEVOLVIDA',
    valor: 80,
    criado_em: '2026-06-14T13:00:00.000Z',
    motivo: 'As vagas da categoria esgotaram antes do pagamento.',
    devolucao: { status: 'DEVOLVIDO', valor: 80, em: '2026-06-14T13:05:00.000Z' },
  },
  {
    txid: 'cartao8',
    finalidade: 'pedido',
    metodo: 'cartao',
    status: 'EM_ANALISE',
    valor: 200,
    criado_em: '2026-06-14T12:00:00.000Z',
  },
];

let lookups: string[];
let cancelSent: string[];
let cancelledNow: boolean;
/** After the 7 days, with the organiser's fee of R$ 20,00 kept. */
let cancellation: Record<string, unknown>;

beforeEach(() => {
  lookups = [];
  cancelSent = [];
  cancelledNow = false;
  cancellation = {
    permitido: true,
    motivo: null,
    valor_pago: 109.9,
    valor_devolvido: 89.9,
    valor_retido: 20,
    arrependimento: false,
  };
  localStorage.setItem('token', 'abc');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      if (input === '/api/inscricoes/1/cancelamento/') return json(200, cancellation);
      if (input === '/api/inscricoes/1/cancelar/') {
        cancelSent.push(String(init?.body));
        cancellation = { ...cancellation, permitido: false, motivo: 'Esta inscrição já foi cancelada.' };
        cancelledNow = true;
        return json(200, cancellation);
      }
      if (input === '/api/events/7/pos-venda/')
        return json(200, { texto: ['Cancelamento: em até 7 dias da compra, todo o valor pago volta.'] });
      if (input === '/api/users/profile/')
        return json(200, { username: 'maria', email: 'maria@example.com', full_name: 'Maria' });
      if (input === '/api/events/7/') return json(200, EVENT);
      if (input === '/api/pagamentos/') return json(200, PAYMENTS);
      if (input.startsWith('/api/participantes/cpf/')) {
        lookups.push(input);
        if (input.includes('40364478829'))
          return json(200, cancelledNow ? { ...FOUND, cancelada_em: '2026-06-21T12:00:00.000Z' } : FOUND);
        if (input.includes('11144477735')) return json(200, CANCELLED);
        return json(404, { detail: 'Inscrição não encontrada para o CPF fornecido.' });
      }
      return json(404, { detail: 'Não encontrado.' });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function renderPage() {
  renderRoutes(
    [
      { path: '/eventos/register/:id/ja-me-inscrevi', element: <RegistrationLookupPage /> },
      { path: '/login', element: <p>Página de login</p> },
    ],
    '/eventos/register/7/ja-me-inscrevi',
  );
}

describe('registration lookup page', () => {
  it('asks for a CPF before searching', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Buscar Inscrição' }));
    expect(await screen.findByRole('alertdialog', { name: 'Por favor, insira um CPF válido!' })).toBeTruthy();
    expect(lookups).toEqual([]);
  });

  it('shows the registration found for this event', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Corrida da Ponte' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('CPF do participante'), '40364478829');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar Inscrição' }));
    const found = await screen.findByRole('region', { name: 'Inscrição encontrada' });
    expect(found.textContent).toContain('Maria da Silva');
    expect(found.textContent).toContain('10 km');
    expect(found.textContent).toContain(FOUND.endereco);
    expect(found.textContent).toContain('R$\u00a069,90 (cupom CORRE20: −R$\u00a020,00)');
    expect(found.textContent).not.toContain('cancelada');
    expect(lookups).toEqual(['/api/participantes/cpf/40364478829/?evento=7']);
  });

  it('says when the registration was cancelled and its payment returned', async () => {
    renderPage();
    await userEvent.type(await screen.findByLabelText('CPF do participante'), '11144477735');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar Inscrição' }));
    const found = await screen.findByRole('region', { name: 'Inscrição encontrada' });
    expect(found.textContent).toContain('Inscrição cancelada em 20/06/2026');
    expect(found.textContent).toContain('o valor a devolver volta pelo mesmo meio de pagamento');
    expect(screen.queryByRole('img', { name: /QR/ })).toBeNull();
  });

  it('says not found, inline only for a complete CPF', async () => {
    renderPage();
    const input = await screen.findByLabelText('CPF do participante');
    await userEvent.type(input, '529982247');
    expect((input as HTMLInputElement).value).toBe('529.982.247');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar Inscrição' }));
    const alert = await screen.findByRole('alertdialog', { name: 'Inscrição não encontrada!' });
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(alert.isConnected).toBe(false);
    expect(screen.queryByText('Inscrição não encontrada para o CPF fornecido.')).toBeNull();

    await userEvent.type(input, '25');
    expect((input as HTMLInputElement).value).toBe('529.982.247-25');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar Inscrição' }));
    await screen.findByRole('alertdialog', { name: 'Inscrição não encontrada!' });
    expect(screen.getByText('Inscrição não encontrada para o CPF fornecido.')).toBeTruthy();
    expect(lookups.at(-1)).toBe('/api/participantes/cpf/52998224725/?evento=7');
  });

  it('tells a guest why they must log in before sending them there', async () => {
    localStorage.removeItem('token');
    renderPage();
    await userEvent.type(await screen.findByLabelText('CPF do participante'), '52998224725');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar Inscrição' }));
    await screen.findByRole('alertdialog', { name: /Entre na sua conta para buscar sua inscrição/ });
    expect(screen.queryByText('Página de login')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Página de login')).toBeTruthy();
    expect(lookups).toEqual([]);
  });

  it("shows the account's registration payments given back, not its orders'", async () => {
    renderPage();
    const payments = await screen.findByRole('region', { name: 'Pagamentos devolvidos' });
    expect(payments.textContent).toContain('Devolvido: As vagas da categoria esgotaram antes do pagamento.');
    expect(payments.textContent).toMatch(/Valor devolvido: R\$\s80,00/);
    expect(payments.textContent).not.toContain('Em análise');
  });

  it('lets the runner cancel, showing what comes back before confirming, and the event rules', async () => {
    renderPage();
    expect(await screen.findByRole('region', { name: 'Cancelamento, transferência e trocas' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('CPF do participante'), '40364478829');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar Inscrição' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancelar inscrição' }));
    expect(
      await screen.findByText(/Você recebe de volta R\$\s89,90 pelo mesmo meio de pagamento/),
    ).toBeTruthy();
    expect(screen.getByText(/O organizador retém R\$\s20,00/)).toBeTruthy();
    expect(cancelSent).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar cancelamento' }));
    const found = await screen.findByRole('region', { name: 'Inscrição encontrada' });
    await screen.findByText(/Inscrição cancelada em 21\/06\/2026/);
    expect(JSON.parse(cancelSent[0]!)).toEqual({ valor_devolvido: 89.9 });
    expect(found.textContent).not.toContain('Cancelar inscrição');
  });
});
