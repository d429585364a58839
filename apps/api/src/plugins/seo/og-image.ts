import { escapeXml } from '@passada/core/text';
import { Resvg } from '@resvg/resvg-js';
import { wrapWords } from '../../modules/events/event-poster.ts';

/** The size Facebook, WhatsApp and X ask of a link preview (1.91:1); they do not show SVG. */
export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

export interface OgCard {
  /** The drawing (a product image or an event poster) and its own size. */
  art: { svg: string; width: number; height: number };
  title: string;
  /** Price or dates, under the title. */
  subtitle: string;
  brand: string;
}

/** At most `lines` lines of about `max` characters, the last one marked when the text goes on. */
function wrap(text: string, max: number, lines: number): string[] {
  const all = wrapWords(text, max);
  if (all.length <= lines) return all;
  const kept = all.slice(0, lines);
  kept[lines - 1] = `${kept[lines - 1]}…`;
  return kept;
}

/** The preview card as SVG: the drawing on the left, name, price or dates and the shop's name on the right. */
export function ogCardSvg(card: OgCard): string {
  const artBox = { width: 640, height: OG_HEIGHT };
  const scale = Math.min(artBox.width / card.art.width, artBox.height / card.art.height);
  const w = Math.round(card.art.width * scale);
  const h = Math.round(card.art.height * scale);
  const art = Buffer.from(card.art.svg).toString('base64');
  const textX = artBox.width + 48;
  const titleLines = wrap(card.title, 17, 3);
  const title = titleLines
    .map((line, i) => `<tspan x="${textX}" dy="${i === 0 ? 0 : 56}">${escapeXml(line)}</tspan>`)
    .join('');
  const subtitleY = 200 + titleLines.length * 56 + 24;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}">`,
    `<rect width="${OG_WIDTH}" height="${OG_HEIGHT}" fill="#1c1917"/>`,
    `<image href="data:image/svg+xml;base64,${art}" x="${Math.round((artBox.width - w) / 2)}" y="${Math.round((artBox.height - h) / 2)}" width="${w}" height="${h}"/>`,
    `<text x="${textX}" y="120" font-family="DejaVu Sans, Arial, sans-serif" font-size="40" font-weight="bold" font-style="italic" fill="#f97316">${escapeXml(card.brand)}</text>`,
    `<text x="${textX}" y="200" font-family="DejaVu Sans, Arial, sans-serif" font-size="44" font-weight="bold" fill="#fafaf9">${title}</text>`,
    `<text x="${textX}" y="${subtitleY}" font-family="DejaVu Sans, Arial, sans-serif" font-size="38" fill="#fed7aa">${escapeXml(card.subtitle)}</text>`,
    '</svg>',
  ].join('');
}

/** The card as a PNG of exactly OG_WIDTH × OG_HEIGHT (fonts from the system; text needs one installed). */
export function renderOgPng(card: OgCard): Buffer {
  const resvg = new Resvg(ogCardSvg(card), {
    fitTo: { mode: 'width', value: OG_WIDTH },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}
