import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { FormStatus, primaryButtonClass } from '../../../components/form-field.tsx';
import { detailOf, logInWithLink } from '../../../lib/accounts-api.ts';
import { useSession } from '../../../lib/session.tsx';
import { FooterLink } from '../components/footer-link.tsx';

/**
 * Reached from the e-mail sent when a sign-in with the right password was blocked (too many failures
 * from the same network or on the account). The link is spent by the button, not by opening the page,
 * so a mail scanner that follows links cannot use it up; the browser is trusted from then on.
 */
export default function LoginLinkPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function enter() {
    setStatus(null);
    setBusy(true);
    try {
      const { token: session } = await logInWithLink(token);
      signIn(session);
      setStatus({ message: 'Login realizado com sucesso!', tone: 'success' });
      timer.current = window.setTimeout(() => navigate('/', { replace: true }), 800);
    } catch (error) {
      setStatus({ message: detailOf(error, 'Não foi possível entrar com este link.'), tone: 'error' });
      setBusy(false);
    }
  }

  const done = status?.tone === 'success';
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Entrar com o link de acesso</h1>
      {token ? (
        <p className="mb-4">
          Este link vale uma única vez. Depois de entrar, este navegador poderá entrar com a sua senha mesmo
          quando houver muitas tentativas erradas vindas da mesma rede.
        </p>
      ) : (
        <p role="alert" className="mb-4 font-medium text-red-700 dark:text-red-400">
          Link de acesso inválido ou expirado. Entre com sua senha para receber outro.
        </p>
      )}
      <div className="flex flex-col gap-4">
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'error'} />
        <button
          type="button"
          className={primaryButtonClass}
          onClick={enter}
          disabled={busy || done || !token}
        >
          Entrar na minha conta
        </button>
      </div>
      <FooterLink to="/login">Voltar para o login</FooterLink>
    </main>
  );
}
