import { formatBRL, reaisToCents } from '@passada/core/money';
import { Link } from 'react-router';
import { linkClass, primaryButtonClass } from '../../../components/form-field.tsx';
import { useStaffCan } from '../api/auth.ts';
import { useProducts } from '../api/products.ts';
import { DataTable } from '../components/data-table.tsx';

export default function ProductsPage() {
  const canEdit = useStaffCan('catalogo');
  const products = useProducts();
  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <h1 className="text-2xl font-bold">Produtos</h1>
        {canEdit ? (
          <Link to="/painel/produtos/novo" className={primaryButtonClass}>
            Novo produto
          </Link>
        ) : null}
      </div>
      {products.isPending ? <p>Carregando…</p> : null}
      <DataTable
        label="Produtos"
        rows={products.data}
        rowKey={(p) => p.id}
        empty="Nenhum produto ainda."
        columns={[
          {
            header: 'Produto',
            rowHeader: true,
            cell: (p) => (
              <Link to={`/painel/produtos/${p.id}`} className={linkClass}>
                {p.name}
              </Link>
            ),
          },
          { header: 'Categoria', cell: (p) => p.category },
          { header: 'Preço', cell: (p) => formatBRL(reaisToCents(p.price)) },
          { header: 'Estoque', cell: (p) => p.stock.reduce((sum, s) => sum + s.quantity, 0) },
          {
            header: 'Situação',
            cell: (p) => (p.oculto ? 'Oculto' : p.aparecer_home ? 'Visível, na home' : 'Visível'),
          },
        ]}
      />
    </section>
  );
}
