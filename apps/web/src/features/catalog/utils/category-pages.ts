import type { Product, ProductCategory } from '@passada/core/contracts/catalog';

/** The grid pages and what each shows: a category, or every product for /topavaliados. */
export const CATEGORY_PAGES: Readonly<Record<string, { category: ProductCategory | 'all'; title: string }>> =
  {
    feminino: { category: 'feminino', title: 'Espaço Feminino' },
    masculino: { category: 'masculino', title: 'Espaço Masculino' },
    acessorios: { category: 'acessorios', title: 'Acessórios' },
    topavaliados: { category: 'all', title: 'Top Avaliados' },
  };

/** The products in the grid's order: /topavaliados puts the best rated first (ties by id). */
export function pageProducts<P extends Pick<Product, 'id' | 'rating'>>(
  category: ProductCategory | 'all',
  products: P[] | undefined,
): P[] | undefined {
  return category === 'all' && products
    ? [...products].sort((a, b) => b.rating - a.rating || a.id - b.id)
    : products;
}
