import { Link } from 'react-router';
import { useSession, useSignOutToHome } from '../../lib/session.tsx';

/** Guests: 'Entrar' and 'Crie uma conta'; signed in: 'Bem-vindo, {name}' and 'Sair' (spec §2). */
export function AccountLinks({ onNavigate }: { onNavigate?: () => void }) {
  const { token, profile } = useSession();
  const signOutToHome = useSignOutToHome();
  if (token) {
    const name = profile?.full_name || profile?.username || '';
    return (
      <>
        <Link
          to={profile ? `/user/${encodeURIComponent(profile.username)}` : '/user'}
          onClick={onNavigate}
          title={`Bem-vindo, ${name}`}
          // A long name must not push the header onto two rows at 1024 px.
          className="max-w-44 truncate font-medium hover:text-brand-700 lg:max-w-28 xl:max-w-40 dark:hover:text-brand-100"
        >
          Bem-vindo, {name}
        </Link>
        <button
          type="button"
          onClick={() => {
            onNavigate?.();
            void signOutToHome();
          }}
          className="shrink-0 rounded-lg border border-stone-300 px-3 py-1.5 font-medium hover:bg-stone-100 dark:border-stone-700 dark:hover:bg-stone-800"
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
        className="whitespace-nowrap font-medium hover:text-brand-700 dark:hover:text-brand-100"
      >
        Entrar
      </Link>
      <Link
        to="/criarconta"
        onClick={onNavigate}
        className="whitespace-nowrap rounded-lg bg-brand-700 px-3 py-1.5 font-semibold text-white hover:bg-brand-800"
      >
        Crie uma conta
      </Link>
    </>
  );
}
