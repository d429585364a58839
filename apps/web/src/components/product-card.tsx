import { Link } from 'react-router';
import { Price } from './price.tsx';
import { ResponsiveImage } from './responsive-image.tsx';

export interface ProductCardData {
  id: number;
  name: string;
  price: number;
  /** While a sale runs: the list price, struck through beside the price. */
  preco_de?: number | undefined;
  /** While a sale limited to some colours × sizes runs: true. */
  promocao_parcial?: boolean | undefined;
  images: string[];
  /** The pictures' alt texts, in the order of `images` (an empty one: the product's name). */
  photos?: Array<{ alt: string }>;
}

/** Image, name, price and 'Ver mais' to the product page (spec §2 grids). */
/** The card's width in the grid below: two columns on a phone, three on a tablet, five from 1024 px. */
export const CARD_SIZES = '(min-width: 1024px) 220px, (min-width: 640px) 33vw, 50vw';

/** `eager`: the card is in the first screen, so its image loads at once (it may be the largest paint). */
export function ProductCard({ product, eager = false }: { product: ProductCardData; eager?: boolean }) {
  const image = product.images[0];
  return (
    <li className="flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm dark:border-stone-800 dark:bg-stone-900">
      {image ? (
        <ResponsiveImage
          src={image}
          sizes={CARD_SIZES}
          alt={product.photos?.[0]?.alt || product.name}
          width={400}
          height={400}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={eager ? 'high' : 'auto'}
          decoding="async"
          className="aspect-square w-full bg-stone-100 object-contain dark:bg-stone-800"
        />
      ) : (
        <div className="aspect-square w-full bg-stone-100 dark:bg-stone-800" />
      )}
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="min-h-[2lh] font-semibold leading-snug">{product.name}</h3>
        <Price
          reais={product.price}
          wasReais={product.preco_de}
          className="text-lg font-bold text-brand-800 dark:text-brand-100"
        />
        {product.promocao_parcial ? (
          <p className="text-sm font-medium text-brand-800 dark:text-brand-100">
            Promoção em algumas cores e tamanhos
          </p>
        ) : null}
        <Link
          to={`/produto/${product.id}`}
          className="mt-auto inline-block rounded-lg bg-brand-700 px-4 py-2 text-center font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          Ver mais<span className="sr-only"> sobre {product.name}</span>
        </Link>
      </div>
    </li>
  );
}

export function ProductGrid({
  products,
  eagerCount = 0,
}: {
  products: ProductCardData[];
  eagerCount?: number;
}) {
  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
      {products.map((p, i) => (
        <ProductCard key={p.id} product={p} eager={i < eagerCount} />
      ))}
    </ul>
  );
}

/**
 * Placeholder cards of the real cards' size while products load, so nothing below moves when they
 * arrive (layout shift); the loading text sits on top of them.
 */
export function ProductGridSkeleton({ count, label }: { count: number; label: string }) {
  return (
    <div className="relative">
      <p role="status" className="absolute inset-x-0 top-8 z-10 text-center font-medium">
        {label}
      </p>
      <ul aria-hidden="true" className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
        {Array.from({ length: count }, (_, i) => `placeholder-${i}`).map((key) => (
          <li
            key={key}
            className="flex flex-col overflow-hidden rounded-xl border border-stone-200 dark:border-stone-800"
          >
            <div className="aspect-square w-full animate-pulse bg-stone-100 dark:bg-stone-800" />
            <div className="flex flex-col gap-2 p-4">
              <div className="min-h-[2lh] leading-snug" />
              <div className="h-7" />
              <div className="h-10 rounded-lg bg-stone-100 dark:bg-stone-800" />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
