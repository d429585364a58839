import type {
  StockBatch,
  StockBatchLine,
  StockFilePreviewResult,
  StockMovementKind,
  StockReason,
} from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';

export interface LowStockItem {
  product_id: number;
  product_name: string;
  color: string;
  size: string;
  quantity: number;
}

export interface StockMovement {
  id: number;
  delta: number;
  quantity_after: number;
  reason: StockMovementKind;
  note: string;
  staff_email: string | null;
  /** The order the movement belongs to (a hold, a sale, a cancellation), when there is one. */
  order_id: number | null;
  at: string;
}

/** One colour × size of one product. */
export interface StockCombo {
  product_id: number;
  color_id: number;
  size_id: number;
}

export const stockKeys = {
  low: (limit: number) => ['painel', 'low', limit] as const,
  history: (combo: string) => ['painel', 'history', combo] as const,
};

export function lowStockQuery(limit: number) {
  return queryOptions({
    queryKey: stockKeys.low(limit),
    queryFn: ({ signal }) => painelFetch<LowStockItem[]>(`/stock/low/?limite=${limit}`, { signal }),
  });
}

export const useLowStock = (limit: number) => useQuery(lowStockQuery(limit));

export function stockHistoryQuery(combo: StockCombo) {
  const params = new URLSearchParams({
    product_id: String(combo.product_id),
    color_id: String(combo.color_id),
    size_id: String(combo.size_id),
  }).toString();
  return queryOptions({
    queryKey: stockKeys.history(params),
    queryFn: ({ signal }) => painelFetch<StockMovement[]>(`/stock/history/?${params}`, { signal }),
  });
}

export const useStockHistory = (combo: StockCombo) => useQuery(stockHistoryQuery(combo));

export interface StockChange extends StockCombo {
  modo: 'ajustar' | 'definir';
  quantidade: number;
  motivo: StockReason;
  observacao: string;
}

/**
 * A stock move. It changes the product, its history, the low-stock list and the dashboard's counts,
 * so every back-office query is read again.
 */
export function useAdjustStock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: StockChange) => painelFetch<{ after: number }>('/stock/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['painel'] }),
  });
}

/**
 * Several colours × sizes at once, all or none (decision 0081): a goods receipt's grid, or the lines of a
 * stock file staff checked. Every back-office query is read again, as after one change.
 */
export function useStockBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: StockBatch) =>
      painelFetch<{ linhas: StockBatchLine[] }>('/stock/lote/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['painel'] }),
  });
}

/** What a stock file would change; nothing is written. */
export const useStockFilePreview = () =>
  useMutation({
    mutationFn: (body: { modo: 'ajustar' | 'definir'; arquivo: string }) =>
      painelFetch<StockFilePreviewResult>('/stock/importar/previa/', { method: 'POST', body }),
  });

/** Every colour × size with its SKU and quantity, to count and send back. */
export const fetchStockCsv = () => painelFile('/stock.csv', 'estoque.csv');
