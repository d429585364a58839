import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormField, linkClass } from '../../../components/form-field.tsx';
import { painelFetch, painelKeys } from '../painel-api.ts';

export interface LowStockItem {
  product_id: number;
  product_name: string;
  color: string;
  size: string;
  quantity: number;
}

export function useLowStock(limit: number) {
  return useQuery({
    queryKey: painelKeys.low(limit),
    queryFn: () => painelFetch<LowStockItem[]>(`/stock/low/?limite=${limit}`),
  });
}

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
      {low.data?.length === 0 ? <p>Nenhuma combinação com {limit} unidades ou menos.</p> : null}
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-stone-300">
            <th className="py-2">Produto</th>
            <th>Cor</th>
            <th>Tamanho</th>
            <th>Quantidade</th>
          </tr>
        </thead>
        <tbody>
          {low.data?.map((i) => (
            <tr
              key={`${i.product_id}-${i.color}-${i.size}`}
              className="border-b border-stone-200 dark:border-stone-800"
            >
              <td className="py-2">
                <Link to={`/painel/produtos/${i.product_id}`} className={linkClass}>
                  {i.product_name}
                </Link>
              </td>
              <td>{i.color}</td>
              <td>{i.size}</td>
              <td className={i.quantity === 0 ? 'font-semibold text-red-700' : ''}>{i.quantity}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
