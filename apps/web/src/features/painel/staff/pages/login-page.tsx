import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { FormField, FormStatus, primaryButtonClass } from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { useLogin } from '../../shell/api/auth.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';

/** `/painel/…` only: a staff member is never sent anywhere else after signing in. */
function nextPath(raw: string | null): string {
  return raw && /^\/painel(\/[\w/-]*)?$/.test(raw) && raw !== '/painel/login' ? raw : '/painel';
}

export default function PainelLoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  // Without the phone: one of the recovery codes given when two-step sign-in was turned on.
  const [useRecovery, setUseRecovery] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const session = await login.mutateAsync({
        email,
        password,
        ...(needsCode && useRecovery ? { codigo_recuperacao: recoveryCode } : {}),
        ...(needsCode && !useRecovery ? { codigo: code } : {}),
      });
      navigate(session.precisa_ativar_2fa ? '/painel/seguranca' : nextPath(params.get('next')), {
        replace: true,
      });
    } catch (caught) {
      if (caught instanceof ApiRequestError && caught.body?.code === 'codigo_2fa_necessario') {
        setNeedsCode(true);
      }
      setError(errorMessage(caught));
    }
  };

  return (
    <main className="mx-auto max-w-sm px-4 py-16">
      <h1 className="mb-6 text-2xl font-bold">Painel: entrar</h1>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <FormField
          label="E-mail"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <FormField
          label="Senha"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {needsCode && !useRecovery ? (
          <FormField
            label="Código do aplicativo autenticador"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        ) : null}
        {needsCode && useRecovery ? (
          <FormField
            label="Código de recuperação"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={40}
            value={recoveryCode}
            onChange={(e) => setRecoveryCode(e.target.value)}
          />
        ) : null}
        {needsCode ? (
          <button
            type="button"
            className="self-start text-sm underline"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setError(null);
            }}
          >
            {useRecovery ? 'Usar o código do aplicativo' : 'Usar código de recuperação'}
          </button>
        ) : null}
        <FormStatus message={error} tone="error" />
        <button type="submit" disabled={login.isPending} className={primaryButtonClass}>
          {login.isPending ? 'Entrando…' : 'Entrar'}
        </button>
      </form>
    </main>
  );
}
