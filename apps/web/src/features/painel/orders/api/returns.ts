import type {
  ExchangeShip,
  PainelReturn,
  ReturnCode,
  ReturnPosted,
  ReturnReceive,
  ReturnRefund,
  ReturnRefuse,
} from '@passada/core/contracts/returns';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

export const returnKeys = { all: ['painel', 'returns'] as const };

/** The returns queue: withdrawals, returns and exchanges staff still act on (docs/decisions/0036). */
export const returnsQuery = queryOptions({
  queryKey: returnKeys.all,
  queryFn: ({ signal }) => painelFetch<PainelReturn[]>('/devolucoes/', { signal }),
});

export const useReturns = () => useQuery(returnsQuery);

/** One step on a request; a refund moves money, so orders and the dashboard are read again too. */
function useReturnStep<T>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: T }) =>
      painelFetch<PainelReturn>(`/devolucoes/${id}/${path}/`, { method: 'POST', body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['painel'] }),
  });
}

export const useReceiveReturn = () => useReturnStep<ReturnReceive>('recebida');
export const useRefundReturn = () => useReturnStep<ReturnRefund>('reembolso');
export const useRefuseReturn = () => useReturnStep<ReturnRefuse>('recusar');
export const useSendReturnCode = () => useReturnStep<ReturnCode>('codigo');
export const useMarkReturnPosted = () => useReturnStep<ReturnPosted>('postada');
export const useShipExchange = () => useReturnStep<ExchangeShip>('troca-enviada');
