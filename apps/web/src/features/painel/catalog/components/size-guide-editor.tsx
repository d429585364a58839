import type { PainelProduct } from '@passada/core/contracts/painel';
import { type FormEvent, useState } from 'react';
import { FormField, FormStatus, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useSaveSizeGuide } from '../api/products.ts';

const MAX_COLUMNS = 6;

/** "54,5" or "54.5" → 54.5; empty → null; anything else → NaN (refused before sending). */
function measure(text: string): number | null {
  const t = text.trim().replace(',', '.');
  return t === '' ? null : /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/**
 * The product's size guide (docs/decisions/0070): up to six measurements of the garment in cm for each of
 * its sizes, shown on the product page. Saved whole with the product's version: someone else's save in
 * between answers "recarregue".
 */
export function SizeGuideEditor({ product }: { product: PainelProduct }) {
  const save = useSaveSizeGuide(product.id);
  const sizes = [...new Map(product.stock.map((s) => [s.size.id, s.size])).values()];
  const saved = product.tabela_medidas;
  // Each measurement keeps its own key while names are typed and others removed.
  const [cols, setCols] = useState(() =>
    (saved?.colunas ?? ['Tórax', 'Comprimento']).map((name, key) => ({ key, name })),
  );
  const [nextKey, setNextKey] = useState(MAX_COLUMNS);
  const columns = cols.map((c) => c.name);
  const setColumns = (change: (names: string[]) => string[]) =>
    setCols((c) => change(c.map((x) => x.name)).map((name, i) => ({ key: c[i]!.key, name })));
  const [values, setValues] = useState<Record<number, string[]>>(() =>
    Object.fromEntries(
      sizes.map((s) => {
        const row = saved?.linhas.find((r) => r.tamanho_id === s.id);
        return [s.id, (row?.valores ?? []).map((v) => (v === null ? '' : String(v).replace('.', ',')))];
      }),
    ),
  );
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);

  const cell = (sizeId: number, i: number) => values[sizeId]?.[i] ?? '';
  const setCell = (sizeId: number, i: number, text: string) =>
    setValues((v) => {
      const row = [...(v[sizeId] ?? [])];
      row[i] = text;
      return { ...v, [sizeId]: row };
    });
  const removeColumn = (i: number) => {
    setCols((c) => c.filter((_, j) => j !== i));
    setValues((v) =>
      Object.fromEntries(Object.entries(v).map(([k, row]) => [k, row.filter((_, j) => j !== i)])),
    );
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const linhas = sizes
      .map((s) => ({ tamanho_id: s.id, valores: columns.map((_, i) => measure(cell(s.id, i))) }))
      .filter((r) => r.valores.some((v) => v !== null));
    if (linhas.some((r) => r.valores.some((v) => v !== null && Number.isNaN(v)))) {
      setStatus({ tone: 'error', message: 'Digite as medidas em cm, só números (ex.: 54 ou 54,5).' });
      return;
    }
    try {
      await save.mutateAsync({ versao: product.versao, colunas: columns, linhas });
      setStatus({ tone: 'success', message: 'Guia de medidas salvo.' });
    } catch (err) {
      setStatus({ tone: 'error', message: errorMessage(err) });
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Guia de medidas" className="mt-6 grid max-w-3xl gap-3">
      <h2 className="text-lg font-semibold">Guia de medidas (cm)</h2>
      <p className="text-sm">Medidas da peça, por tamanho; a loja mostra na página do produto.</p>
      <div className="flex flex-wrap items-end gap-3">
        {columns.map((name, i) => (
          <div key={cols[i]!.key} className="flex items-end gap-1">
            <FormField
              label={`Nome da medida ${i + 1}`}
              value={name}
              onChange={(e) => setColumns((c) => c.map((x, j) => (j === i ? e.target.value : x)))}
            />
            {columns.length > 1 ? (
              <button type="button" className={secondaryButtonClass} onClick={() => removeColumn(i)}>
                Remover medida {i + 1}
              </button>
            ) : null}
          </div>
        ))}
        {columns.length < MAX_COLUMNS ? (
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => {
              setCols((c) => [...c, { key: nextKey, name: '' }]);
              setNextKey((k) => k + 1);
            }}
          >
            Adicionar medida
          </button>
        ) : null}
      </div>
      <table className="text-sm">
        <caption className="sr-only">Medidas de cada tamanho</caption>
        <thead>
          <tr>
            <th scope="col" className="text-left">
              Tamanho
            </th>
            {columns.map((name, i) => (
              <th key={cols[i]!.key} scope="col" className="text-left">
                {name || `Medida ${i + 1}`}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sizes.map((s) => (
            <tr key={s.id}>
              <th scope="row" className="pr-3 text-left">
                {s.name}
              </th>
              {columns.map((name, i) => (
                <td key={cols[i]!.key} className="pr-2">
                  <input
                    aria-label={`${s.name}: ${name || `medida ${i + 1}`} (cm)`}
                    inputMode="decimal"
                    value={cell(s.id, i)}
                    onChange={(e) => setCell(s.id, i, e.target.value)}
                    className="w-20 rounded border border-stone-400 px-2 py-1 dark:bg-stone-900"
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="submit"
        className={`${secondaryButtonClass} justify-self-start`}
        disabled={save.isPending}
      >
        Salvar guia de medidas
      </button>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </form>
  );
}
