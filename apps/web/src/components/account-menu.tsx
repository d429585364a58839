import { NavLink } from 'react-router';
import { useSignOutToHome } from '../lib/session.tsx';

const itemClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-lg px-3 py-2 font-medium hover:bg-stone-100 dark:hover:bg-stone-800 ${isActive ? 'bg-stone-100 text-brand-700 dark:bg-stone-800 dark:text-brand-500' : ''}`;

/** The account side menu: Dados pessoais, Pedidos, Inscrições, Equipes, Sair. */
export function AccountMenu() {
  const signOutToHome = useSignOutToHome();
  return (
    <nav aria-label="Minha conta" className="md:w-56 md:shrink-0">
      <ul className="flex flex-row flex-wrap gap-1 md:flex-col">
        <li>
          <NavLink to="/user/pessoal-data" className={itemClass}>
            Dados pessoais
          </NavLink>
        </li>
        <li>
          <NavLink to="/user/pedidos" className={itemClass}>
            Pedidos
          </NavLink>
        </li>
        <li>
          <NavLink to="/user/inscricoes" className={itemClass}>
            Inscrições
          </NavLink>
        </li>
        <li>
          <NavLink to="/user/equipes" className={itemClass}>
            Equipes
          </NavLink>
        </li>
        <li>
          <button
            type="button"
            className="block w-full rounded-lg px-3 py-2 text-left font-medium hover:bg-stone-100 dark:hover:bg-stone-800"
            onClick={() => void signOutToHome()}
          >
            Sair
          </button>
        </li>
      </ul>
    </nav>
  );
}
