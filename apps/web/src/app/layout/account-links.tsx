import { Link, useNavigate } from 'react-router';
import { useSession } from '../../lib/session.tsx';

/** Guests: 'Entrar' and 'Crie uma conta'; signed in: 'Bem-vindo, {name}' and 'Sair' (spec §2). */
export function AccountLinks({ onNavigate }: { onNavigate?: () => void }) {
  const { token, profile, signOut } = useSession();
  const navigate = useNavigate();
  if (token) {
    const name = profile?.full_name || profile?.username || '';
    return (
      <>
        <Link
          to={profile ? `/user/${encodeURIComponent(profile.username)}` : '/user'}
          onClick={onNavigate}
          className="font-medium hover:text-brand-700 dark:hover:text-brand-100"
        >
          Bem-vindo, {name}
        </Link>
        <button
          type="button"
          onClick={async () => {
            onNavigate?.();
            await signOut();
            navigate('/');
          }}
          className="rounded-lg border border-stone-300 px-3 py-1.5 font-medium hover:bg-stone-100 dark:border-stone-700 dark:hover:bg-stone-800"
        >
          Sair
        </button>
      </>
    );
  }
  return (
    <>
      <Link
        to="/login"
        onClick={onNavigate}
        className="font-medium hover:text-brand-700 dark:hover:text-brand-100"
      >
        Entrar
      </Link>
      <Link
        to="/criarconta"
        onClick={onNavigate}
        className="rounded-lg bg-brand-700 px-3 py-1.5 font-semibold text-white hover:bg-brand-800"
      >
        Crie uma conta
      </Link>
    </>
  );
}
