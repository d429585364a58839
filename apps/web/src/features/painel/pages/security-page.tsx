import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useOutletContext } from 'react-router';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/form-field.tsx';
import { errorMessage, type Me, painelFetch, painelKeys } from '../painel-api.ts';

interface Setup {
  secret: string;
  otpauth_url: string;
  qr_code: string;
}

/** Two-step sign-in: scan the QR with an authenticator app, confirm with a code. */
export default function SecurityPage() {
  const me = useOutletContext<Me>();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);

  const start = async () => {
    setStatus(null);
    try {
      setSetup(await painelFetch<Setup>('/auth/2fa/setup/', { method: 'POST' }));
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };
  const confirm = async (event: FormEvent, action: 'enable' | 'disable') => {
    event.preventDefault();
    try {
      await painelFetch(`/auth/2fa/${action}/`, { method: 'POST', body: { codigo: code } });
      setSetup(null);
      setCode('');
      await queryClient.invalidateQueries({ queryKey: painelKeys.me });
      setStatus({
        message:
          action === 'enable'
            ? 'Verificação em duas etapas ativada.'
            : 'Verificação em duas etapas desativada.',
        tone: 'success',
      });
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
      </p>
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
        <form onSubmit={(e) => confirm(e, 'disable')} className="flex flex-col gap-4">
          <FormField
            label="Código atual para desativar"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <button type="submit" className={secondaryButtonClass}>
            Desativar
          </button>
        </form>
      ) : null}
      <div className="mt-4">
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
      </div>
    </section>
  );
}
