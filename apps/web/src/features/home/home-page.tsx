import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ProductGrid, ProductGridSkeleton } from '../../components/product-card.tsx';
import { homeQuery } from './api/home-products.ts';
import { BannerSlider } from './components/banner-slider.tsx';

const SPACES = [
  { to: '/feminino', label: 'Espaço Feminino' },
  { to: '/masculino', label: 'Espaço Masculino' },
  { to: '/acessorios', label: 'Acessórios' },
] as const;

export default function HomePage() {
  const { data, isPending, isError } = useQuery(homeQuery());
  return (
    <main>
      <h1 className="sr-only">Passada: roupas de corrida do Nordeste</h1>
      <BannerSlider banners={data?.banners ?? []} />
      <div className="mx-auto max-w-6xl px-4">
        <section aria-labelledby="home-destaques" className="mt-12">
          <div className="mb-5 flex flex-wrap items-end justify-between gap-4">
            <h2 id="home-destaques" className="text-2xl font-black tracking-tight">
              Em destaque
            </h2>
            <nav aria-label="Espaços da loja" className="flex flex-wrap gap-2">
              {SPACES.map((space) => (
                <Link
                  key={space.to}
                  to={space.to}
                  className="shrink-0 whitespace-nowrap rounded-lg border-2 border-brand-700 px-4 py-1.5 font-semibold text-brand-800 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-stone-800"
                >
                  {space.label}
                </Link>
              ))}
            </nav>
          </div>
          {isPending ? (
            <ProductGridSkeleton count={5} label="Carregando produtos..." />
          ) : isError ? (
            <p>Não foi possível carregar os produtos.</p>
          ) : (
            <ProductGrid products={data.destaques} />
          )}
        </section>
      </div>
    </main>
  );
}
