import { describe, expect, it } from 'vitest';
import type { ProductPhoto } from './contracts/catalog.ts';
import { photosForColor } from './product-photos.ts';

const drawing = (url: string): ProductPhoto => ({ url, alt: '', color_id: null });
const images = [
  drawing('/api/media/products/camiseta-frente-azul-marinho.0123456789.svg'),
  drawing('/api/media/products/camiseta-costas-azul-marinho.1234567890.svg'),
  drawing('/api/media/products/camiseta-frente-verde-limao.2345678901.svg'),
  drawing('/api/media/products/camiseta-frente-azul-ceu.3456789012.svg'),
];
const navy = { id: 1, name: 'Azul-marinho' };
const lime = { id: 2, name: 'Verde-limão' };
const sky = { id: 3, name: 'Azul-céu' };
const black = { id: 4, name: 'Preto' };
const colors = [navy, lime, sky];

describe('photosForColor', () => {
  it("keeps only the chosen colour's pictures, accents and case aside", () => {
    expect(photosForColor(images, navy, colors)).toEqual(images.slice(0, 2));
    expect(photosForColor(images, lime, colors)).toEqual([images[2]]);
    expect(photosForColor(images, sky, colors)).toEqual([images[3]]);
  });

  it('shows every picture before a colour is chosen or when none shows it', () => {
    expect(photosForColor(images, null, colors)).toEqual(images);
    const photos = [drawing('/fotos/1.jpg'), drawing('/fotos/2.jpg')];
    expect(photosForColor(photos, black, [black])).toEqual(photos);
  });

  it("puts the photos staff gave the colour first, then those of no colour, and leaves the others' out", () => {
    const detail = { url: '/api/media/uploads/produtos/a-800.webp', alt: 'Etiqueta', color_id: null };
    const limePhoto = {
      url: '/api/media/uploads/produtos/b-800.webp',
      alt: 'Verde de frente',
      color_id: lime.id,
    };
    const navyPhoto = {
      url: '/api/media/uploads/produtos/c-800.webp',
      alt: 'Azul de frente',
      color_id: navy.id,
    };
    const photos = [detail, navyPhoto, limePhoto, ...images];
    expect(photosForColor(photos, lime, colors)).toEqual([limePhoto, images[2], detail]);
    expect(photosForColor(photos, navy, colors)).toEqual([navyPhoto, images[0], images[1], detail]);
  });
});
