import {
  EVENT_SCOPED_ROLES,
  type PainelPermission,
  STAFF_ROLE_LABELS,
  staffCan,
} from '@passada/core/contracts/painel';
import { useEffect } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { ApiRequestError } from '../../../lib/api.ts';
import { hasPainelToken, useLogout, useMe } from './api/auth.ts';

/**
 * The back office's menu: each item shows only to roles with what its page needs (the same
 * `staffCan` the server's guard asks; docs/decisions/0032-permissions-per-action.md).
 */
/** Who reads the shop's home lists (the API's rule); `catalogo` edits them. */
const HOME_READERS: PainelPermission[] = ['catalogo', 'estoque', 'pedidos', 'relatorios'];

const MENU: Array<{
  to: string;
  label: string;
  needs?: PainelPermission | PainelPermission[];
  end?: boolean;
}> = [
  { to: '/painel', label: 'Início', end: true },
  { to: '/painel/pedidos', label: 'Pedidos', needs: 'pedidos' },
  { to: '/painel/devolucoes', label: 'Devoluções', needs: 'pedidos' },
  { to: '/painel/lembretes', label: 'Lembretes', needs: 'pedidos' },
  { to: '/painel/produtos', label: 'Produtos', needs: ['catalogo', 'estoque'] },
  { to: '/painel/home-da-loja', label: 'Home da loja', needs: HOME_READERS },
  { to: '/painel/estoque-baixo', label: 'Estoque baixo', needs: 'estoque' },
  { to: '/painel/avaliacoes', label: 'Avaliações', needs: 'catalogo' },
  { to: '/painel/eventos', label: 'Eventos', needs: ['eventos', 'pedidos'] },
  { to: '/painel/checkin', label: 'Check-in', needs: 'checkin' },
  { to: '/painel/clientes', label: 'Clientes', needs: 'clientes' },
  { to: '/painel/comprovantes', label: 'Comprovantes', needs: 'comprovantes' },
  { to: '/painel/cupons', label: 'Cupons', needs: 'cupons' },
  { to: '/painel/relatorios', label: 'Relatórios', needs: 'relatorios' },
  { to: '/painel/fiscal', label: 'Fiscal', needs: ['relatorios', 'catalogo'] },
  { to: '/painel/equipe', label: 'Equipe', needs: 'equipe' },
  { to: '/painel/registro', label: 'Registro de alterações', needs: 'equipe' },
  { to: '/painel/mensagens', label: 'Mensagens', needs: 'equipe' },
];

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
  const { role } = me.data.staff;
  // A kit-desk volunteer has one screen: the check-in of their events, and nothing else in the menu.
  const volunteer = EVENT_SCOPED_ROLES.includes(role);
  const menu = MENU.filter((item) =>
    volunteer ? item.needs === 'checkin' : !item.needs || staffCan(role, item.needs),
  );

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
            {menu.map((item) => (
              <NavLink key={item.to} to={item.to} end={item.end} className={navClass}>
                {item.label}
              </NavLink>
            ))}
          </nav>
          <span className="ml-auto text-sm text-stone-600 dark:text-stone-400">
            {me.data.staff.name} ({STAFF_ROLE_LABELS[role]})
          </span>
          <NavLink to="/painel/seguranca" className={navClass}>
            Segurança
          </NavLink>
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
