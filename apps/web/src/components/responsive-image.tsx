import { imageSources } from '@passada/core/images';
import type { ComponentPropsWithRef } from 'react';

type ResponsiveImageProps = ComponentPropsWithRef<'img'> & {
  src: string;
  /** The displayed width for each layout (the `sizes` attribute), so the phone fetches the copy it needs. */
  sizes: string;
};

/**
 * A product or event image with its AVIF and WebP copies (`<picture>` with `srcset`): a generated
 * drawing has them at 200/400/800 px, an uploaded photo at 400/800/1200 px (@passada/core/images). Any
 * other address is a plain `<img>`. Always give `width` and `height` so the layout does not move.
 */
export function ResponsiveImage({ src, sizes, ...img }: ResponsiveImageProps) {
  const sources = imageSources(src);
  if (!sources) return <img src={src} {...img} alt={img.alt} />;
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avif} sizes={sizes} />
      <source type="image/webp" srcSet={sources.webp} sizes={sizes} />
      <img src={src} {...img} alt={img.alt} />
    </picture>
  );
}
