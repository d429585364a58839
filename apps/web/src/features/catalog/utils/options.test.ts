import { describe, expect, it } from 'vitest';
import { imagesForColor } from './options.ts';

const images = [
  '/api/media/products/camiseta-frente-azul-marinho.0123456789.svg',
  '/api/media/products/camiseta-costas-azul-marinho.1234567890.svg',
  '/api/media/products/camiseta-frente-verde-limao.2345678901.svg',
  '/api/media/products/camiseta-frente-azul-ceu.3456789012.svg',
];

describe('imagesForColor', () => {
  it("keeps only the chosen colour's pictures, accents and case aside", () => {
    expect(imagesForColor(images, 'Azul-marinho')).toEqual(images.slice(0, 2));
    expect(imagesForColor(images, 'Verde-limão')).toEqual([images[2]]);
    expect(imagesForColor(images, 'Azul-céu')).toEqual([images[3]]);
  });

  it('shows every picture before a colour is chosen or when none names it', () => {
    expect(imagesForColor(images, null)).toEqual(images);
    expect(imagesForColor(['/fotos/1.jpg', '/fotos/2.jpg'], 'Preto')).toEqual([
      '/fotos/1.jpg',
      '/fotos/2.jpg',
    ]);
  });
});
