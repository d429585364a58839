import { describe, expect, it } from 'vitest';
import { imagePreloadLink, imageSources } from './images.ts';

describe('imageSources', () => {
  it('lists the raster copies of a generated drawing at 200, 400 and 800 px', () => {
    const sources = imageSources('/api/media/products/top-frente-coral.3eea8216a3.svg');
    expect(sources?.webp).toBe(
      '/api/media/products/top-frente-coral.3eea8216a3-200.webp 200w, /api/media/products/top-frente-coral.3eea8216a3-400.webp 400w, /api/media/products/top-frente-coral.3eea8216a3-800.webp 800w',
    );
    expect(sources?.avif).toContain('/api/media/products/top-frente-coral.3eea8216a3-800.avif 800w');
  });

  it('reads garment names of more than one word', () => {
    expect(imageSources('/api/media/products/manga-longa-costas-azul-ceu.0123456789.svg')?.webp).toContain(
      '/api/media/products/manga-longa-costas-azul-ceu.0123456789-400.webp 400w',
    );
  });

  it('lists the stored sizes of an uploaded photo', () => {
    const sources = imageSources('/api/media/uploads/produtos/abcdefghij0123456789-800.webp');
    expect(sources?.avif).toBe(
      '/api/media/uploads/produtos/abcdefghij0123456789-400.avif 400w, /api/media/uploads/produtos/abcdefghij0123456789-800.avif 800w, /api/media/uploads/produtos/abcdefghij0123456789-1200.avif 1200w',
    );
  });

  it('has nothing for other addresses', () => {
    expect(imageSources('/media/banner-poster.svg')).toBeNull();
    expect(imageSources('https://example.com/a.svg')).toBeNull();
  });
});

describe('imagePreloadLink', () => {
  it("preloads a drawing's AVIF copies at the displayed sizes, with high priority", () => {
    const link = imagePreloadLink(
      '/api/media/products/top-frente-coral.3eea8216a3.svg',
      '(min-width: 1024px) 220px, 50vw',
    );
    expect(link).toBe(
      `<link rel="preload" as="image" href="/api/media/products/top-frente-coral.3eea8216a3.svg" imagesrcset="${imageSources('/api/media/products/top-frente-coral.3eea8216a3.svg')?.avif}" imagesizes="(min-width: 1024px) 220px, 50vw" type="image/avif" fetchpriority="high">`,
    );
  });

  it('preloads the file itself without sizes (a plain image) or without copies, escaping the address', () => {
    expect(imagePreloadLink('/api/media/products/top-frente-coral.3eea8216a3.svg')).toBe(
      '<link rel="preload" as="image" href="/api/media/products/top-frente-coral.3eea8216a3.svg" fetchpriority="high">',
    );
    expect(imagePreloadLink('/media/a"b.svg', '100vw')).toBe(
      '<link rel="preload" as="image" href="/media/a&quot;b.svg" fetchpriority="high">',
    );
  });
});
