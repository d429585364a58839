/** What the product page shows for a colour+size combination (spec §4 "Product stock"). */
export type StockState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'error' }
  | { kind: 'known'; quantity: number };

export function stockState(input: {
  chosen: boolean;
  pending: boolean;
  failed: boolean;
  quantity: number | undefined;
}): StockState {
  if (!input.chosen) return { kind: 'idle' };
  if (input.failed) return { kind: 'error' };
  if (input.pending || input.quantity === undefined) return { kind: 'checking' };
  return { kind: 'known', quantity: input.quantity };
}

export function stockText(state: StockState): string {
  switch (state.kind) {
    case 'idle':
      return '';
    case 'checking':
      return 'Verificando...';
    case 'error':
      return 'Não foi possível verificar o estoque.';
    case 'known':
      if (state.quantity <= 0) return 'ESGOTADO!';
      if (state.quantity === 1) return 'Última unidade!';
      return `${state.quantity} unidades disponíveis`;
  }
}

export function isSoldOut(state: StockState): boolean {
  return state.kind === 'known' && state.quantity <= 0;
}
