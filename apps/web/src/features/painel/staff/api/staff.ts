import type { Staff, StaffRole } from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

export const staffKeys = {
  all: ['painel', 'staff'] as const,
};

export function staffQuery() {
  return queryOptions({
    queryKey: staffKeys.all,
    queryFn: ({ signal }) => painelFetch<Staff[]>('/staff/', { signal }),
  });
}

/** The staff accounts (permission `equipe`). */
export function useStaff() {
  return useQuery(staffQuery());
}

/** Every change to an account reads the list again once it is done. */
function useStaffMutation<V>(mutationFn: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export const useCreateStaff = () =>
  useStaffMutation(
    (body: { email: string; name: string; role: StaffRole; password: string; eventos: number[] }) =>
      painelFetch('/staff/', { method: 'POST', body }),
  );

export const useUpdateStaff = () =>
  useStaffMutation(
    ({ id, ...body }: { id: number; role?: StaffRole; active?: boolean; eventos?: number[] }) =>
      painelFetch(`/staff/${id}/`, { method: 'PATCH', body }),
  );

/** A new password for someone else; their sessions end (docs/decisions/0023). */
export const useResetStaffPassword = () =>
  useStaffMutation(({ id, password }: { id: number; password: string }) =>
    painelFetch(`/staff/${id}/password/`, { method: 'POST', body: { password } }),
  );

/** Turns someone else's two-step sign-in off: they set it up again. */
export const useResetStaffTotp = () =>
  useStaffMutation((id: number) => painelFetch(`/staff/${id}/2fa/reset/`, { method: 'POST' }));
