import { type FormEvent, useState } from 'react';
import { useOutletContext } from 'react-router';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import {
  type Me,
  type TotpAction,
  type TotpSetup,
  useChangePassword,
  useStartTotp,
  useTotpAction,
} from '../../shell/api/auth.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';

type Status = { message: string; tone: 'success' | 'error' } | null;

/**
 * The recovery codes, shown once (only their hashes are kept): to copy or print, each good for one
 * sign-in without the phone.
 */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<Status>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied({ message: 'Códigos copiados.', tone: 'success' });
    } catch {
      setCopied({ message: 'Não foi possível copiar; selecione os códigos e copie à mão.', tone: 'error' });
    }
  };
  return (
    <section aria-labelledby="codigos-titulo" className="my-6 rounded-md border border-amber-400 p-4">
      <h2 id="codigos-titulo" className="mb-2 text-xl font-semibold">
        Códigos de recuperação
      </h2>
      <p className="mb-3">
        Guarde estes códigos em lugar seguro: eles não serão mostrados de novo. Cada um permite entrar uma vez
        sem o aplicativo autenticador (se você perder o celular, por exemplo).
      </p>
      <ol aria-label="Códigos de recuperação" className="mb-4 grid grid-cols-2 gap-1 font-mono">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3 print:hidden">
        <button type="button" className={secondaryButtonClass} onClick={copy}>
          Copiar códigos
        </button>
        <button type="button" className={secondaryButtonClass} onClick={() => window.print()}>
          Imprimir códigos
        </button>
        <button type="button" className={primaryButtonClass} onClick={onDone}>
          Já guardei os códigos
        </button>
      </div>
      <div className="mt-3">
        <FormStatus message={copied?.message ?? null} tone={copied?.tone ?? 'success'} />
      </div>
    </section>
  );
}

/** One's own password: the current one is asked; other sessions end on the server. */
function PasswordForm() {
  const blank = { senha_atual: '', nova_senha: '', repetida: '' };
  const [draft, setDraft] = useState(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>(null);
  const changePassword = useChangePassword();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    setErrors({});
    if (draft.nova_senha !== draft.repetida) {
      setErrors({ repetida: 'As senhas não conferem.' });
      return;
    }
    try {
      await changePassword.mutateAsync({ senha_atual: draft.senha_atual, nova_senha: draft.nova_senha });
      setDraft(blank);
      setStatus({
        message: 'Senha trocada. As outras sessões desta conta foram encerradas.',
        tone: 'success',
      });
    } catch (error) {
      if (error instanceof ApiRequestError && error.body?.errors) setErrors(error.body.errors);
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };
  return (
    <section aria-labelledby="senha-titulo" className="mt-10">
      <h2 id="senha-titulo" className="mb-3 text-xl font-semibold">
        Trocar minha senha
      </h2>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <FormField
          label="Senha atual"
          type="password"
          autoComplete="current-password"
          value={draft.senha_atual}
          error={errors.senha_atual}
          onChange={(e) => setDraft({ ...draft, senha_atual: e.target.value })}
        />
        <FormField
          label="Nova senha"
          type="password"
          autoComplete="new-password"
          value={draft.nova_senha}
          error={errors.nova_senha}
          onChange={(e) => setDraft({ ...draft, nova_senha: e.target.value })}
        />
        <FormField
          label="Repita a nova senha"
          type="password"
          autoComplete="new-password"
          value={draft.repetida}
          error={errors.repetida}
          onChange={(e) => setDraft({ ...draft, repetida: e.target.value })}
        />
        <button type="submit" className={`${primaryButtonClass} self-start`}>
          Trocar senha
        </button>
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
      </form>
    </section>
  );
}

/** Two-step sign-in (scan the QR, confirm with a code, keep the recovery codes) and one's password. */
export default function SecurityPage() {
  const me = useOutletContext<Me>();
  const startTotp = useStartTotp();
  const totpAction = useTotpAction();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [status, setStatus] = useState<Status>(null);

  const start = async () => {
    setStatus(null);
    try {
      setSetup(await startTotp.mutateAsync());
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };
  const confirm = async (event: { preventDefault(): void }, action: TotpAction) => {
    event.preventDefault();
    setStatus(null);
    try {
      const answer = await totpAction.mutateAsync({ action, codigo: code });
      setSetup(null);
      setCode('');
      setCodes(answer.codigos_recuperacao ?? null);
      const done = {
        enable: 'Verificação em duas etapas ativada.',
        disable: 'Verificação em duas etapas desativada.',
        'recovery-codes': 'Novos códigos de recuperação gerados; os anteriores não valem mais.',
      };
      setStatus({ message: done[action], tone: 'success' });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <section className="max-w-lg">
      <h1 className="mb-4 text-2xl font-bold">Segurança</h1>
      {me.precisa_ativar_2fa ? (
        <p role="alert" className="mb-4 rounded-md bg-amber-100 p-3 text-amber-900">
          Esta loja exige a verificação em duas etapas. Ative-a para usar o painel.
        </p>
      ) : null}
      <p className="mb-4">
        Verificação em duas etapas: <strong>{me.staff.totp_enabled ? 'ativa' : 'desativada'}</strong>
        {me.staff.totp_enabled ? (
          <>
            {' '}
            · códigos de recuperação restantes: <strong>{me.codigos_recuperacao_restantes ?? 0}</strong>
          </>
        ) : null}
      </p>
      {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
      {!me.staff.totp_enabled && !setup ? (
        <button type="button" className={primaryButtonClass} onClick={start}>
          Ativar com aplicativo autenticador
        </button>
      ) : null}
      {setup ? (
        <form onSubmit={(e) => confirm(e, 'enable')} className="flex flex-col gap-4">
          <p>Leia o QR code com o aplicativo autenticador (Google Authenticator, Authy, 1Password…).</p>
          <img src={setup.qr_code} alt="QR code para o aplicativo autenticador" width={240} height={240} />
          <p className="text-sm">
            Sem câmera? Digite a chave: <code className="break-all">{setup.secret}</code>
          </p>
          <FormField
            label="Código de 6 dígitos"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <button type="submit" className={primaryButtonClass}>
            Confirmar e ativar
          </button>
        </form>
      ) : null}
      {me.staff.totp_enabled ? (
        <form className="flex flex-col gap-4" onSubmit={(e) => e.preventDefault()}>
          <FormField
            label="Código atual do aplicativo"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={(e) => confirm(e, 'recovery-codes')}
            >
              Gerar novos códigos de recuperação
            </button>
            <button type="button" className={secondaryButtonClass} onClick={(e) => confirm(e, 'disable')}>
              Desativar
            </button>
          </div>
        </form>
      ) : null}
      <div className="mt-4">
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
      </div>
      <PasswordForm />
    </section>
  );
}
