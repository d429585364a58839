import type { ProductPhoto } from '@passada/core/contracts/catalog';
import { PRODUCT_MAIN_IMAGE_SIZES } from '@passada/core/images';
import { type KeyboardEvent, useRef, useState } from 'react';
import { ResponsiveImage } from '../../../components/responsive-image.tsx';
import { useHydrated } from '../../../lib/hydration.ts';

/**
 * Main image plus thumbnails; thumbnails are buttons, and the arrow keys move between them. The main
 * image says what staff wrote for the photo, or else which of the product's pictures it is.
 */
export function ProductGallery({ photos, name }: { photos: ProductPhoto[]; name: string }) {
  const images = photos.map((p) => p.url);
  const [current, setCurrent] = useState(0);
  // The server's page shows the thumbnails; they answer once the app has taken the page over.
  const hydrated = useHydrated();
  const thumbs = useRef<Array<HTMLButtonElement | null>>([]);
  const main = images[current] ?? images[0];

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (index + step + images.length) % images.length;
    setCurrent(next);
    thumbs.current[next]?.focus();
  };

  return (
    <div className="flex flex-col gap-3">
      {main ? (
        <ResponsiveImage
          src={main}
          sizes={PRODUCT_MAIN_IMAGE_SIZES}
          alt={photos[current]?.alt || `${name}, imagem ${current + 1} de ${images.length}`}
          width={600}
          height={600}
          fetchPriority="high"
          className="aspect-square w-full rounded-xl bg-stone-100 object-contain dark:bg-stone-800"
        />
      ) : (
        <div className="aspect-square w-full rounded-xl bg-stone-100 dark:bg-stone-800" />
      )}
      {images.length > 1 && (
        <ul className="flex flex-wrap gap-2" aria-label="Imagens do produto">
          {images.map((src, i) => (
            <li key={src}>
              <button
                type="button"
                ref={(el) => {
                  thumbs.current[i] = el;
                }}
                aria-label={`Ver imagem ${i + 1} de ${images.length}`}
                aria-pressed={i === current}
                disabled={!hydrated}
                onClick={() => setCurrent(i)}
                onKeyDown={(e) => onKeyDown(e, i)}
                className={`overflow-hidden rounded-lg border-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${i === current ? 'border-brand-700' : 'border-transparent'}`}
              >
                <ResponsiveImage
                  src={src}
                  sizes="72px"
                  alt=""
                  width={72}
                  height={72}
                  loading="lazy"
                  className="h-18 w-18 bg-stone-100 object-contain dark:bg-stone-800"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
