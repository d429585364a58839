import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { FormStatus, primaryButtonClass } from '../../../components/form-field.tsx';
import { confirmEmail, detailOf } from '../../../lib/accounts-api.ts';
import { FooterLink } from '../components/footer-link.tsx';

/**
 * Reached from the e-mail that confirms an account's address (docs/decisions/0057). The link is spent
 * by the button, not by opening the page, so a mail scanner that follows links cannot use it up.
 */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setStatus(null);
    setBusy(true);
    try {
      setStatus({ message: (await confirmEmail(token)).detail, tone: 'success' });
    } catch (error) {
      setStatus({ message: detailOf(error, 'Não foi possível confirmar o e-mail.'), tone: 'error' });
      setBusy(false);
    }
  }

  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Confirmar e-mail</h1>
      {token ? (
        <p className="mb-4">Este link vale uma única vez e confirma o e-mail para o qual foi enviado.</p>
      ) : (
        <p role="alert" className="mb-4 font-medium text-red-700 dark:text-red-400">
          Link de confirmação inválido. Entre na sua conta e peça outro em "Meus dados".
        </p>
      )}
      <div className="flex flex-col gap-4">
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'error'} />
        <button
          type="button"
          className={primaryButtonClass}
          onClick={confirm}
          disabled={busy || status?.tone === 'success' || !token}
        >
          Confirmar meu e-mail
        </button>
      </div>
      <FooterLink to="/user/pessoal-data">Ir para os meus dados</FooterLink>
    </main>
  );
}
