import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { ProductGrid, ProductGridSkeleton } from '../../../components/product-card.tsx';
import { categoryProductsQuery } from '../api/products.ts';
import { CATEGORY_PAGES, pageProducts } from '../utils/category-pages.ts';

/** One grid for /feminino, /masculino, /acessorios and /topavaliados: the path says which. */
export default function CategoryPage() {
  const segment = useLocation().pathname.split('/')[1] ?? '';
  const page = CATEGORY_PAGES[segment] ?? CATEGORY_PAGES.topavaliados!;
  const { data, isPending, isError } = useQuery(categoryProductsQuery(page.category));
  const products = pageProducts(page.category, data);

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
