import { formatBRL, reaisToCents } from '@passada/core/money';
import { Link, useOutletContext } from 'react-router';
import { linkClass, primaryButtonClass } from '../../../components/form-field.tsx';
import { type Me, useProducts } from '../painel-api.ts';

export default function ProductsPage() {
  const me = useOutletContext<Me>();
  const products = useProducts();
  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <h1 className="text-2xl font-bold">Produtos</h1>
        {me.staff.role === 'admin' ? (
          <Link to="/painel/produtos/novo" className={primaryButtonClass}>
            Novo produto
          </Link>
        ) : null}
      </div>
      {products.isPending ? <p>Carregando…</p> : null}
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-stone-300">
            <th className="py-2">Produto</th>
            <th>Categoria</th>
            <th>Preço</th>
            <th>Estoque</th>
            <th>Situação</th>
          </tr>
        </thead>
        <tbody>
          {products.data?.map((p) => (
            <tr key={p.id} className="border-b border-stone-200 dark:border-stone-800">
              <td className="py-2">
                <Link to={`/painel/produtos/${p.id}`} className={linkClass}>
                  {p.name}
                </Link>
              </td>
              <td>{p.category}</td>
              <td>{formatBRL(reaisToCents(p.price))}</td>
              <td>{p.stock.reduce((sum, s) => sum + s.quantity, 0)}</td>
              <td>{p.oculto ? 'Oculto' : p.aparecer_home ? 'Visível, na home' : 'Visível'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
