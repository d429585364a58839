import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Spec §9: the banner advances every 15000 ms. */
export const BANNER_AUTOPLAY_MS = 15_000;

const SLIDES = ['Vídeo: Passada, corra o Nordeste', 'Nova coleção de corrida'] as const;

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Home banner: one video and one image, infinite loop, autoplay, dots (spec §2). */
export function BannerSlider() {
  // People who ask the system for reduced motion get a still banner: the dots still change slides.
  const [reducedMotion] = useState(prefersReducedMotion);
  const [emblaRef, emblaApi] = useEmblaCarousel(
    { loop: true },
    reducedMotion ? [] : [Autoplay({ delay: BANNER_AUTOPLAY_MS, stopOnInteraction: false })],
  );
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    if (!emblaApi) return;
    const onSelect = () => setSelected(emblaApi.selectedScrollSnap());
    emblaApi.on('select', onSelect);
    return () => {
      emblaApi.off('select', onSelect);
    };
  }, [emblaApi]);

  // The video starts after the page has loaded: its bytes must not compete with the code, the
  // products and their images on a slow connection (the poster shows meanwhile). People who ask
  // for reduced motion keep the poster.
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = video.current;
    if (!element || reducedMotion) return;
    let timer: number | undefined;
    const start = () => {
      timer = window.setTimeout(() => {
        element.src = '/media/banner.webm';
        element.play().catch(() => {
          // Autoplay refused (e.g. data saver): the poster stays, which is fine.
        });
      }, 1000);
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      window.clearTimeout(timer);
    };
  }, [reducedMotion]);

  const goTo = useCallback((index: number) => emblaApi?.scrollTo(index), [emblaApi]);

  return (
    <section aria-roledescription="carrossel" aria-label="Destaques" className="relative">
      <div ref={emblaRef} className="overflow-hidden">
        <div className="flex">
          {/* biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern names each slide as a group. */}
          <div
            className="min-w-0 flex-[0_0_100%]"
            role="group"
            aria-roledescription="slide"
            aria-label={`1 de ${SLIDES.length}`}
          >
            <video
              className="aspect-[16/7] w-full bg-stone-900 object-cover"
              width={960}
              height={420}
              ref={video}
              muted
              loop
              playsInline
              preload="none"
              poster="/media/banner-poster.svg"
              aria-label={SLIDES[0]}
            />
          </div>
          {/* biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern names each slide as a group. */}
          <div
            className="min-w-0 flex-[0_0_100%]"
            role="group"
            aria-roledescription="slide"
            aria-label={`2 de ${SLIDES.length}`}
          >
            <img
              src="/media/banner-colecao.svg"
              alt="Nova coleção Passada: roupas de corrida feitas para o calor do Nordeste"
              width={960}
              height={420}
              loading="lazy"
              className="aspect-[16/7] w-full bg-brand-700 object-cover"
            />
          </div>
        </div>
      </div>
      <div className="absolute bottom-2 left-0 right-0 flex justify-center gap-1">
        {SLIDES.map((label, i) => (
          <button
            key={label}
            type="button"
            aria-label={`Ir para o slide ${i + 1}`}
            aria-current={selected === i}
            onClick={() => goTo(i)}
            className="flex h-8 w-8 items-center justify-center"
          >
            <span
              aria-hidden="true"
              className={`block h-3 w-3 rounded-full border-2 border-white ${selected === i ? 'bg-white' : 'bg-white/30'}`}
            />
          </button>
        ))}
      </div>
    </section>
  );
}
