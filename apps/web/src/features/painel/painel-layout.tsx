import { useEffect } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { ApiRequestError } from '../../lib/api.ts';
import { hasPainelToken, useLogout, useMe } from './api/auth.ts';

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${
    isActive ? 'bg-brand-700 text-white' : 'hover:bg-stone-200 dark:hover:bg-stone-800'
  }`;

/** The back office's frame: signed-in staff only, its own navigation, no shop header or cart. */
export default function PainelLayout() {
  const navigate = useNavigate();
  const location = useLocation();
  const me = useMe();
  const logoutMutation = useLogout();
  const signedOut = !hasPainelToken() || (me.error instanceof ApiRequestError && me.error.status === 401);

  useEffect(() => {
    if (signedOut) navigate(`/painel/login?next=${encodeURIComponent(location.pathname)}`, { replace: true });
  }, [signedOut, navigate, location.pathname]);
  useEffect(() => {
    if (me.data?.precisa_ativar_2fa && location.pathname !== '/painel/seguranca') {
      navigate('/painel/seguranca', { replace: true });
    }
  }, [me.data, location.pathname, navigate]);

  if (signedOut || !me.data) {
    return (
      <p className="p-8 text-stone-600">
        {me.isError ? 'Não foi possível carregar o painel.' : 'Carregando…'}
      </p>
    );
  }
  const isAdmin = me.data.staff.role === 'admin';

  const logout = async () => {
    await logoutMutation.mutateAsync();
    navigate('/painel/login', { replace: true });
  };

  return (
    <div className="min-h-screen bg-stone-50 text-stone-900 dark:bg-stone-950 dark:text-stone-100">
      <header className="border-b border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-2 px-4 py-3">
          <span className="mr-4 text-lg font-bold">Painel Passada</span>
          <nav aria-label="Painel" className="flex flex-wrap gap-1">
            <NavLink to="/painel" end className={navClass}>
              Início
            </NavLink>
            <NavLink to="/painel/pedidos" className={navClass}>
              Pedidos
            </NavLink>
            <NavLink to="/painel/devolucoes" className={navClass}>
              Devoluções
            </NavLink>
            <NavLink to="/painel/produtos" className={navClass}>
              Produtos
            </NavLink>
            <NavLink to="/painel/home-da-loja" className={navClass}>
              Home da loja
            </NavLink>
            <NavLink to="/painel/estoque-baixo" className={navClass}>
              Estoque baixo
            </NavLink>
            <NavLink to="/painel/eventos" className={navClass}>
              Eventos
            </NavLink>
            <NavLink to="/painel/checkin" className={navClass}>
              Check-in
            </NavLink>
            {isAdmin ? (
              <>
                <NavLink to="/painel/equipe" className={navClass}>
                  Equipe
                </NavLink>
                <NavLink to="/painel/cupons" className={navClass}>
                  Cupons
                </NavLink>
                <NavLink to="/painel/registro" className={navClass}>
                  Registro de alterações
                </NavLink>
              </>
            ) : null}
            <NavLink to="/painel/seguranca" className={navClass}>
              Segurança
            </NavLink>
          </nav>
          <span className="ml-auto text-sm text-stone-600 dark:text-stone-400">
            {me.data.staff.name} ({me.data.staff.role})
          </span>
          <button type="button" onClick={logout} className="rounded-md px-3 py-2 text-sm underline">
            Sair
          </button>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">
        <Outlet context={me.data} />
      </main>
    </div>
  );
}
