import { createHash } from 'node:crypto';
import type { RasterFormat } from '@passada/core/images';
import { escapeXml } from '@passada/core/text';
import sharp from 'sharp';

/**
 * Product pictures drawn as SVG from three facts: the garment kind, the view and the colour. There is no
 * photo shoot (and no internet at install time), so the demo catalogue's images are generated; the URL
 * carries those facts plus a hash of the drawing, so the same URL always means the same bytes and can be
 * cached for a year (see catalog.routes.ts).
 */

export const garmentKinds = [
  'camiseta',
  'regata',
  'top',
  'shorts',
  'legging',
  'jaqueta',
  'bone',
  'viseira',
  'meia',
  'pochete',
  'squeeze',
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

const kindLabels: Record<GarmentKind, string> = {
  camiseta: 'Camiseta',
  regata: 'Regata',
  top: 'Top',
  shorts: 'Shorts',
  legging: 'Legging',
  jaqueta: 'Jaqueta corta-vento',
  bone: 'Boné',
  viseira: 'Viseira',
  meia: 'Meia',
  pochete: 'Pochete',
  squeeze: 'Squeeze',
};

export const IMAGE_WIDTH = 400;
export const IMAGE_HEIGHT = 480;

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Mixes `hex` toward black (amount < 0) or white (amount > 0). */
function tint(hex: string, amount: number): string {
  const target = amount < 0 ? 0 : 255;
  const a = Math.abs(amount);
  return `#${hexToRgb(hex)
    .map((c) => Math.round(c + (target - c) * a))
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;
}

function isLight(hex: string): boolean {
  const [r, g, b] = hexToRgb(hex);
  return 0.299 * r + 0.587 * g + 0.114 * b > 160;
}

interface Drawing {
  /** The garment outline, filled with the colour and shaded. */
  body: string;
  /** Seams and trims drawn over it, stroked with a darker shade. */
  details: string[];
  /** Darker filled parts (waistbands, cuffs, caps). */
  trims?: string[];
  /** Where the brand mark goes on this view, or null for none. */
  mark: { x: number; y: number; scale: number } | null;
  /** Where "PASSADA" is written (backs of apparel), or null. */
  word?: { x: number; y: number; size: number } | null;
}

function drawing(kind: GarmentKind, view: ImageView): Drawing {
  const front = view === 'frente';
  switch (kind) {
    case 'camiseta': {
      const neck = front ? 'Q200 100 230 62' : 'Q200 76 230 62';
      return {
        body: `M140 72L170 62${neck}L260 72L335 118L306 178L270 160L272 420L128 420L130 160L94 178L65 118Z`,
        details: [
          'M130 160Q136 112 142 74',
          'M270 160Q264 112 258 74',
          'M132 406L268 406',
          `M170 62${front ? 'Q200 112 230 62' : 'Q200 88 230 62'}`,
        ],
        mark: front ? { x: 222, y: 140, scale: 1 } : null,
        word: front ? null : { x: 200, y: 170, size: 26 },
      };
    }
    case 'regata': {
      const neck = front ? 'Q200 128 228 62' : 'Q200 86 228 62';
      return {
        body: `M148 62L172 62${neck}L252 62Q258 128 288 156L290 420L110 420L112 156Q142 128 148 62Z`,
        details: ['M112 156Q142 128 148 62', 'M288 156Q258 128 252 62', 'M114 406L286 406'],
        mark: front ? { x: 220, y: 178, scale: 1 } : null,
        word: front ? null : { x: 200, y: 180, size: 24 },
      };
    }
    case 'top': {
      return {
        body: front
          ? 'M146 70L172 70Q200 150 228 70L254 70Q262 160 292 214L290 300L110 300L108 214Q138 160 146 70Z'
          : 'M146 70L172 70L200 170L228 70L254 70Q262 160 292 214L290 300L110 300L108 214Q138 160 146 70Z',
        trims: ['M110 262L290 262L290 300L110 300Z'],
        details: front ? ['M134 200Q200 232 266 200'] : ['M200 170L200 262', 'M172 70L200 170L228 70'],
        mark: front ? { x: 186, y: 270, scale: 0.8 } : null,
        word: null,
      };
    }
    case 'shorts':
      return {
        body: 'M118 118L282 118L304 362L214 376L200 226L186 376L96 362Z',
        trims: ['M118 118L282 118L285 152L115 152Z'],
        details: front
          ? ['M190 152L188 128', 'M210 152L212 128', 'M120 350L134 318L140 352', 'M280 350L266 318L260 352']
          : ['M200 152L200 226', 'M140 190L186 190L182 236L144 236Z'],
        mark: front ? { x: 250, y: 320, scale: 0.8 } : null,
        word: null,
      };
    case 'legging':
      return {
        body: 'M138 58L262 58L276 444L222 444L204 170L196 170L178 444L124 444Z',
        trims: ['M138 58L262 58L264 96L136 96Z'],
        details: front
          ? ['M133 250L190 250', 'M210 250L270 250', 'M130 96L124 444']
          : ['M200 96L200 170', 'M146 130Q200 150 254 130', 'M270 96L276 444'],
        mark: front ? { x: 230, y: 390, scale: 0.7 } : null,
        word: null,
      };
    case 'jaqueta':
      return {
        body: 'M142 74L170 56Q200 40 230 56L258 74L308 104L346 384L306 394L272 206L272 424L128 424L128 206L94 394L54 384L92 104Z',
        trims: [
          'M170 56Q200 26 230 56Q200 70 170 56Z',
          'M54 384L94 394L92 372L58 362Z',
          'M346 384L306 394L308 372L342 362Z',
        ],
        details: front
          ? [
              'M200 62L200 424',
              'M128 206Q134 140 142 74',
              'M272 206Q266 140 258 74',
              'M144 300L178 300',
              'M222 300L256 300',
            ]
          : ['M128 206Q134 140 142 74', 'M272 206Q266 140 258 74', 'M128 250L272 250'],
        mark: front ? { x: 222, y: 140, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 180, size: 26 },
      };
    case 'bone':
      return {
        body: front
          ? 'M110 270Q108 140 220 132Q322 132 330 270Z'
          : 'M110 270Q108 140 220 132Q322 132 330 270L250 270Q220 226 190 270Z',
        trims: front
          ? ['M110 270Q50 276 36 306Q150 318 250 276Z']
          : ['M190 270Q220 226 250 270L244 270Q220 238 196 270Z'],
        details: ['M220 132L220 270', 'M220 132Q170 180 160 270', 'M220 132Q276 180 290 270'],
        mark: front ? { x: 150, y: 200, scale: 1 } : null,
        word: null,
      };
    case 'viseira':
      return {
        body: 'M104 262Q200 170 296 262L296 288Q200 204 104 288Z',
        trims: front
          ? ['M104 288Q200 204 296 288Q320 330 200 346Q80 330 104 288Z']
          : ['M170 222L230 222L230 238L170 238Z'],
        details: front ? ['M120 300Q200 248 280 300'] : ['M104 262Q200 170 296 262'],
        mark: front ? { x: 186, y: 300, scale: 0.8 } : null,
        word: null,
      };
    case 'meia':
      return {
        body: 'M168 58L248 58L250 292Q252 324 284 342L332 370Q364 392 346 426Q334 446 300 440L196 420Q158 410 164 368Z',
        trims: [
          'M166 58L248 58L248 96L166 96Z',
          'M300 440Q334 446 346 426Q364 392 332 370L306 356Q326 396 300 440Z',
        ],
        details: front
          ? ['M166 110L248 110', 'M166 124L248 124', 'M164 368Q196 360 214 384']
          : ['M166 110L248 110', 'M196 420Q226 392 252 300'],
        mark: front ? { x: 190, y: 180, scale: 0.8 } : null,
        word: null,
      };
    case 'pochete':
      return {
        body: 'M118 214Q118 196 138 196L262 196Q282 196 282 214L290 300Q290 330 260 330L140 330Q110 330 110 300Z',
        trims: front
          ? [
              'M20 236L110 232L110 250L20 254Z',
              'M290 232L380 236L380 254L290 250Z',
              'M360 230L384 230L384 260L360 260Z',
            ]
          : ['M20 236L380 236L380 254L20 254Z'],
        details: front
          ? ['M126 226Q200 212 274 226', 'M150 290L250 290']
          : ['M130 270L270 270', 'M130 290L270 290', 'M130 310L270 310'],
        mark: front ? { x: 186, y: 250, scale: 0.9 } : null,
        word: null,
      };
    case 'squeeze':
      return {
        body: 'M156 150Q150 132 170 128L230 128Q250 132 244 150L252 420Q252 440 232 440L168 440Q148 440 148 420Z',
        trims: ['M166 92L234 92L236 130L164 130Z', 'M190 58L210 58L212 92L188 92Z'],
        details: front
          ? ['M150 230L250 230', 'M150 330L250 330']
          : ['M230 200L244 200', 'M230 260L244 260', 'M230 320L244 320', 'M230 380L244 380'],
        mark: front ? { x: 182, y: 266, scale: 1 } : null,
        word: null,
      };
  }
}

/** The SVG of `kind` in `color`, seen from `view`. A few KB, fixed size, with a <title> for screen readers. */
export function renderProductSvg(kind: GarmentKind, view: ImageView, color: PaletteColor): string {
  const { name, hex } = palette[color];
  const d = drawing(kind, view);
  const dark = tint(hex, -0.35);
  const ink = isLight(hex) ? '#1b2a4a' : '#ffffff';
  const title = `${kindLabels[kind]} Passada, ${view === 'frente' ? 'frente' : 'costas'}, cor ${name}`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    '<defs>',
    '<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f7f3ec"/><stop offset="1" stop-color="#e4ddd0"/></linearGradient>',
    '<linearGradient id="sh" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff" stop-opacity=".28"/><stop offset=".55" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".3"/></linearGradient>',
    `<path id="g" d="${d.body}"/>`,
    '</defs>',
    `<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#bg)"/>`,
    '<ellipse cx="200" cy="456" rx="150" ry="12" fill="#000" opacity=".1"/>',
    `<use href="#g" fill="${hex}" stroke="${dark}" stroke-width="3" stroke-linejoin="round"/>`,
  ];
  for (const trim of d.trims ?? []) parts.push(`<path d="${trim}" fill="${dark}"/>`);
  parts.push('<use href="#g" fill="url(#sh)"/>');
  if (d.details.length) {
    parts.push(
      `<path d="${d.details.join('')}" fill="none" stroke="${dark}" stroke-width="2.5" stroke-dasharray="6 4" stroke-linecap="round"/>`,
    );
  }
  if (d.mark) {
    const { x, y, scale } = d.mark;
    // The brand mark: three slanted strides.
    parts.push(
      `<g transform="translate(${x} ${y}) scale(${scale})" fill="${ink}"><path d="M0 20L10 0L16 0L6 20Z"/><path d="M12 20L22 0L28 0L18 20Z"/><path d="M24 20L34 0L40 0L30 20Z"/></g>`,
    );
  }
  if (d.word) {
    const { x, y, size } = d.word;
    parts.push(
      `<text x="${x}" y="${y}" fill="${ink}" font-family="system-ui,sans-serif" font-size="${size}" font-weight="800" letter-spacing="3" text-anchor="middle">PASSADA</text>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}

const MEDIA_PREFIX = '/api/media/products/';
const FILE_PATTERN =
  /^([a-z]+)-(frente|costas)-([a-z-]+)\.([0-9a-f]{10})(?:\.svg|-(200|400|800)\.(webp|avif))$/;

export interface ProductImage {
  svg: string;
  hash: string;
  url: string;
}

const cache = new Map<string, ProductImage>();

/** The drawing with its content-hashed URL; memoised, as there are only a few hundred possible. */
export function productImage(kind: GarmentKind, view: ImageView, color: PaletteColor): ProductImage {
  const key = `${kind}-${view}-${color}`;
  let image = cache.get(key);
  if (!image) {
    const svg = renderProductSvg(kind, view, color);
    const hash = createHash('sha256').update(svg).digest('hex').slice(0, 10);
    image = { svg, hash, url: `${MEDIA_PREFIX}${key}.${hash}.svg` };
    cache.set(key, image);
  }
  return image;
}

/**
 * Reads a media file name back into the drawing it names, or null when it names none: the SVG
 * itself, or one of its raster copies (`raster`, widths DRAWING_WIDTHS of @passada/core/images).
 */
export function parseImageFileName(file: string): {
  kind: GarmentKind;
  view: ImageView;
  color: PaletteColor;
  hash: string;
  raster?: { width: number; format: RasterFormat };
} | null {
  const m = FILE_PATTERN.exec(file);
  if (!m) return null;
  const [, kind, view, color, hash, width, format] = m;
  if (!kind || !view || !color || !hash) return null;
  if (!(garmentKinds as readonly string[]).includes(kind) || !isPaletteColor(color)) return null;
  const raster = width && format ? { width: Number(width), format: format as RasterFormat } : undefined;
  return { kind: kind as GarmentKind, view: view as ImageView, color, hash, ...(raster ? { raster } : {}) };
}

/** Raster copies already drawn, oldest first; bounded, as each is a few kilobytes. */
const rasterCache = new Map<string, Buffer>();
const RASTER_CACHE_ENTRIES = 500;

/**
 * A WebP or AVIF copy of a drawing at one width, for phones that would rather not draw SVG: made with
 * sharp on first request and kept (the address carries the drawing's hash, so it never changes).
 */
export async function productImageRaster(
  image: ProductImage,
  width: number,
  format: RasterFormat,
): Promise<Buffer> {
  const key = `${image.url}-${width}.${format}`;
  const cached = rasterCache.get(key);
  if (cached) return cached;
  // The drawing is IMAGE_WIDTH wide at 72 dpi: a matching density draws it sharp at the asked width.
  const drawn = sharp(Buffer.from(image.svg), { density: (72 * width) / IMAGE_WIDTH }).resize(width);
  const buffer = await (format === 'avif'
    ? drawn.avif({ quality: 55, effort: 2 })
    : drawn.webp({ quality: 82 })
  ).toBuffer();
  rasterCache.set(key, buffer);
  if (rasterCache.size > RASTER_CACHE_ENTRIES) rasterCache.delete(rasterCache.keys().next().value!);
  return buffer;
}
