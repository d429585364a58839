import type { CheckinPreview } from '@passada/core/contracts/painel';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PreviewCard } from './checkin-preview-card.tsx';

const preview = (extra: Partial<CheckinPreview> = {}, participant: object = {}) =>
  ({
    participante: {
      id: 7,
      nome_completo: 'Ana Titular',
      cpf: '***.447.888-**',
      categorias: [{ id: 1, nome: '5 km', dia: '2026-11-28', numero_peito: null }],
      tamanho_camisa: 'M',
      equipe: null,
      retirada: null,
      cancelamento: null,
      retirada_autorizada: { nome: 'Beto Amigo', cpf: '***.***.***-47' },
      ...participant,
    },
    evento: { id: 5, nome: 'Corrida da Praia' },
    situacao: 'pode_retirar',
    confira_documento: false,
    confira_cpf: false,
    item: { texto: '1 kg de alimento não perecível', unidade: 'kg', exigido: false },
    ...extra,
  }) as CheckinPreview;

const card = (p: CheckinPreview, onConfirm = vi.fn()) =>
  render(
    <PreviewCard
      preview={p}
      busy={false}
      reason=""
      onReason={() => {}}
      onConfirm={onConfirm}
      onUndo={() => {}}
      onClose={() => {}}
    />,
  );

/** The desk card asks who collects and the item (docs/decisions/0063, later). */
describe('kit desk card: pickup by someone else and the item to bring', () => {
  afterEach(cleanup);

  it('shows the authorised person and sends who collected and how much was brought', () => {
    const onConfirm = vi.fn();
    card(preview(), onConfirm);
    expect(
      screen.getByText(/Retirada autorizada para Beto Amigo, CPF \*\*\*\.\*\*\*\.\*\*\*-47/),
    ).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Beto Amigo (autorizada)'));
    fireEvent.change(screen.getByLabelText('Quantidade trazida (kg)'), { target: { value: '2,5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar entrega do kit' }));
    expect(onConfirm).toHaveBeenCalledWith({
      retirou: 'autorizado',
      autorizado_nome: 'Beto Amigo',
      item_quantidade: 2.5,
    });
  });

  it('holds the kit until a required item is counted; without an authorisation, only the runner', () => {
    const onConfirm = vi.fn();
    card(
      preview(
        { item: { texto: '1 kg de alimento', unidade: 'kg', exigido: true } },
        { retirada_autorizada: null },
      ),
      onConfirm,
    );
    expect(screen.queryByText(/Retirada autorizada/)).toBeNull();
    const button = screen.getByRole('button', { name: 'Confirmar entrega do kit' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Quantidade trazida (kg)'), { target: { value: '1' } });
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(onConfirm).toHaveBeenCalledWith({ retirou: 'titular', item_quantidade: 1 });
  });

  it('shows the special price and whether its document was checked, never what the document says', () => {
    card(preview({ confira_documento: true, preco_especial: { regra: 'Estudante', documento: 'conferir' } }));
    expect(screen.getByText(/Preço especial: Estudante — conferir documento/)).toBeTruthy();
    expect(screen.queryByText(/meia-entrada 60\+/)).toBeNull();
    cleanup();
    card(preview({ preco_especial: { regra: 'PCD', documento: 'conferido' } }));
    expect(screen.getByText(/Preço especial: PCD — documento conferido/)).toBeTruthy();
  });
});
