import type {
  PainelPriceRule,
  PriceRuleInput,
  ProofDecision,
  ProofReview,
} from '@passada/core/contracts/price-rules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';

const rulesKey = (eventId: number) => ['painel', 'regras-preco', eventId] as const;

/** The event's special prices by audience, with caps and places used (docs/decisions/0068). */
export const usePriceRules = (eventId: number) =>
  useQuery({
    queryKey: rulesKey(eventId),
    queryFn: ({ signal }) => painelFetch<PainelPriceRule[]>(`/events/${eventId}/regras-preco/`, { signal }),
  });

/** Creates a rule (no id) or changes one; the list comes back. */
export function useSavePriceRule(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: PriceRuleInput }) =>
      painelFetch<PainelPriceRule[]>(`/events/${eventId}/regras-preco/${id === null ? '' : `${id}/`}`, {
        method: id === null ? 'POST' : 'PUT',
        body,
      }),
    onSuccess: (rules) => client.setQueryData(rulesKey(eventId), rules),
  });
}

/** Archives a rule: offered to no one from now on. */
export function useArchivePriceRule(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      painelFetch<PainelPriceRule[]>(`/events/${eventId}/regras-preco/${id}/`, { method: 'DELETE' }),
    onSuccess: (rules) => client.setQueryData(rulesKey(eventId), rules),
  });
}

/** Replaces a list rule's CPFs with a CSV's first column. */
export function useImportPriceRuleList(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, csv }: { id: number; csv: string }) =>
      painelFetch<{ cpfs: number; recusadas: Array<{ linha: number; motivo: string }> }>(
        `/events/${eventId}/regras-preco/${id}/lista/`,
        { method: 'PUT', body: { csv } },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: rulesKey(eventId) }),
  });
}

const proofsKey = ['painel', 'comprovantes'] as const;

/** The review queue: proofs of one status (pending by default), of every event. */
export const useProofQueue = (status: ProofReview['situacao']) =>
  useQuery({
    queryKey: [...proofsKey, status],
    queryFn: ({ signal }) => painelFetch<ProofReview[]>(`/comprovantes/?situacao=${status}`, { signal }),
  });

/** A proof's file (with the back office's token), as a blob the page shows; null when refused. */
export const useProofFile = (path: string | null) =>
  useQuery({
    queryKey: [...proofsKey, 'arquivo', path],
    queryFn: () => painelFile(path?.replace(/^\/api\/painel/, '') ?? '', 'comprovante'),
    enabled: path !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Approves or refuses a proof once; the queue is read again. */
export function useDecideProof() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ProofDecision }) =>
      painelFetch<ProofReview>(`/comprovantes/${id}/decisao/`, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: proofsKey }),
  });
}
