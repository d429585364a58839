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

const kindLabels: Record<GarmentKind, string> = {
  camiseta: 'Camiseta',
  babylook: 'Camiseta baby look',
  'manga-longa': 'Camiseta manga longa',
  'manga-longa-polegar': 'Camiseta manga longa com furo para o polegar',
  regata: 'Regata',
  'regata-tela': 'Regata com tela nas costas',
  'regata-cavada': 'Regata cavada',
  top: 'Top',
  'top-nadador': 'Top nadador',
  shorts: 'Shorts',
  'shorts-split': 'Shorts split',
  'shorts-duplo': 'Shorts duplo',
  bermuda: 'Bermuda de compressão',
  legging: 'Legging',
  jaqueta: 'Jaqueta corta-vento',
  'jaqueta-capuz': 'Corta-vento com capuz',
  bone: 'Boné',
  trucker: 'Boné trucker',
  viseira: 'Viseira',
  meia: 'Meia',
  'meia-alta': 'Meia de compressão cano alto',
  pochete: 'Pochete',
  squeeze: 'Squeeze',
  'garrafa-termica': 'Garrafa térmica',
};

/** Square, like the shop's picture boxes (cards, gallery, thumbnails), so no box shows bands beside it. */
export const IMAGE_WIDTH = 480;
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

function drawing(kind: GarmentKind, view: ImageView): Drawing {
  const front = view === 'frente';
  switch (kind) {
    case 'camiseta': {
      const neck = front ? 'Q200 100 230 62' : 'Q200 76 230 62';
      return {
        body: `M140 72L170 62${neck}L260 72L335 118L306 178L274 160L278 372L122 372L126 160L94 178L65 118Z`,
        details: [
          'M126 160Q134 112 142 74',
          'M274 160Q266 112 258 74',
          'M124 358L276 358',
          `M170 62${front ? 'Q200 112 230 62' : 'Q200 88 230 62'}`,
        ],
        mark: front ? { x: 222, y: 140, scale: 1 } : null,
        word: front ? null : { x: 200, y: 170, size: 26 },
      };
    }
    case 'babylook': {
      const neck = front ? 'Q200 118 232 66' : 'Q200 80 232 66';
      return {
        body: `M146 76L168 66${neck}L254 76L316 116L294 164L266 152Q258 220 272 290Q280 334 270 372L130 372Q120 334 128 290Q142 220 134 152L106 164L84 116Z`,
        details: [
          'M134 152Q140 112 146 78',
          'M266 152Q260 112 254 78',
          'M132 358Q200 366 268 358',
          `M168 66${front ? 'Q200 128 232 66' : 'Q200 90 232 66'}`,
        ],
        folds: ['M160 200Q172 290 160 356', 'M240 200Q230 290 244 356'],
        mark: front ? { x: 218, y: 150, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 176, size: 24 },
      };
    }
    case 'regata-tela': {
      const neck = front ? 'Q200 120 224 62' : 'Q200 86 224 62';
      return {
        body: `M156 62L176 62${neck}L244 62Q250 140 286 172L288 380L112 380L114 172Q150 140 156 62Z`,
        mesh: front ? [] : ['M150 124Q200 150 250 124L262 300Q200 320 138 300Z'],
        details: front
          ? ['M114 172Q150 140 156 62', 'M286 172Q250 140 244 62', 'M116 366L284 366']
          : ['M116 366L284 366'],
        mark: front ? { x: 216, y: 170, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 330, size: 22 },
      };
    }
    case 'regata-cavada': {
      const neck = front ? 'Q200 118 222 62' : 'Q200 84 222 62';
      return {
        body: `M160 62L178 62${neck}L240 62Q236 180 290 210L292 380L108 380L110 210Q164 180 160 62Z`,
        details: ['M110 210Q164 180 160 62', 'M290 210Q236 180 240 62', 'M112 366L288 366'],
        perforated: true,
        folds: ['M150 230Q164 300 156 366', 'M250 230Q238 300 250 366'],
        mark: front ? { x: 214, y: 200, scale: 1 } : null,
        word: front ? null : { x: 200, y: 200, size: 24 },
      };
    }
    case 'shorts-duplo':
      return {
        body: 'M118 118L282 118L304 362L214 376L200 226L186 376L96 362Z',
        trims: [
          'M118 118L282 118L285 152L115 152Z',
          'M100 368L184 380L182 404L106 396Z',
          'M300 368L216 380L218 404L294 396Z',
        ],
        details: front
          ? ['M194 152Q190 180 182 192', 'M206 152Q210 180 218 192', 'M98 356L186 370', 'M302 356L214 370']
          : ['M200 152L200 226', 'M146 176L190 176L188 204L148 204Z'],
        reflective: front ? [] : ['M150 188L186 188L186 191L150 191Z'],
        folds: ['M150 170Q140 260 132 340', 'M250 170Q260 260 268 340'],
        mark: front ? { x: 250, y: 320, scale: 0.8 } : null,
        word: null,
      };
    case 'jaqueta-capuz':
      return {
        body: 'M142 74L170 56Q200 40 230 56L258 74L308 104L346 384L306 394L272 206L272 424L128 424L128 206L94 394L54 384L92 104ZM156 74Q140 12 200 8Q260 12 244 74Q224 52 200 52Q176 52 156 74Z',
        trims: front
          ? [
              'M168 70Q170 34 200 32Q230 34 232 70Q216 58 200 58Q184 58 168 70Z',
              'M54 384L94 394L92 372L58 362Z',
              'M346 384L306 394L308 372L342 362Z',
            ]
          : ['M54 384L94 394L92 372L58 362Z', 'M346 384L306 394L308 372L342 362Z'],
        mesh: front ? [] : ['M132 150L268 150L268 186L132 186Z'],
        reflective: front ? ['M197 62L203 62L203 424L197 424Z'] : ['M132 300L268 300L268 306L132 306Z'],
        details: front
          ? ['M128 206Q134 140 142 74', 'M272 206Q266 140 258 74', 'M150 320L184 300', 'M250 320L216 300']
          : ['M128 206Q134 140 142 74', 'M272 206Q266 140 258 74', 'M200 20L200 60'],
        folds: [
          'M150 200Q166 310 156 410',
          'M250 200Q236 310 248 410',
          'M82 200Q74 290 68 370',
          'M318 200Q326 290 332 370',
        ],
        mark: front ? { x: 226, y: 150, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 240, size: 24 },
      };
    case 'garrafa-termica':
      return {
        body: 'M160 120Q160 104 176 104L224 104Q240 104 240 120L244 430Q244 446 228 446L172 446Q156 446 156 430Z',
        trims: [
          'M168 56L232 56L234 104L166 104Z',
          'M184 56Q184 28 200 28Q216 28 216 56L208 56Q208 38 200 38Q192 38 192 56Z',
        ],
        reflective: ['M157 396L243 396L243 406L157 406Z', 'M166 100L234 100L234 106L166 106Z'],
        details: front ? [] : ['M226 180L238 180', 'M226 240L238 240', 'M226 300L238 300'],
        folds: ['M178 130L176 430'],
        mark: front ? { x: 182, y: 250, scale: 0.95 } : null,
        word: null,
      };
    case 'manga-longa-polegar': {
      const neck = front ? 'Q200 118 232 66' : 'Q200 80 232 66';
      return {
        body: `M146 76L168 66${neck}L254 76L300 104L340 388L304 398L268 200Q258 250 272 310Q280 364 268 416L132 416Q120 364 128 310Q142 250 132 200L96 398L60 388L100 104Z`,
        trims: ['M60 388L96 398L92 428L62 420Z', 'M340 388L304 398L308 428L338 420Z'],
        holes: ['M70 410Q78 402 86 412Q78 418 70 410Z', 'M330 410Q322 402 314 412Q322 418 330 410Z'],
        details: [
          'M132 200Q138 140 146 78',
          'M268 200Q262 140 254 78',
          'M134 402Q200 410 266 402',
          `M168 66${front ? 'Q200 128 232 66' : 'Q200 90 232 66'}`,
        ],
        folds: [
          'M160 220Q172 310 160 400',
          'M240 220Q230 310 244 400',
          'M98 200Q90 290 80 370',
          'M302 200Q310 290 320 370',
        ],
        mark: front ? { x: 218, y: 150, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 176, size: 24 },
      };
    }
    case 'manga-longa': {
      const neck = front ? 'Q200 100 230 62' : 'Q200 76 230 62';
      return {
        body: `M140 72L170 62${neck}L260 72L306 104L344 380L306 392L272 204L272 420L128 420L128 204L94 392L56 380L94 104Z`,
        trims: ['M56 380L94 392L97 372L60 360Z', 'M344 380L306 392L303 372L340 360Z'],
        details: [
          'M128 204Q134 140 140 74',
          'M272 204Q266 140 260 74',
          'M130 406L270 406',
          `M170 62${front ? 'Q200 112 230 62' : 'Q200 88 230 62'}`,
        ],
        folds: [
          'M152 214Q166 310 156 404',
          'M248 214Q236 310 250 404',
          'M92 196Q84 280 74 356',
          'M308 196Q316 280 326 356',
        ],
        mark: front ? { x: 222, y: 140, scale: 1 } : null,
        word: front ? null : { x: 200, y: 170, size: 26 },
      };
    }
    case 'top-nadador':
      return {
        body: front
          ? 'M156 66L170 66Q200 168 230 66L244 66Q250 156 290 210L288 318L112 318L110 210Q150 156 156 66Z'
          : 'M150 66L174 66Q190 140 200 150Q210 140 226 66L250 66Q244 160 290 210L288 318L112 318L110 210Q156 160 150 66Z',
        trims: ['M112 284L288 284L288 318L112 318Z'],
        accents: [
          'M110 210Q150 156 156 66L163 66Q160 176 128 284L112 284Z',
          'M290 210Q250 156 244 66L237 66Q240 176 272 284L288 284Z',
        ],
        details: front ? ['M128 226Q200 256 272 226'] : ['M200 150L200 284'],
        folds: ['M150 240Q200 262 250 240'],
        mark: front ? { x: 216, y: 214, scale: 0.7 } : null,
        word: null,
      };
    case 'shorts-split':
      return {
        body: 'M122 118L278 118L300 320Q284 300 270 332L214 344L200 222L186 344L130 332Q116 300 100 320Z',
        trims: ['M122 118L278 118L281 150L119 150Z'],
        details: front
          ? ['M190 150L188 128', 'M210 150L212 128', 'M104 314Q118 294 132 326', 'M296 314Q282 294 268 326']
          : ['M200 150L200 222', 'M150 180L190 180L188 214L152 214Z'],
        folds: ['M150 170Q142 250 134 318', 'M250 170Q258 250 266 318'],
        mark: front ? { x: 238, y: 292, scale: 0.7 } : null,
        word: null,
      };
    case 'bermuda':
      return {
        body: 'M134 70L266 70L286 334L214 342L204 186L196 186L186 342L114 334Z',
        trims: [
          'M134 70L266 70L268 106L132 106Z',
          'M114 334L186 342L187 324L116 316Z',
          'M286 334L214 342L213 324L284 316Z',
        ],
        details: front
          ? ['M130 106L116 316', 'M270 106L284 316']
          : ['M200 106L200 186', 'M150 140Q200 158 250 140'],
        folds: ['M160 130Q150 230 150 314', 'M240 130Q250 230 250 314'],
        mark: front ? { x: 232, y: 284, scale: 0.7 } : null,
        word: null,
      };
    case 'trucker':
      return {
        body: front
          ? 'M110 270Q108 140 220 132Q322 132 330 270Z'
          : 'M110 270Q108 140 220 132Q322 132 330 270L250 270Q220 226 190 270Z',
        mesh: front
          ? ['M110 270Q108 172 168 146Q150 204 156 270Z', 'M330 270Q326 172 272 146Q290 204 284 270Z']
          : ['M110 270Q108 140 220 132Q322 132 330 270L250 270Q220 226 190 270Z'],
        trims: front
          ? ['M110 270Q50 276 36 306Q150 318 250 276Z', 'M212 134Q220 126 228 134Z']
          : ['M186 256L254 256L254 270L186 270Z', 'M212 134Q220 126 228 134Z'],
        details: front ? ['M156 270Q150 204 168 146', 'M284 270Q290 204 272 146'] : ['M220 132L220 232'],
        folds: front ? ['M200 170Q214 220 210 262'] : [],
        mark: front ? { x: 200, y: 196, scale: 1.1 } : null,
        word: null,
      };
    case 'meia-alta':
      return {
        body: 'M170 24L246 24L248 300Q250 330 282 348L330 376Q362 398 344 430Q332 450 298 444L196 424Q158 414 164 372Z',
        trims: [
          'M168 24L246 24L246 58L168 58Z',
          'M298 444Q332 450 344 430Q362 398 330 376L304 362Q324 402 298 444Z',
        ],
        accents: [
          'M167 150L248 150L248 164L166 164Z',
          'M166 212L248 212L248 226L165 226Z',
          'M165 274L248 274L248 288L165 288Z',
        ],
        details: front
          ? ['M168 72L246 72', 'M164 372Q196 364 214 388']
          : ['M168 72L246 72', 'M196 424Q226 396 252 304'],
        folds: ['M190 90Q198 220 190 340'],
        mark: front ? { x: 190, y: 100, scale: 0.8 } : null,
        word: null,
      };
    case 'regata': {
      const neck = front ? 'Q200 128 228 62' : 'Q200 86 228 62';
      return {
        body: `M148 62L172 62${neck}L252 62Q258 128 288 156L290 380L110 380L112 156Q142 128 148 62Z`,
        details: ['M112 156Q142 128 148 62', 'M288 156Q258 128 252 62', 'M114 366L286 366'],
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

/**
 * How the garment is placed in the picture: scaled and moved so its outline fills the frame the same
 * way for every kind (a cap as large as a jacket, as in a shop's photos), leaving room for the shadow.
 * The outlines (body, trims, mesh) are written with absolute commands, so their numbers are points (control points
 * included, which only widen the box a little).
 */
function placement(outline: string): string {
  const numbers = (outline.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  const xs = numbers.filter((_, i) => i % 2 === 0);
  const ys = numbers.filter((_, i) => i % 2 === 1);
  const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = Math.min(350 / (right - left), 370 / (bottom - top), 1.5);
  const x = IMAGE_WIDTH / 2 - ((left + right) / 2) * scale;
  const y = IMAGE_HEIGHT / 2 - 6 - ((top + bottom) / 2) * scale;
  return `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale.toFixed(3)})`;
}

/** Where the cloth folds on the kinds whose drawing names none itself. */
const foldsByKind: Partial<Record<GarmentKind, string[]>> = {
  camiseta: ['M152 180Q166 280 156 356', 'M246 190Q236 280 248 358', 'M106 128Q118 150 114 172'],
  regata: ['M150 200Q164 290 156 366', 'M250 200Q238 290 250 366'],
  top: ['M150 226Q200 250 250 226'],
  shorts: ['M150 170Q140 260 132 340', 'M250 170Q260 260 268 340'],
  legging: ['M160 140Q150 300 152 430', 'M240 140Q250 300 248 430'],
  jaqueta: [
    'M150 200Q166 310 156 410',
    'M250 200Q236 310 248 410',
    'M82 200Q74 290 68 370',
    'M318 200Q326 290 332 370',
  ],
  bone: ['M160 196Q176 232 172 266'],
  meia: ['M190 120Q196 220 190 320'],
  pochete: ['M140 240Q200 262 260 240'],
  squeeze: ['M172 160Q168 300 172 430'],
};

/**
 * The SVG of `kind` in `color`, seen from `view`: a studio shot of the garment laid flat, square so it
 * fills the shop's square picture boxes. One light from the top left for every product (a highlight on
 * that side, shade and a soft shadow on the other), the cloth's volume from a blurred inner edge, folds,
 * a fine knit grain, stitched seams and hems, and the brand mark. About 5 KB, with a <title> for screen
 * readers.
 */
export function renderProductSvg(kind: GarmentKind, view: ImageView, color: PaletteColor): string {
  const { name, hex } = palette[color];
  const d = drawing(kind, view);
  const light = isLight(hex);
  const dark = tint(hex, light ? -0.3 : -0.45);
  const stitch = tint(hex, light ? -0.42 : 0.32);
  const accent = light ? tint(hex, -0.16) : tint(hex, 0.26);
  const ink = light ? '#1b2a4a' : '#ffffff';
  const folds = d.folds ?? foldsByKind[kind] ?? [];
  const title = `${kindLabels[kind]} Passada, ${view === 'frente' ? 'frente' : 'costas'}, cor ${name}`;
  // Filters in the drawing's own units, so a thin fold is blurred as much as a wide one.
  const area = `filterUnits="userSpaceOnUse" x="0" y="0" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}"`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    '<defs>',
    '<radialGradient id="bg" cx=".5" cy=".42" r=".78"><stop offset="0" stop-color="#ffffff"/><stop offset=".62" stop-color="#f2f0ec"/><stop offset="1" stop-color="#dfdbd4"/></radialGradient>',
    '<linearGradient id="fl" x1="0" y1="0" x2="0" y2="1"><stop offset=".6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".06"/></linearGradient>',
    '<linearGradient id="lt" gradientUnits="userSpaceOnUse" x1="60" y1="30" x2="350" y2="460"><stop offset="0" stop-color="#fff" stop-opacity=".3"/><stop offset=".42" stop-color="#fff" stop-opacity="0"/><stop offset=".58" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".3"/></linearGradient>',
    `<filter id="sf" ${area}><feGaussianBlur stdDeviation="9"/></filter>`,
    `<filter id="fb" ${area}><feGaussianBlur stdDeviation="5"/></filter>`,
    `<filter id="tx" ${area}><feTurbulence type="fractalNoise" baseFrequency=".9 .45" numOctaves="2" seed="7"/><feColorMatrix type="saturate" values="0"/></filter>`,
    `<pattern id="ms" width="7" height="7" patternUnits="userSpaceOnUse"><rect width="7" height="7" fill="${tint(hex, light ? -0.08 : 0.55)}"/><path d="M0 0L7 7M7 0L0 7" stroke="${dark}" stroke-width="1.2" opacity=".7"/></pattern>`,
    `<pattern id="pf" width="6" height="6" patternUnits="userSpaceOnUse"><circle cx="3" cy="3" r="1.1" fill="${dark}" opacity=".55"/></pattern>`,
    '<linearGradient id="rf" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f5f7fa"/><stop offset=".5" stop-color="#b9c0ca"/><stop offset="1" stop-color="#e8ecf1"/></linearGradient>',
    `<path id="g" d="${d.body}"/>`,
    '<clipPath id="c"><use href="#g"/></clipPath>',
    '</defs>',
    `<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#bg)"/>`,
    // A studio sweep: the backdrop a shade darker toward the front.
    `<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#fl)"/>`,
    `<g transform="${placement([d.body, ...(d.trims ?? []), ...(d.mesh ?? [])].join(''))}">`,
    // Laid flat under a soft box: a soft shadow down and to the right.
    '<use href="#g" transform="translate(6 10)" fill="#000" opacity=".26" filter="url(#sf)"/>',
    `<use href="#g" fill="${hex}"/>`,
  ];
  for (const panel of d.accents ?? []) parts.push(`<path d="${panel}" fill="${accent}"/>`);
  for (const panel of d.mesh ?? []) parts.push(`<path d="${panel}" fill="url(#ms)"/>`);
  for (const trim of d.trims ?? []) parts.push(`<path d="${trim}" fill="${dark}"/>`);
  parts.push('<g clip-path="url(#c)">');
  if (folds.length) {
    const path = folds.join('');
    parts.push(
      `<path d="${path}" fill="none" stroke="#000" stroke-opacity=".22" stroke-width="12" stroke-linecap="round" filter="url(#fb)"/>`,
      `<path d="${path}" transform="translate(-9 0)" fill="none" stroke="#fff" stroke-opacity=".16" stroke-width="8" stroke-linecap="round" filter="url(#fb)"/>`,
    );
  }
  if (d.perforated) parts.push(`<rect width="400" height="${IMAGE_HEIGHT}" fill="url(#pf)"/>`);
  parts.push(
    `<rect width="400" height="${IMAGE_HEIGHT}" fill="url(#lt)"/>`,
    `<rect width="400" height="${IMAGE_HEIGHT}" filter="url(#tx)" opacity="${light ? 0.07 : 0.1}"/>`,
    '<use href="#g" fill="none" stroke="#000" stroke-opacity=".28" stroke-width="16" filter="url(#fb)"/>',
    '</g>',
    `<use href="#g" fill="none" stroke="${dark}" stroke-width="1.6" stroke-linejoin="round"/>`,
  );
  for (const band of d.reflective ?? []) parts.push(`<path d="${band}" fill="url(#rf)"/>`);
  for (const hole of d.holes ?? []) parts.push(`<path d="${hole}" fill="#ece9e3"/>`);
  if (d.details.length) {
    parts.push(
      `<path d="${d.details.join('')}" fill="none" stroke="${stitch}" stroke-width="1.8" stroke-dasharray="5 3.5" stroke-linecap="round" opacity=".85"/>`,
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
  parts.push('</g></svg>');
  return parts.join('');
}

const MEDIA_PREFIX = '/api/media/products/';
const FILE_PATTERN =
  /^([a-z-]+?)-(frente|costas)-([a-z-]+)\.([0-9a-f]{10})(?:\.svg|-(200|400|800)\.(webp|avif))$/;

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
