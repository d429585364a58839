import type { HomeBanner } from '@passada/core/contracts/catalog';
import type { EmblaCarouselType } from 'embla-carousel';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ResponsiveImage } from '../../../components/responsive-image.tsx';
import { useHydrated } from '../../../lib/hydration.ts';

/** Spec §9: the banner advances every 15000 ms. */
export const BANNER_AUTOPLAY_MS = 15_000;

const VIDEO_LABEL = 'Vídeo: Passada, corra o Nordeste. Ver as corridas';
/** Where the brand video leads; the banners after it lead where staff set them (docs/decisions/0034). */
const VIDEO_LINK = '/eventos';

const slideClass = 'block aspect-[16/7] w-full object-cover';

/** A banner's link: a path of the shop goes through the router, an https address leaves the shop. */
function BannerLink({ to, label, children }: { to: string; label?: string; children: ReactNode }) {
  return to.startsWith('/') ? (
    <Link to={to} aria-label={label} className="block">
      {children}
    </Link>
  ) : (
    <a href={to} aria-label={label} rel="noopener" className="block">
      {children}
    </a>
  );
}

/** The first slide's picture until its video plays: the largest thing the home page paints. */
export const HOME_BANNER_POSTER = '/media/banner-poster.svg';

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The visitor asked the browser to spare data (Chrome's Data Saver, "Save-Data"). */
function savesData(): boolean {
  return (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
}

/**
 * Home banner: the brand video, then the banners staff edit in the back office (image, text, link),
 * infinite loop, autoplay, dots (spec §2). The first slide is
 * plain markup (the server renders it too); the carousel library is only loaded when the banner
 * first has to move (the first autoplay step, a dot, a touch or the keyboard), so it is not part of
 * the JavaScript the home page needs to show up.
 */
export function BannerSlider({ banners }: { banners: HomeBanner[] }) {
  const count = banners.length + 1;
  const viewport = useRef<HTMLDivElement>(null);
  const carousel = useRef<Promise<EmblaCarouselType | null> | null>(null);
  const [selected, setSelected] = useState(0);
  const hydrated = useHydrated();

  const start = useCallback((): Promise<EmblaCarouselType | null> => {
    carousel.current ??= Promise.all([import('embla-carousel'), import('embla-carousel-autoplay')]).then(
      ([{ default: EmblaCarousel }, { default: Autoplay }]) => {
        const element = viewport.current;
        if (!element) return null;
        // People who ask the system for reduced motion get a still banner: the dots still change slides.
        const plugins = prefersReducedMotion()
          ? []
          : [Autoplay({ delay: BANNER_AUTOPLAY_MS, stopOnInteraction: false })];
        const api = EmblaCarousel(element, { loop: true }, plugins);
        api.on('select', () => setSelected(api.selectedScrollSnap()));
        return api;
      },
    );
    return carousel.current;
  }, []);

  // Without reduced motion the first autoplay step loads the carousel and moves it on.
  useEffect(() => {
    if (prefersReducedMotion()) return;
    const timer = window.setTimeout(() => {
      start().then((api) => api?.scrollNext());
    }, BANNER_AUTOPLAY_MS);
    return () => window.clearTimeout(timer);
  }, [start]);

  useEffect(
    () => () => {
      carousel.current?.then((api) => api?.destroy());
      carousel.current = null;
    },
    [],
  );

  // The video starts after the page has loaded: its bytes must not compete with the code, the
  // products and their images on a slow connection (the poster shows meanwhile). People who ask
  // for reduced motion or to save data keep the poster.
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = video.current;
    if (!element || prefersReducedMotion() || savesData()) return;
    let timer: number | undefined;
    const play = () => {
      timer = window.setTimeout(() => {
        element.src = '/media/banner.webm';
        element.play().catch(() => {
          // Autoplay refused (e.g. data saver): the poster stays, which is fine.
        });
      }, 1000);
    };
    if (document.readyState === 'complete') play();
    else window.addEventListener('load', play, { once: true });
    return () => {
      window.removeEventListener('load', play);
      window.clearTimeout(timer);
    };
  }, []);

  const goTo = useCallback(
    (index: number) => {
      start().then((api) => api?.scrollTo(index));
    },
    [start],
  );

  return (
    <section
      aria-roledescription="carrossel"
      aria-label="Destaques"
      className="relative"
      onPointerDown={() => void start()}
      onFocus={() => void start()}
    >
      <div ref={viewport} className="overflow-hidden">
        <div className="flex">
          {/* biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern names each slide as a group. */}
          <div
            className="min-w-0 flex-[0_0_100%]"
            role="group"
            aria-roledescription="slide"
            aria-label={`1 de ${count}`}
          >
            <BannerLink to={VIDEO_LINK} label={VIDEO_LABEL}>
              <video
                className={`${slideClass} bg-stone-900`}
                width={960}
                height={420}
                ref={video}
                muted
                loop
                playsInline
                preload="none"
                poster={HOME_BANNER_POSTER}
                aria-label={VIDEO_LABEL}
              />
            </BannerLink>
          </div>
          {banners.map((banner, i) => (
            // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern names each slide as a group.
            <div
              key={`${banner.imagem} ${banner.link} ${banner.texto}`}
              className="min-w-0 flex-[0_0_100%]"
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 2} de ${count}`}
            >
              <BannerLink to={banner.link}>
                <ResponsiveImage
                  src={banner.imagem}
                  sizes="100vw"
                  alt={banner.texto}
                  width={960}
                  height={420}
                  loading="lazy"
                  className={`${slideClass} bg-brand-700`}
                />
              </BannerLink>
            </div>
          ))}
        </div>
      </div>
      <div className="absolute bottom-2 left-0 right-0 flex justify-center gap-1">
        {Array.from({ length: count }, (_, i) => `slide-${i}`).map((key, i) => (
          <button
            key={key}
            type="button"
            aria-label={`Ir para o slide ${i + 1}`}
            aria-current={selected === i}
            // Until the app has taken the page over, a tap would be lost.
            disabled={!hydrated}
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
