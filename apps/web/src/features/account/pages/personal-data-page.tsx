import { zodResolver } from '@hookform/resolvers/zod';
import {
  ChangePasswordRequestSchema,
  DeleteAccountRequestSchema,
  EmailSchema,
  FullNameSchema,
  type Profile,
} from '@passada/core/contracts/accounts';
import { type FormEventHandler, type ReactNode, useId, useState } from 'react';
import {
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormRegister,
  useForm,
} from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { AccountLayout } from '../../../components/account-layout.tsx';
import { Modal } from '../../../components/dialog.tsx';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/form-field.tsx';
import {
  changePassword,
  deleteAccount,
  detailOf,
  downloadPersonalData,
  fieldErrorsOf,
  resendEmailConfirmation,
  showFieldErrors,
  updateProfile,
} from '../../../lib/accounts-api.ts';
import { useSession } from '../../../lib/session.tsx';

type Status = { message: string; tone: 'success' | 'error' } | null;
const sectionClass = 'flex flex-col gap-4 rounded-xl border border-stone-200 p-5 dark:border-stone-800';

interface FieldSpec<Values extends FieldValues> {
  name: Path<Values>;
  label: string;
  type?: 'email' | 'password';
  autoComplete: string;
}

const currentPassword = { label: 'Senha atual', type: 'password', autoComplete: 'current-password' } as const;

/** The page's text fields, each labelled and showing its own error, from one list per form. */
function Fields<Values extends FieldValues>(props: {
  fields: Array<FieldSpec<Values>>;
  register: UseFormRegister<Values>;
  errors: FieldErrors<Values>;
}) {
  return props.fields.map(({ name, ...field }) => (
    <FormField
      key={name}
      {...field}
      error={props.errors[name]?.message as string | undefined}
      {...props.register(name)}
    />
  ));
}

/** One block of the page: a form (or a plain section) named by its heading. */
function Block({
  title,
  onSubmit,
  children,
}: {
  title: string;
  onSubmit?: FormEventHandler;
  children: ReactNode;
}) {
  const titleId = useId();
  const heading = (
    <h2 id={titleId} className="text-lg font-semibold">
      {title}
    </h2>
  );
  return onSubmit ? (
    <form onSubmit={onSubmit} noValidate className={sectionClass} aria-labelledby={titleId}>
      {heading}
      {children}
    </form>
  ) : (
    <section className={sectionClass} aria-labelledby={titleId}>
      {heading}
      {children}
    </section>
  );
}

const ProfileFormSchema = z.object({
  full_name: FullNameSchema,
  email: EmailSchema,
  current_password: z.string().max(1024),
});

type ProfileInput = z.input<typeof ProfileFormSchema>;
const profileFields: Array<FieldSpec<ProfileInput>> = [
  { name: 'full_name', label: 'Nome completo', autoComplete: 'name' },
  { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email' },
];
// Shown only while the e-mail is being changed.
const emailPasswordField: Array<FieldSpec<ProfileInput>> = [{ name: 'current_password', ...currentPassword }];
const passwordFields: Array<FieldSpec<z.input<typeof ChangePasswordRequestSchema>>> = [
  { name: 'current_password', ...currentPassword },
  { name: 'new_password', label: 'Nova senha', type: 'password', autoComplete: 'new-password' },
  {
    name: 'new_password_confirm',
    label: 'Confirme a nova senha',
    type: 'password',
    autoComplete: 'new-password',
  },
];
const deleteFields: Array<FieldSpec<z.input<typeof DeleteAccountRequestSchema>>> = [
  { name: 'password', ...currentPassword, label: 'Senha para confirmar' },
];

function ProfileForm({ profile }: { profile: Profile }) {
  const { refreshProfile } = useSession();
  const [status, setStatus] = useState<Status>(null);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ProfileInput, unknown, z.output<typeof ProfileFormSchema>>({
    resolver: zodResolver(ProfileFormSchema),
    defaultValues: { full_name: profile.full_name, email: profile.email, current_password: '' },
  });
  // A new e-mail needs the current password; the old address is told of the change.
  const changingEmail = watch('email').trim().toLowerCase() !== profile.email;
  const onSubmit = handleSubmit(async ({ current_password, ...data }) => {
    setStatus(null);
    if (changingEmail && !current_password) {
      setError('current_password', { message: 'Informe sua senha atual para trocar o e-mail.' });
      return;
    }
    try {
      await updateProfile(changingEmail ? { ...data, current_password } : { full_name: data.full_name });
      await refreshProfile();
      setStatus({ message: 'Dados atualizados com sucesso.', tone: 'success' });
    } catch (error) {
      showFieldErrors(error, ['email', 'full_name', 'current_password'], setError);
      setStatus({ message: detailOf(error, 'Erro ao salvar os dados.'), tone: 'error' });
    }
  });
  return (
    <Block title="Nome e e-mail" onSubmit={onSubmit}>
      <Fields fields={profileFields} register={register} errors={errors} />
      {changingEmail ? (
        <>
          <Fields fields={emailPasswordField} register={register} errors={errors} />
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Enviaremos um aviso ao e-mail atual, com um link para recuperar a conta caso não tenha sido você.
          </p>
        </>
      ) : null}
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'error'} />
      <button type="submit" className={`${primaryButtonClass} self-start`} disabled={isSubmitting}>
        Salvar dados
      </button>
    </Block>
  );
}

/**
 * Until the e-mail is confirmed, what was given with it without an account (waitlists, lotteries,
 * transfers) stays out of the account (docs/decisions/0057); the owner asks for another link here.
 */
function EmailConfirmation({ profile }: { profile: Profile }) {
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  if (profile.email_confirmado) return null;
  async function resend() {
    setStatus(null);
    setBusy(true);
    try {
      setStatus({ message: (await resendEmailConfirmation()).detail, tone: 'success' });
    } catch (error) {
      setStatus({ message: detailOf(error, 'Não foi possível enviar o link.'), tone: 'error' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Block title="Confirme o seu e-mail">
      <p>
        Enviamos um link para {profile.email}. Enquanto o e-mail não for confirmado, listas de espera,
        sorteios e transferências feitos com ele fora da conta não aparecem nos seus dados nem são apagados
        com a conta.
      </p>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'error'} />
      <button type="button" className={`${secondaryButtonClass} self-start`} onClick={resend} disabled={busy}>
        Reenviar link de confirmação
      </button>
    </Block>
  );
}

function PasswordForm() {
  const [status, setStatus] = useState<Status>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<
    z.input<typeof ChangePasswordRequestSchema>,
    unknown,
    z.output<typeof ChangePasswordRequestSchema>
  >({
    resolver: zodResolver(ChangePasswordRequestSchema),
    defaultValues: { current_password: '', new_password: '', new_password_confirm: '' },
  });
  const onSubmit = handleSubmit(async (data) => {
    setStatus(null);
    try {
      const { detail } = await changePassword(data);
      reset();
      setStatus({ message: detail, tone: 'success' });
    } catch (error) {
      showFieldErrors(error, ['current_password', 'new_password', 'new_password_confirm'], setError);
      setStatus({ message: detailOf(error, 'Erro ao alterar a senha.'), tone: 'error' });
    }
  });
  return (
    <Block title="Alterar senha" onSubmit={onSubmit}>
      <Fields fields={passwordFields} register={register} errors={errors} />
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Os outros aparelhos conectados serão desconectados.
      </p>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'error'} />
      <button type="submit" className={`${primaryButtonClass} self-start`} disabled={isSubmitting}>
        Alterar senha
      </button>
    </Block>
  );
}

function DownloadData() {
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    setStatus(null);
    try {
      await downloadPersonalData();
      setStatus({ message: 'Arquivo gerado.', tone: 'success' });
    } catch (error) {
      setStatus({ message: detailOf(error, 'Erro ao gerar o arquivo.'), tone: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Block title="Baixar meus dados">
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Um arquivo JSON com tudo o que a loja guarda sobre você: cadastro, endereços, pedidos e inscrições
        (LGPD, art. 18).
      </p>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'error'} />
      <button
        type="button"
        className={`${secondaryButtonClass} self-start`}
        onClick={download}
        disabled={busy}
      >
        Baixar meus dados
      </button>
    </Block>
  );
}

function DeleteAccountForm() {
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<
    z.input<typeof DeleteAccountRequestSchema>,
    unknown,
    z.output<typeof DeleteAccountRequestSchema>
  >({
    resolver: zodResolver(DeleteAccountRequestSchema),
    defaultValues: { password: '' },
  });
  const onSubmit = handleSubmit(({ password }) => setConfirming(password));
  const confirm = async () => {
    if (confirming === null) return;
    try {
      await deleteAccount(confirming);
      setConfirming(null);
      await signOut();
      navigate('/');
    } catch (error) {
      setConfirming(null);
      const message = fieldErrorsOf(error).password;
      if (message) setError('password', { message });
      setStatus({ message: detailOf(error, 'Erro ao excluir a conta.'), tone: 'error' });
    }
  };
  return (
    <Block title="Excluir conta" onSubmit={onSubmit}>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Seus dados pessoais e endereços serão apagados (LGPD). Pedidos e inscrições ficam guardados sem os
        seus dados, como exige a lei fiscal.
      </p>
      <Fields fields={deleteFields} register={register} errors={errors} />
      <FormStatus message={status?.message ?? null} tone="error" />
      <button
        type="submit"
        className={`${secondaryButtonClass} self-start text-red-700`}
        disabled={isSubmitting}
      >
        Excluir minha conta
      </button>
      <Modal
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Excluir a conta?"
      >
        <p className="mt-3">Esta ação não pode ser desfeita.</p>
        <div className="mt-5 flex gap-3">
          <button type="button" className={`${primaryButtonClass} bg-red-700`} onClick={confirm}>
            Excluir definitivamente
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(null)}>
            Cancelar
          </button>
        </div>
      </Modal>
    </Block>
  );
}

/** /user/pessoal-data: see and change personal data, or delete the account (LGPD art. 18). */
export default function PersonalDataPage() {
  const { profile, profileLoading } = useSession();
  return (
    <AccountLayout title="Dados pessoais">
      {profile ? (
        <div className="flex flex-col gap-6">
          {/* Not keyed by the values: a save must not remount the form and lose its message. */}
          <ProfileForm key={profile.username} profile={profile} />
          <EmailConfirmation profile={profile} />
          <PasswordForm />
          <DownloadData />
          <DeleteAccountForm />
        </div>
      ) : profileLoading ? (
        <p role="status">Carregando…</p>
      ) : (
        <p role="alert">Erro ao carregar os dados do usuário.</p>
      )}
    </AccountLayout>
  );
}
