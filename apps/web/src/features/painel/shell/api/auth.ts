import { type PainelPermission, type Staff, staffCan } from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useOutletContext } from 'react-router';
import { painelFetch, painelToken } from '../painel-api.ts';

/** The signed-in staff member, their duty to turn on two-step sign-in and their recovery codes left. */
export interface Me {
  staff: Staff;
  precisa_ativar_2fa: boolean;
  /** Absent right after sign-in (the session answer), until `/auth/me/` is read again. */
  codigos_recuperacao_restantes?: number;
}

export const authKeys = {
  me: ['painel', 'me'] as const,
};

export function meQuery() {
  return queryOptions({
    queryKey: authKeys.me,
    queryFn: ({ signal }) => painelFetch<Me>('/auth/me/', { signal }),
    enabled: Boolean(painelToken.get()),
    retry: false,
    staleTime: 60_000,
  });
}

export function useMe() {
  return useQuery(meQuery());
}

/** Whether a back-office token is kept at all (no token: straight to the sign-in page). */
export const hasPainelToken = () => Boolean(painelToken.get());

/**
 * Whether the signed-in staff member has `permission` (their role comes from /auth/me/, which the
 * painel's layout reads and hands to its pages). The server checks it again: this only hides buttons.
 */
export function useStaffCan(permission: PainelPermission | readonly PainelPermission[]): boolean {
  const me = useOutletContext<Me | undefined>();
  return me ? staffCan(me.staff.role, permission) : false;
}

export interface LoginInput {
  email: string;
  password: string;
  codigo?: string;
  codigo_recuperacao?: string;
}

/** Signs in: keeps the token, seeds "me" from the answer and reads the whole "me" again behind it. */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginInput) =>
      painelFetch<Me & { token: string }>('/auth/login/', { method: 'POST', body }),
    onSuccess: (session) => {
      painelToken.set(session.token);
      client.setQueryData(authKeys.me, {
        staff: session.staff,
        precisa_ativar_2fa: session.precisa_ativar_2fa,
      });
      // The sign-in answer has no count of recovery codes left: read the whole "me" again behind it.
      void client.invalidateQueries({ queryKey: authKeys.me });
    },
  });
}

/** Signs out (a failed call still signs out here) and forgets every back-office query. */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => painelFetch('/auth/logout/', { method: 'POST' }).catch(() => undefined),
    onSettled: () => {
      painelToken.clear();
      client.removeQueries({ queryKey: ['painel'] });
    },
  });
}

/** One's own password: the current one is asked; other sessions end on the server. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { senha_atual: string; nova_senha: string }) =>
      painelFetch('/auth/password/', { method: 'POST', body }),
  });
}

export interface TotpSetup {
  secret: string;
  otpauth_url: string;
  qr_code: string;
}

/** Starts two-step sign-in: the secret and its QR code, not yet turned on. */
export function useStartTotp() {
  return useMutation({
    mutationFn: () => painelFetch<TotpSetup>('/auth/2fa/setup/', { method: 'POST' }),
  });
}

export type TotpAction = 'enable' | 'disable' | 'recovery-codes';

/** Turns two-step sign-in on or off, or makes new recovery codes; "me" is read again after. */
export function useTotpAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, codigo }: { action: TotpAction; codigo: string }) =>
      painelFetch<{ codigos_recuperacao?: string[] }>(`/auth/2fa/${action}/`, {
        method: 'POST',
        body: { codigo },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: authKeys.me }),
  });
}
