import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

export interface Health {
  status: string;
  database?: string;
}

/** Whether the API and its database answer (GET /api/health, public), read once: a failure is the answer. */
export const healthQuery = queryOptions({
  queryKey: ['health'],
  queryFn: ({ signal }) => apiFetch<Health>('/api/health', { signal, auth: false }),
  retry: false,
});
