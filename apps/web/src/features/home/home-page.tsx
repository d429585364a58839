import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ProductGrid, ProductGridSkeleton } from '../../components/product-card.tsx';
import { HOME_SECTION_SIZE, homeProductsQuery } from './api/home-products.ts';
import { BannerSlider } from './components/banner-slider.tsx';

function HomeSection({ category, title }: { category: 'feminino' | 'masculino'; title: string }) {
  const { data, isPending, isError } = useQuery(homeProductsQuery(category));
  const headingId = `home-${category}`;
  return (
    <section aria-labelledby={headingId} className="mt-12">
      <div className="mb-5 flex items-end justify-between gap-4">
        <h2 id={headingId} className="text-2xl font-black tracking-tight">
          {title}
        </h2>
        <Link
          to={`/${category}`}
          className="shrink-0 whitespace-nowrap rounded-lg border-2 border-brand-700 px-4 py-1.5 font-semibold text-brand-800 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-stone-800"
        >
          Ver mais<span className="sr-only"> {title}</span>
        </Link>
      </div>
      {isPending ? (
        <ProductGridSkeleton count={HOME_SECTION_SIZE} label="Carregando produtos..." />
      ) : isError ? (
        <p>Não foi possível carregar os produtos.</p>
      ) : (
        <ProductGrid products={data} />
      )}
    </section>
  );
}

export default function HomePage() {
  return (
    <main>
      <h1 className="sr-only">Passada: roupas de corrida do Nordeste</h1>
      <BannerSlider />
      <div className="mx-auto max-w-6xl px-4">
        <HomeSection category="feminino" title="Espaço Feminino" />
        <HomeSection category="masculino" title="Espaço Masculino" />
      </div>
    </main>
  );
}
