import { Link, Navigate, useParams } from 'react-router';
import { AccountLayout } from '../../../components/account-layout.tsx';
import { useServerCartSync } from '../../../lib/server-cart-sync.tsx';
import { useSession } from '../../../lib/session.tsx';
import { ReminderChoice } from '../components/reminder-choice.tsx';

/** /user and /user/{username}: the signed-in user's own account home. */
export default function AccountPage() {
  useServerCartSync();
  const { profile, profileLoading } = useSession();
  const { username } = useParams();
  // Someone else's name in the address must not label one's own page as theirs: show it under one's own.
  if (profile && username !== undefined && username !== profile.username) {
    return <Navigate to={`/user/${encodeURIComponent(profile.username)}`} replace />;
  }
  return (
    <AccountLayout title="Minha conta">
      {profile ? (
        <div className="flex flex-col gap-6">
          <dl className="grid gap-3 rounded-xl border border-stone-200 p-5 sm:grid-cols-[max-content_1fr] dark:border-stone-800">
            <dt className="font-medium text-stone-600 dark:text-stone-400">Usuário</dt>
            <dd>{profile.username}</dd>
            <dt className="font-medium text-stone-600 dark:text-stone-400">E-mail</dt>
            <dd>{profile.email}</dd>
          </dl>
          <div className="grid gap-4 sm:grid-cols-2">
            <Link
              to="/user/pedidos"
              className="rounded-xl border border-stone-200 p-5 hover:border-brand-700 hover:shadow dark:border-stone-800"
            >
              <h2 className="text-lg font-semibold">Meus pedidos</h2>
              <p className="text-stone-600 dark:text-stone-400">Acompanhe suas compras.</p>
            </Link>
            <Link
              to="/user/pessoal-data"
              className="rounded-xl border border-stone-200 p-5 hover:border-brand-700 hover:shadow dark:border-stone-800"
            >
              <h2 className="text-lg font-semibold">Dados pessoais</h2>
              <p className="text-stone-600 dark:text-stone-400">Nome, e-mail, senha e exclusão da conta.</p>
            </Link>
            <Link
              to="/user/equipes"
              className="rounded-xl border border-stone-200 p-5 hover:border-brand-700 hover:shadow dark:border-stone-800"
            >
              <h2 className="text-lg font-semibold">Minhas equipes</h2>
              <p className="text-stone-600 dark:text-stone-400">
                Crie a equipe da sua assessoria, empresa ou turma e convide quem corre com você.
              </p>
            </Link>
          </div>
          <ReminderChoice />
        </div>
      ) : profileLoading ? (
        <p role="status">Carregando…</p>
      ) : (
        <p role="alert" className="text-red-700 dark:text-red-400">
          Erro ao carregar os dados do usuário.
        </p>
      )}
    </AccountLayout>
  );
}
