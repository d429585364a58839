import type { FiscalSettings, MonthNota, ReformRules } from '@passada/core/contracts/fiscal';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import FiscalPage, { MonthNfse } from './fiscal-page.tsx';

const nota: MonthNota = {
  id: 7,
  evento: 3,
  evento_nome: 'Corrida do Mês',
  mes: '2026-10',
  status: 'autorizada',
  motivo: null,
  numero: '41',
  valor: 179.8,
  inscricoes: 2,
  pdf_url: '/api/notas/7/tok/nfse.pdf',
};

const show = (page = <MonthNfse />) =>
  renderRoutes(
    [
      {
        element: (
          <Outlet
            context={{
              staff: {
                id: 1,
                email: 'x@passada.com.br',
                name: 'X',
                role: 'admin',
                totp_enabled: false,
                active: true,
              },
              precisa_ativar_2fa: false,
            }}
          />
        ),
        children: [{ path: '/painel/fiscal', element: page }],
      },
    ],
    '/painel/fiscal',
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('MonthNfse (one NFS-e per event per month)', () => {
  it('lists the month’s notas and "Emitir agora" sends the month chosen', async () => {
    let issued: MonthNota[] = [];
    const calls = mockFetch(({ method, url }) => {
      if (method === 'GET' && url.startsWith('/api/painel/fiscal/nfse-mensal/?mes='))
        return { status: 200, body: url.endsWith('2026-10') ? issued : [] };
      if (method === 'POST' && url === '/api/painel/fiscal/nfse-mensal/') {
        issued = [nota];
        return { status: 202, body: issued };
      }
      return undefined;
    });
    show();
    fireEvent.change(screen.getByLabelText('Mês'), { target: { value: '2026-10' } });
    expect(await screen.findByText('Nenhuma NFS-e do mês para 2026-10.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Emitir agora' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/1 nota\(s\) do mês/);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ mes: '2026-10' });
    const table = await screen.findByRole('table', { name: 'NFS-e do mês 2026-10' });
    expect(within(table).getByRole('cell', { name: 'Corrida do Mês' })).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'NFS-e 41' }).getAttribute('href')).toBe(nota.pdf_url);
  });

  it('shows why the server refused (the month is not over)', async () => {
    mockFetch(({ method, url }) => {
      if (method === 'GET' && url.startsWith('/api/painel/fiscal/nfse-mensal/'))
        return { status: 200, body: [] };
      if (method === 'POST')
        return {
          status: 409,
          body: {
            detail: 'O mês 11/2026 ainda não terminou: a NFS-e do mês é emitida depois do último dia.',
            code: 'mes_em_aberto',
          },
        };
      return undefined;
    });
    show();
    fireEvent.click(screen.getByRole('button', { name: 'Emitir agora' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/ainda não terminou/);
  });
});

const settings: FiscalSettings = {
  cnpj: '12.ABC.345/01DE-35',
  inscricao_estadual: '06.123456-7',
  inscricao_municipal: '1234567',
  razao_social: 'Passada Artigos Esportivos Ltda.',
  regime: 'simples_nacional',
  logradouro: 'Av. Beira Mar',
  numero: '3000',
  bairro: 'Meireles',
  municipio: 'Fortaleza',
  codigo_municipio: '2304400',
  uf: 'CE',
  cep: '60165-121',
  codigo_servico_nfse: '12.11',
  serie_nfe: 1,
  codigo_tributacao_nacional: '12.11.01',
  nbs: '',
  cnae: '',
  codigo_tributario_municipio: '',
  cbs_2027: '',
  cbs_2027_fonte: '',
  regras: [],
  versao: 1,
};
const rulesOf = (regime: ReformRules['regime'], crt: ReformRules['crt']): ReformRules => ({
  regime,
  crt,
  hoje: '2026-12-02',
  em_vigor: [],
  proximas: null,
  aliquotas: null,
  aviso: null,
  nfse_cidades: [],
});

describe('the fiscal settings’ regime', () => {
  it('offers MEI, sends it and shows the MEI’s CRT 4 once saved', async () => {
    let saved = settings;
    const calls = mockFetch(({ method, url, body }) => {
      if (method === 'GET' && url === '/api/painel/fiscal/') return { status: 200, body: saved };
      if (method === 'GET' && url === '/api/painel/fiscal/reforma/')
        return {
          status: 200,
          body: saved.regime === 'mei' ? rulesOf('mei', 4) : rulesOf('simples_nacional', 1),
        };
      if (method === 'GET' && url.startsWith('/api/painel/fiscal/nfse-mensal/'))
        return { status: 200, body: [] };
      if (method === 'PUT' && url === '/api/painel/fiscal/') {
        saved = { ...settings, ...(body as object), versao: 2 } as FiscalSettings;
        return { status: 200, body: saved };
      }
      return undefined;
    });
    show(<FiscalPage />);
    const select = (await screen.findByLabelText('Regime tributário')) as HTMLSelectElement;
    expect(within(select).getByRole('option', { name: 'MEI — Microempreendedor Individual' })).toBeTruthy();
    fireEvent.change(select, { target: { value: 'mei' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar configurações fiscais' }));
    expect(await screen.findByText('Configurações fiscais salvas.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ regime: 'mei' });
    expect(
      await screen.findByText(/Regime da loja: MEI — Microempreendedor Individual \(CRT 4\)\./),
    ).toBeTruthy();
  });
});

describe('the CBS rate of 2027', () => {
  it('shows the warning while it is missing and sends the rate with its source', async () => {
    let saved = settings;
    const warning =
      'Falta a alíquota da CBS de 2027: sem ela, a partir de 01/01/2027 as notas fiscais param.';
    const calls = mockFetch(({ method, url, body }) => {
      if (method === 'GET' && url === '/api/painel/fiscal/') return { status: 200, body: saved };
      if (method === 'GET' && url === '/api/painel/fiscal/reforma/')
        return {
          status: 200,
          body: { ...rulesOf('simples_nacional', 1), aviso: saved.cbs_2027 ? null : warning },
        };
      if (method === 'GET' && url.startsWith('/api/painel/fiscal/nfse-mensal/'))
        return { status: 200, body: [] };
      if (method === 'PUT' && url === '/api/painel/fiscal/') {
        saved = { ...settings, ...(body as object), cbs_2027: '8,8000', versao: 2 } as FiscalSettings;
        return { status: 200, body: saved };
      }
      return undefined;
    });
    show(<FiscalPage />);
    expect((await screen.findByRole('alert')).textContent).toBe(warning);
    fireEvent.change(screen.getByLabelText('Alíquota da CBS de 2027 (%)'), { target: { value: '8,8' } });
    fireEvent.change(screen.getByLabelText('Fonte da alíquota (resolução do Senado)'), {
      target: { value: 'Resolução do Senado Federal nº X/2026' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar configurações fiscais' }));
    expect(await screen.findByText('Configurações fiscais salvas.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      cbs_2027: '8,8',
      cbs_2027_fonte: 'Resolução do Senado Federal nº X/2026',
    });
  });
});
