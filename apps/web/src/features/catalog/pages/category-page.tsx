import type { ProductCategory } from '@passada/core/contracts/catalog';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { ProductGrid, ProductGridSkeleton } from '../../../components/product-card.tsx';
import { categoryProductsQuery } from '../api/products.ts';

const PAGES: Record<string, { category: ProductCategory | 'all'; title: string }> = {
  feminino: { category: 'feminino', title: 'Espaço Feminino' },
  masculino: { category: 'masculino', title: 'Espaço Masculino' },
  acessorios: { category: 'acessorios', title: 'Acessórios' },
  topavaliados: { category: 'all', title: 'Top Avaliados' },
};

/** One grid for /feminino, /masculino, /acessorios and /topavaliados: the path says which. */
export default function CategoryPage() {
  const segment = useLocation().pathname.split('/')[1] ?? '';
  const page = PAGES[segment] ?? PAGES.topavaliados!;
  const { data, isPending, isError } = useQuery(categoryProductsQuery(page.category));
  const products =
    page.category === 'all' && data ? [...data].sort((a, b) => b.rating - a.rating || a.id - b.id) : data;

  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-8 text-3xl font-black tracking-tight">{page.title}</h1>
      {isPending ? (
        <ProductGridSkeleton count={10} label="Carregando produtos..." />
      ) : isError ? (
        <p role="alert">Não foi possível carregar os produtos.</p>
      ) : products && products.length > 0 ? (
        <ProductGrid products={products} eagerCount={4} />
      ) : (
        <p>Nenhum produto encontrado.</p>
      )}
    </main>
  );
}
