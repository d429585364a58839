import { Link } from 'react-router';
import { linkClass } from '../../../../components/form-field.tsx';
import { useProducts } from '../api/products.ts';
import { useLowStock } from '../api/stock.ts';

/** Products and stock that need attention. */
export function StockCards() {
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
