import { EVENT_SCOPED_ROLES } from '@passada/core/contracts/painel';
import { Link, Navigate, useOutletContext } from 'react-router';
import { linkClass } from '../../../components/form-field.tsx';
import { type Me, useStaffCan } from '../api/auth.ts';
import { useProducts } from '../api/products.ts';
import { useLowStock } from '../api/stock.ts';
import { DashboardSection } from './dashboard-section.tsx';

/** The back office's first screen: what needs attention now. */
export default function PainelHomePage() {
  const me = useOutletContext<Me>();
  const seesStock = useStaffCan(['catalogo', 'estoque']);
  const seesSales = useStaffCan('relatorios');
  // A kit-desk volunteer's back office is the check-in screen.
  if (EVENT_SCOPED_ROLES.includes(me.staff.role)) return <Navigate to="/painel/checkin" replace />;
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Olá, {me.staff.name.split(' ')[0]}</h1>
      {seesStock ? <StockCards /> : null}
      {seesSales ? (
        <div className="mt-6">
          <DashboardSection />
        </div>
      ) : null}
    </section>
  );
}

/** Products and stock that need attention. */
function StockCards() {
  const products = useProducts();
  const low = useLowStock(3);
  const cards = [
    { label: 'Produtos', value: products.data?.length, to: '/painel/produtos' },
    { label: 'Ocultos', value: products.data?.filter((p) => p.oculto).length, to: '/painel/produtos' },
    { label: 'Combinações com até 3 unidades', value: low.data?.length, to: '/painel/estoque-baixo' },
    {
      label: 'Esgotadas',
      value: low.data?.filter((i) => i.quantity === 0).length,
      to: '/painel/estoque-baixo',
    },
  ];
  return (
    <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
      {cards.map((card) => (
        <li
          key={card.label}
          className="rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
        >
          <p className="text-sm text-stone-600 dark:text-stone-400">{card.label}</p>
          <p className="text-3xl font-bold">{card.value ?? '…'}</p>
          <Link to={card.to} className={`${linkClass} text-sm`}>
            Ver
          </Link>
        </li>
      ))}
    </ul>
  );
}
