import { useState } from 'react';
import { Link } from 'react-router';
import { FormField, linkClass } from '../../../../components/form-field.tsx';
import { DataTable } from '../../shell/components/data-table.tsx';
import { useLowStock } from '../api/stock.ts';
import { StockFile } from '../components/stock-file.tsx';

export default function LowStockPage() {
  const [limit, setLimit] = useState(3);
  const low = useLowStock(limit);
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Estoque baixo</h1>
      <div className="mb-4 w-48">
        <FormField
          label="Mostrar até (unidades)"
          type="number"
          min={0}
          value={limit}
          onChange={(e) => setLimit(Math.max(0, Number(e.target.value) || 0))}
        />
      </div>
      <DataTable
        label="Combinações com estoque baixo"
        rows={low.data}
        rowKey={(i) => `${i.product_id}-${i.color}-${i.size}`}
        empty={`Nenhuma combinação com ${limit} unidades ou menos.`}
        columns={[
          {
            header: 'Produto',
            cell: (i) => (
              <Link to={`/painel/produtos/${i.product_id}`} className={linkClass}>
                {i.product_name}
              </Link>
            ),
          },
          { header: 'Cor', cell: (i) => i.color },
          { header: 'Tamanho', cell: (i) => i.size },
          {
            header: 'Quantidade',
            cell: (i) =>
              i.quantity === 0 ? (
                <span className="font-semibold text-red-700">{i.quantity}</span>
              ) : (
                i.quantity
              ),
          },
        ]}
      />
      <StockFile />
    </section>
  );
}
