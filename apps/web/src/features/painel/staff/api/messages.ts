import type {
  MailLogo,
  MessageLogList,
  MessagePreviewList,
  WhatsAppOptOut,
  WhatsAppOptOutCreate,
  WhatsAppOptOutList,
} from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

export const messageKeys = {
  previews: ['painel', 'messages', 'previews'] as const,
  log: (canal: '' | 'email' | 'whatsapp') => ['painel', 'messages', 'log', canal] as const,
  optOuts: ['painel', 'messages', 'opt-outs'] as const,
  logo: ['painel', 'messages', 'logo'] as const,
};

export const messagePreviewsQuery = queryOptions({
  queryKey: messageKeys.previews,
  queryFn: ({ signal }) => painelFetch<MessagePreviewList>('/mensagens/', { signal }),
  // Rendered from code and demo data: it changes only with a new version of the shop.
  staleTime: Number.POSITIVE_INFINITY,
});

/** Permission `equipe`: every message the shop sends, rendered with demo data (docs/decisions/0045). */
export const useMessagePreviews = () => useQuery(messagePreviewsQuery);

/**
 * Permission `equipe`: the last messages sent, whether they went and, on WhatsApp, what the delivery
 * webhook reported since (docs/decisions/0050). Read again every 30 s while the page is open.
 */
export const useMessageLog = (canal: '' | 'email' | 'whatsapp') =>
  useQuery({
    queryKey: messageKeys.log(canal),
    queryFn: ({ signal }) =>
      painelFetch<MessageLogList>(`/mensagens/registro/${canal ? `?canal=${canal}` : ''}`, { signal }),
    refetchInterval: 30_000,
  });

/** Permission `equipe`: the numbers that receive no more WhatsApp (PARAR or recorded by staff). */
export const useWhatsAppOptOuts = () =>
  useQuery({
    queryKey: messageKeys.optOuts,
    queryFn: ({ signal }) => painelFetch<WhatsAppOptOutList>('/mensagens/descadastros/', { signal }),
  });

/** Records that a person asked the shop to stop WhatsApp messages; the list is read again. */
export function useRecordWhatsAppOptOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WhatsAppOptOutCreate) =>
      painelFetch<WhatsAppOptOut>('/mensagens/descadastros/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: messageKeys.optOuts }),
  });
}

/** Permission `equipe`: whether the e-mails show a logo staff sent (decision 0045, later). */
export const useMailLogo = () =>
  useQuery({
    queryKey: messageKeys.logo,
    queryFn: ({ signal }) => painelFetch<MailLogo>('/mensagens/logo/', { signal }),
  });

/** Sends a new logo (a `File`), or with null goes back to the default mark; the answer is the logo's state. */
export function useChangeMailLogo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File | null) => {
      if (!file) return painelFetch<MailLogo>('/mensagens/logo/', { method: 'DELETE' });
      const form = new FormData();
      form.append('foto', file);
      return painelFetch<MailLogo>('/mensagens/logo/', { method: 'PUT', body: form });
    },
    onSuccess: (logo) => client.setQueryData(messageKeys.logo, logo),
  });
}
