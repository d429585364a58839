import type { EventMoney, EventReport } from '@passada/core/contracts/painel-reports';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';

export const reportKeys = {
  all: ['painel', 'reports'] as const,
  events: ['painel', 'reports', 'events'] as const,
  event: (id: number) => ['painel', 'reports', 'events', id] as const,
};

export function eventsMoneyQuery() {
  return queryOptions({
    queryKey: reportKeys.events,
    queryFn: ({ signal }) => painelFetch<EventMoney[]>('/relatorios/eventos/', { signal }),
  });
}

/** Every event's money (gross, refunded, net), newest first. */
export const useEventsMoney = () => useQuery(eventsMoneyQuery());

export function eventReportQuery(id: number) {
  return queryOptions({
    queryKey: reportKeys.event(id),
    queryFn: ({ signal }) => painelFetch<EventReport>(`/relatorios/eventos/${id}/`, { signal }),
  });
}

/** One event's report; off until an event is chosen. */
export const useEventReport = (id: number | null) =>
  useQuery({ ...eventReportQuery(id ?? 0), enabled: id !== null });

/** The event's report as a CSV; null when the server says no. */
export const fetchEventReportCsv = (id: number) =>
  painelFile(`/relatorios/eventos/${id}/relatorio.csv`, `relatorio-evento-${id}.csv`);
