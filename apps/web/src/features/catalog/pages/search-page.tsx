import type { ProductCategory, ProductSearchQuery } from '@passada/core/contracts/catalog';
import { plural } from '@passada/core/plural';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatReais } from '../../../components/price.tsx';
import { ProductGrid } from '../../../components/product-card.tsx';
import { searchProductsQuery } from '../api/products.ts';

const SIZES = ['P', 'M', 'G', 'GG'] as const;
const CATEGORIES: Array<{ value: ProductCategory; label: string }> = [
  { value: 'feminino', label: 'Feminino' },
  { value: 'masculino', label: 'Masculino' },
  { value: 'acessorios', label: 'Acessórios' },
];
const PRICE_MAX = 500;

function isCategory(value: string | null): value is ProductCategory {
  return CATEGORIES.some((c) => c.value === value);
}

function clampPrice(value: string | null, fallback: number): number {
  const n = Number(value);
  return value !== null && Number.isFinite(n) ? Math.min(PRICE_MAX, Math.max(0, n)) : fallback;
}

/** How long the price sliders wait after the last step before searching. */
export const PRICE_SEARCH_DELAY_MS = 400;

/**
 * The two price sliders: each key press or drag step moves them at once, and the search goes out once,
 * when the shopper pauses, not once per step.
 */
function PriceRange(props: { min: number; max: number; onCommit(next: { min: number; max: number }): void }) {
  const [draft, setDraft] = useState({ min: props.min, max: props.max });
  const committed = useRef({ min: props.min, max: props.max });
  const onCommit = useRef(props.onCommit);
  onCommit.current = props.onCommit;

  // A new URL (back button, a shared link) moves the sliders too.
  useEffect(() => {
    committed.current = { min: props.min, max: props.max };
    setDraft({ min: props.min, max: props.max });
  }, [props.min, props.max]);

  useEffect(() => {
    if (draft.min === committed.current.min && draft.max === committed.current.max) return;
    const timer = window.setTimeout(() => {
      committed.current = draft;
      onCommit.current(draft);
    }, PRICE_SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [draft]);

  return (
    <fieldset>
      <legend className="mb-1 font-semibold">Preço</legend>
      {(['min', 'max'] as const).map((bound) => (
        <div key={bound} className={bound === 'max' ? 'mt-2' : ''}>
          <label htmlFor={`preco-${bound}`} className="block text-sm">
            {bound === 'min' ? 'Mínimo' : 'Máximo'}: {formatReais(draft[bound])}
          </label>
          <input
            id={`preco-${bound}`}
            type="range"
            min={0}
            max={PRICE_MAX}
            step={10}
            value={draft[bound]}
            onChange={(e) => setDraft((d) => ({ ...d, [bound]: Number(e.target.value) }))}
            className="w-full accent-brand-700"
          />
        </div>
      ))}
    </fieldset>
  );
}

/** /pesquisa: every filter lives in the URL query, so a search can be shared and survives a reload. */
export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const categoryParam = params.get('category');
  const category = isCategory(categoryParam) ? categoryParam : undefined;
  const minPrice = clampPrice(params.get('min_price'), 0);
  const maxPrice = clampPrice(params.get('max_price'), PRICE_MAX);
  const sizes = (params.get('sizes') ?? '')
    .split(',')
    .filter((s) => (SIZES as readonly string[]).includes(s));
  const [text, setText] = useState(q);
  // The header's search opens this page with a new q while it may already be open.
  useEffect(() => setText(q), [q]);

  const query: ProductSearchQuery = {
    q: q || undefined,
    category,
    min_price: minPrice > 0 ? minPrice : undefined,
    max_price: maxPrice < PRICE_MAX ? maxPrice : undefined,
    sizes: sizes.length ? sizes.join(',') : undefined,
  };
  const { data, isPending, isError } = useQuery(searchProductsQuery(query));

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update({ q: text.trim() });
  };

  const toggleSize = (size: string) => {
    const next = sizes.includes(size) ? sizes.filter((s) => s !== size) : [...sizes, size];
    update({ sizes: SIZES.filter((s) => next.includes(s)).join(',') });
  };

  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-black tracking-tight">Pesquisa</h1>
      <div className="grid gap-8 md:grid-cols-[16rem_1fr]">
        <aside aria-label="Filtros" className="flex flex-col gap-6">
          <form aria-label="Pesquisar" onSubmit={submit} className="flex gap-2">
            <label htmlFor="pesquisa-texto" className="sr-only">
              Pesquisar produtos
            </label>
            <input
              id="pesquisa-texto"
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="Camiseta, boné..."
              className="w-full rounded-lg border border-stone-400 px-3 py-2 dark:border-stone-600 dark:bg-stone-900"
            />
            <button type="submit" className="rounded-lg bg-brand-700 px-3 py-2 font-semibold text-white">
              Buscar
            </button>
          </form>
          <div>
            <label htmlFor="pesquisa-categoria" className="mb-1 block font-semibold">
              Categoria
            </label>
            <select
              id="pesquisa-categoria"
              value={category ?? ''}
              onChange={(e) => update({ category: e.target.value })}
              className="w-full rounded-lg border border-stone-400 px-3 py-2 dark:border-stone-600 dark:bg-stone-900"
            >
              <option value="">Todas</option>
              {CATEGORIES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
          <PriceRange
            min={minPrice}
            max={maxPrice}
            onCommit={(next) =>
              update({
                min_price: next.min > 0 ? String(next.min) : undefined,
                max_price: next.max < PRICE_MAX ? String(next.max) : undefined,
              })
            }
          />
          <fieldset>
            <legend className="mb-1 font-semibold">Tamanhos</legend>
            <div className="flex flex-wrap gap-3">
              {SIZES.map((s) => (
                <label key={s} className="flex items-center gap-1.5">
                  <input
                    type="checkbox"
                    checked={sizes.includes(s)}
                    onChange={() => toggleSize(s)}
                    className="h-4 w-4 accent-brand-700"
                  />
                  {s}
                </label>
              ))}
            </div>
          </fieldset>
        </aside>
        <section aria-label="Resultados" aria-live="polite">
          {isPending ? (
            <p role="status">Carregando produtos...</p>
          ) : isError ? (
            <p role="alert">Não foi possível pesquisar agora.</p>
          ) : data.length === 0 ? (
            <p>Nenhum produto encontrado.</p>
          ) : (
            <>
              <p className="mb-4 text-sm text-stone-700 dark:text-stone-300">
                {plural(data.length, 'produto encontrado', 'produtos encontrados')}
              </p>
              <ProductGrid products={data} />
            </>
          )}
        </section>
      </div>
    </main>
  );
}
