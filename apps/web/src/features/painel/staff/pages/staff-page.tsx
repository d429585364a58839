import {
  EVENT_SCOPED_ROLES,
  STAFF_ROLE_LABELS,
  STAFF_ROLES,
  type Staff,
  type StaffRole,
} from '@passada/core/contracts/painel';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { EventCheckboxes } from '../../shell/components/event-checkboxes.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import {
  useCreateStaff,
  useResetStaffPassword,
  useResetStaffTotp,
  useStaff,
  useUpdateStaff,
} from '../api/staff.ts';

const blank = { email: '', name: '', role: 'gerente' as StaffRole, password: '', eventos: [] as number[] };
const scoped = (role: StaffRole) => EVENT_SCOPED_ROLES.includes(role);
const roleOptions = STAFF_ROLES.map((role) => (
  <option key={role} value={role}>
    {STAFF_ROLE_LABELS[role]}
  </option>
));

/**
 * Permission `equipe`: the staff accounts, a new one, its role (and for a check-in volunteer the
 * events assigned, docs/decisions/0032), deactivation, and for someone else a new password or a reset
 * of their two-step sign-in (their sessions end; docs/decisions/0023).
 */
export default function StaffPage() {
  const staff = useStaff();
  const createStaff = useCreateStaff();
  const updateStaff = useUpdateStaff();
  const resetStaffPassword = useResetStaffPassword();
  const resetStaffTotp = useResetStaffTotp();
  const [draft, setDraft] = useState(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [resetting, setResetting] = useState<Staff | null>(null);
  const [newPassword, setNewPassword] = useState('');

  const run = async (action: () => Promise<unknown>, done: string) => {
    setErrors({});
    try {
      await action();
      setStatus({ message: done, tone: 'success' });
      return true;
    } catch (error) {
      if (error instanceof ApiRequestError && error.body?.errors) setErrors(error.body.errors);
      setStatus({ message: errorMessage(error), tone: 'error' });
      return false;
    }
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const body = { ...draft, eventos: scoped(draft.role) ? draft.eventos : [] };
    if (await run(() => createStaff.mutateAsync(body), 'Conta criada.')) setDraft(blank);
  };
  const patch = (member: Staff, body: { role?: StaffRole; active?: boolean; eventos?: number[] }) =>
    run(() => updateStaff.mutateAsync({ id: member.id, ...body }), 'Conta atualizada.');
  const resetPassword = async (event: FormEvent) => {
    event.preventDefault();
    if (!resetting) return;
    const done = await run(
      () => resetStaffPassword.mutateAsync({ id: resetting.id, password: newPassword }),
      `Nova senha definida para ${resetting.name}; as sessões dessa conta foram encerradas.`,
    );
    if (done) {
      setResetting(null);
      setNewPassword('');
    }
  };
  const resetTotp = (member: Staff) =>
    run(
      () => resetStaffTotp.mutateAsync(member.id),
      `Verificação em duas etapas de ${member.name} desligada: a pessoa precisa configurá-la de novo.`,
    );

  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Equipe</h1>
      <DataTable
        label="Contas da equipe"
        className="mb-8 w-full"
        rows={staff.data}
        rowKey={(m) => m.id}
        empty="Nenhuma conta ainda."
        columns={[
          { header: 'Nome', rowHeader: true, cell: (m) => m.name },
          { header: 'E-mail', cell: (m) => m.email },
          {
            header: 'Perfil',
            cell: (m) => (
              <select
                aria-label={`Perfil de ${m.name}`}
                value={m.role}
                onChange={(e) => patch(m, { role: e.target.value as StaffRole })}
                className="rounded border border-stone-300 bg-transparent px-2 py-1"
              >
                {roleOptions}
              </select>
            ),
          },
          {
            header: 'Eventos do check-in',
            cell: (m) =>
              scoped(m.role) ? (
                <EventCheckboxes
                  legend={`Eventos do check-in de ${m.name}`}
                  value={m.eventos}
                  onChange={(eventos) => patch(m, { eventos })}
                />
              ) : (
                'todos'
              ),
          },
          { header: '2FA', cell: (m) => (m.totp_enabled ? 'ativo' : '—') },
          {
            header: 'Situação',
            cell: (m) => (
              <button
                type="button"
                className="underline"
                aria-label={`${m.active ? 'Desativar' : 'Reativar'} ${m.name}`}
                onClick={() => patch(m, { active: !m.active })}
              >
                {m.active ? 'Desativar' : 'Reativar'}
              </button>
            ),
          },
          {
            header: 'Acesso',
            cell: (m) => (
              <div className="flex flex-col items-start gap-1">
                <button
                  type="button"
                  className="underline"
                  aria-label={`Redefinir senha de ${m.name}`}
                  onClick={() => {
                    setResetting(m);
                    setNewPassword('');
                    setErrors({});
                  }}
                >
                  Redefinir senha
                </button>
                {m.totp_enabled ? (
                  <button
                    type="button"
                    className="underline"
                    aria-label={`Redefinir 2FA de ${m.name}`}
                    onClick={() => resetTotp(m)}
                  >
                    Redefinir 2FA
                  </button>
                ) : null}
              </div>
            ),
          },
        ]}
      />
      {resetting ? (
        <form
          onSubmit={resetPassword}
          noValidate
          aria-label={`Nova senha para ${resetting.name}`}
          className="mb-6 grid max-w-md gap-3"
        >
          <h2 className="text-xl font-semibold">Nova senha para {resetting.name}</h2>
          <p className="text-sm">
            Combine com a pessoa como ela recebe a senha; ao entrar, ela pode trocá-la em Segurança.
          </p>
          <FormField
            label={`Nova senha de ${resetting.name}`}
            type="password"
            autoComplete="new-password"
            value={newPassword}
            error={errors.password}
            onChange={(e) => setNewPassword(e.target.value)}
          />
          <div className="flex gap-3">
            <button type="submit" className={primaryButtonClass}>
              Salvar nova senha
            </button>
            <button type="button" className="underline" onClick={() => setResetting(null)}>
              Cancelar
            </button>
          </div>
        </form>
      ) : null}
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
      <h2 className="mt-6 mb-2 text-xl font-semibold">Nova conta</h2>
      <form onSubmit={create} noValidate className="grid max-w-md gap-3">
        <FormField
          label="Nome"
          value={draft.name}
          error={errors.name}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
        />
        <FormField
          label="E-mail"
          type="email"
          value={draft.email}
          error={errors.email}
          onChange={(e) => setDraft({ ...draft, email: e.target.value })}
        />
        <SelectField
          label="Perfil"
          value={draft.role}
          onChange={(e) => setDraft({ ...draft, role: e.target.value as StaffRole })}
        >
          {roleOptions}
        </SelectField>
        {scoped(draft.role) ? (
          <EventCheckboxes
            legend="Eventos do check-in"
            value={draft.eventos}
            error={errors.eventos}
            onChange={(eventos) => setDraft({ ...draft, eventos })}
          />
        ) : null}
        <FormField
          label="Senha inicial"
          type="password"
          autoComplete="new-password"
          value={draft.password}
          error={errors.password}
          onChange={(e) => setDraft({ ...draft, password: e.target.value })}
        />
        <button type="submit" className={`${primaryButtonClass} justify-self-start`}>
          Criar conta
        </button>
      </form>
    </section>
  );
}
