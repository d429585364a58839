import { escapeXml } from '@passada/core/text';
import {
  type Drawing,
  type GarmentKind,
  type ImageView,
  type PaletteColor,
  palette,
} from './product-drawing.ts';
import { type AccessoryKind, accessoryDrawing } from './product-drawings-accessories.ts';
import {
  type BottomsKind,
  bottomsDrawing,
  type OuterwearKind,
  outerwearDrawing,
  type ShirtKind,
  type SleevelessKind,
  shirtDrawing,
  sleevelessDrawing,
} from './product-drawings-apparel.ts';

/** A product drawing rendered to SVG: colours, light, shadow, folds, knit, seams and the brand mark. */

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

const shirtKinds: readonly string[] = ['camiseta', 'babylook', 'manga-longa-polegar', 'manga-longa'];
const sleevelessKinds: readonly string[] = ['regata-tela', 'regata-cavada', 'top-nadador', 'regata', 'top'];
const outerwearKinds: readonly string[] = ['jaqueta-capuz', 'jaqueta'];
const bottomsKinds: readonly string[] = ['shorts-duplo', 'shorts-split', 'bermuda', 'shorts', 'legging'];

/** The drawing of `kind` seen from `view`, from the file that draws its family. */
function drawing(kind: GarmentKind, view: ImageView): Drawing {
  const front = view === 'frente';
  if (shirtKinds.includes(kind)) return shirtDrawing(kind as ShirtKind, front);
  if (sleevelessKinds.includes(kind)) return sleevelessDrawing(kind as SleevelessKind, front);
  if (outerwearKinds.includes(kind)) return outerwearDrawing(kind as OuterwearKind, front);
  if (bottomsKinds.includes(kind)) return bottomsDrawing(kind as BottomsKind, front);
  return accessoryDrawing(kind as AccessoryKind, front);
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
