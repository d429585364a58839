/**
 * What a product picture is drawn from: the garment kind, the view and the colour, and the shape of a
 * drawing (product-drawings-*.ts draw each kind, product-svg.ts renders them, product-images.ts names them).
 */

export const garmentKinds = [
  'camiseta',
  'babylook',
  'manga-longa',
  'manga-longa-polegar',
  'regata',
  'regata-tela',
  'regata-cavada',
  'top',
  'top-nadador',
  'shorts',
  'shorts-split',
  'shorts-duplo',
  'bermuda',
  'legging',
  'jaqueta',
  'jaqueta-capuz',
  'bone',
  'trucker',
  'viseira',
  'meia',
  'meia-alta',
  'pochete',
  'squeeze',
  'garrafa-termica',
] as const;
export type GarmentKind = (typeof garmentKinds)[number];

export const imageViews = ['frente', 'costas'] as const;
export type ImageView = (typeof imageViews)[number];

/** The colours the demo catalogue uses; the seed writes them to the colours table. */
export const palette = {
  preto: { name: 'Preto', hex: '#1c1f24' },
  branco: { name: 'Branco', hex: '#f4f4f0' },
  'azul-marinho': { name: 'Azul-marinho', hex: '#1b2a4a' },
  coral: { name: 'Coral', hex: '#ff6b57' },
  'verde-limao': { name: 'Verde-limão', hex: '#b5e32e' },
  'amarelo-sol': { name: 'Amarelo-sol', hex: '#f7b801' },
  'cinza-mescla': { name: 'Cinza-mescla', hex: '#8a8f98' },
  vinho: { name: 'Vinho', hex: '#7a1f3d' },
  'azul-ceu': { name: 'Azul-céu', hex: '#4fa3e0' },
  'rosa-chiclete': { name: 'Rosa-chiclete', hex: '#ec5fa0' },
  'verde-mar': { name: 'Verde-mar', hex: '#14917f' },
  'laranja-caju': { name: 'Laranja-caju', hex: '#f0802a' },
  lilas: { name: 'Lilás', hex: '#a58bd6' },
  areia: { name: 'Areia', hex: '#d8c6a3' },
} as const;
export type PaletteColor = keyof typeof palette;

export function isPaletteColor(value: string): value is PaletteColor {
  return Object.hasOwn(palette, value);
}

export interface Drawing {
  /** The garment outline, filled with the colour and shaded. */
  body: string;
  /** Seams and trims drawn over it, stroked with a darker shade. */
  details: string[];
  /** Darker filled parts (waistbands, cuffs, caps). */
  trims?: string[];
  /** Contrasting panels (side panels, compression zones), in a lighter or darker tone of the colour. */
  accents?: string[];
  /** Mesh parts (a trucker cap's sides), drawn as a light net. */
  mesh?: string[];
  /** Where the cloth folds: soft shadows with a highlight beside them. */
  folds?: string[];
  /** Reflective trims (zips, bands), in silver. */
  reflective?: string[];
  /** Openings the backdrop shows through (thumb holes). */
  holes?: string[];
  /** A perforated ("furadinho") knit over the whole piece. */
  perforated?: boolean;
  /** Where the brand mark goes on this view, or null for none. */
  mark: { x: number; y: number; scale: number } | null;
  /** Where "PASSADA" is written (backs of apparel), or null. */
  word?: { x: number; y: number; size: number } | null;
}
