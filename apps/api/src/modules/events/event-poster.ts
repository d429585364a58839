import { createHash } from 'node:crypto';
import { formatEventDates } from '@passada/core/events';
import { escapeXml } from '@passada/core/text';
import { H, W } from './poster-scenery.ts';
import { sceneFor } from './poster-scenes.ts';

/**
 * Race posters drawn as SVG from the event's own facts (name, city, state, dates). There is no photo
 * shoot and no internet at install time, so the demo events' images are generated. The seed draws each
 * poster to name it by the hash of its bytes; the media route draws it again from the event row, so
 * no file has to live on one server's disk (docs/architecture.md §1: no state outside the database) and the
 * same URL always means the same bytes, cacheable for a year.
 */

export interface PosterFacts {
  name: string;
  city: string;
  state: string;
  startDate: string;
  endDate: string;
}

export { POSTER_HEIGHT, POSTER_WIDTH } from './poster-scenery.ts';
export { hasCityScene } from './poster-scenes.ts';

export const EVENT_MEDIA_PREFIX = '/api/media/events/';
export const EVENT_MEDIA_FILE = /^[0-9a-f]{16}\.svg$/;

/** A small deterministic generator, so the same city always gets the same skyline. */
function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0) || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) % 10_000) / 10_000;
  };
}

/** Breaks a text at spaces into lines of about `width` characters (the link previews use it too). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && `${line} ${word}`.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The poster: the event's city (its landmark, its sea, river or sertão; a seafront skyline for a city
 * without its own scene) under a sky picked by the event's name, then the name, place and dates.
 */
export function renderEventPoster(facts: PosterFacts): string {
  const random = seededRandom(`${facts.city}|${facts.name}`);
  const scene = sceneFor(facts.city);
  const sky = scene.skies[Math.floor(random() * scene.skies.length)] ?? scene.skies[0]!;
  const [skyTop, skyBottom, sun] = sky;
  const title = `${facts.name} — ${facts.city}/${facts.state}, ${formatEventDates(facts.startDate, facts.endDate)}`;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    '<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">',
    `<stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/>`,
    '</linearGradient><linearGradient id="shade" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#000" stop-opacity=".38"/><stop offset=".6" stop-color="#000" stop-opacity="0"/></linearGradient></defs>',
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>`,
  ];
  if (scene.sun) {
    const { x, y, r } = scene.sun;
    parts.push(
      `<circle cx="${x}" cy="${y}" r="${Math.round(r * 1.45)}" fill="${sun}" opacity="0.25"/>`,
      `<circle cx="${x}" cy="${y}" r="${r}" fill="${sun}" opacity="0.95"/>`,
    );
  }
  parts.push(scene.draw(random, sky));
  // A shade behind the words, so they read on any scene.
  parts.push(`<rect width="${W}" height="${H}" fill="url(#shade)"/>`);

  // Name, place and date.
  const lines = wrapWords(facts.name.toLocaleUpperCase('pt-BR'), 22).slice(0, 3);
  const text =
    'font-family="system-ui,sans-serif" stroke="#000" stroke-opacity=".25" stroke-width="1" paint-order="stroke"';
  lines.forEach((line, i) => {
    parts.push(
      `<text x="40" y="${72 + i * 50}" fill="#ffffff" ${text} font-size="42" font-weight="800">${escapeXml(line)}</text>`,
    );
  });
  const infoY = 72 + lines.length * 50 + 4;
  parts.push(
    `<text x="40" y="${infoY}" fill="#ffffff" ${text} font-size="24" font-weight="600">${escapeXml(`${facts.city}/${facts.state}`)}</text>`,
    `<text x="40" y="${infoY + 34}" fill="${sun}" ${text} font-size="24" font-weight="700">${escapeXml(formatEventDates(facts.startDate, facts.endDate))}</text>`,
    `<text x="${W - 24}" y="${H - 14}" fill="#ffffff" ${text} font-size="18" font-weight="800" letter-spacing="3" text-anchor="end">PASSADA</text>`,
    '</svg>',
  );
  return parts.join('');
}

/** The poster and the URL naming its bytes. */
export function eventPoster(facts: PosterFacts): { svg: string; url: string } {
  const svg = renderEventPoster(facts);
  const hash = createHash('sha256').update(svg).digest('hex').slice(0, 16);
  return { svg, url: `${EVENT_MEDIA_PREFIX}${hash}.svg` };
}
