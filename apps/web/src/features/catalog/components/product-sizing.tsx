import { useQuery } from '@tanstack/react-query';
import { productSizingQuery } from '../api/products.ts';

/**
 * Beside the sizes (docs/decisions/0070): how the garment fits by the shop's own exchanges, with the numbers
 * behind it (only past a minimum of exchanges), and the size guide staff keep, folded until opened.
 */
export function ProductSizing({ productId }: { productId: number }) {
  const { data } = useQuery(productSizingQuery(productId));
  if (!data || (!data.guia && !data.caimento)) return null;
  return (
    <div className="flex flex-col gap-2 text-sm">
      {data.caimento ? (
        <p>
          <span className="font-semibold">Caimento:</span> {data.caimento.texto}
        </p>
      ) : null}
      {data.guia ? (
        <details>
          <summary className="cursor-pointer font-semibold text-brand-800 underline dark:text-brand-100">
            Guia de medidas
          </summary>
          <div className="mt-2 overflow-x-auto">
            <table className="min-w-full border-collapse">
              <caption className="mb-1 text-left">Medidas da peça, em centímetros</caption>
              <thead>
                <tr>
                  <th scope="col" className="border-b border-stone-300 pr-4 text-left">
                    Tamanho
                  </th>
                  {data.guia.colunas.map((c) => (
                    <th key={c} scope="col" className="border-b border-stone-300 pr-4 text-left">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.guia.linhas.map((row) => (
                  <tr key={row.tamanho}>
                    <th scope="row" className="pr-4 text-left">
                      {row.tamanho}
                    </th>
                    {row.valores.map((v, i) => (
                      <td key={data.guia!.colunas[i]} className="pr-4 tabular-nums">
                        {v === null ? '—' : v.toLocaleString('pt-BR')}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </div>
  );
}
