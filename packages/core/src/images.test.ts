import { describe, expect, it } from 'vitest';
import { imageSources } from './images.ts';

describe('imageSources', () => {
  it('lists the raster copies of a generated drawing at 200, 400 and 800 px', () => {
    const sources = imageSources('/api/media/products/top-frente-coral.3eea8216a3.svg');
    expect(sources?.webp).toBe(
      '/api/media/products/top-frente-coral.3eea8216a3-200.webp 200w, /api/media/products/top-frente-coral.3eea8216a3-400.webp 400w, /api/media/products/top-frente-coral.3eea8216a3-800.webp 800w',
    );
    expect(sources?.avif).toContain('/api/media/products/top-frente-coral.3eea8216a3-800.avif 800w');
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
