import { createHash } from 'node:crypto';
import { formatEventDates } from '@passada/core/events';
import { escapeXml } from '@passada/core/text';

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

export const POSTER_WIDTH = 800;
export const POSTER_HEIGHT = 500;
export const EVENT_MEDIA_PREFIX = '/api/media/events/';
export const EVENT_MEDIA_FILE = /^[0-9a-f]{16}\.svg$/;

/** Dawn skies of the Nordeste coast: sky top, sky bottom, sun, sea, skyline. */
const palettes = [
  ['#1d3b6e', '#f59e5b', '#ffd166', '#1f7a8c', '#16213a'],
  ['#3a1c71', '#ff8c69', '#ffe29a', '#23649e', '#1b1436'],
  ['#0f4c5c', '#f6bd60', '#fff1b8', '#2a9d8f', '#0b2a33'],
  ['#5b2a86', '#f28482', '#ffd6a5', '#3d7ea6', '#241332'],
  ['#14213d', '#fca311', '#ffe8a3', '#277da1', '#0b1222'],
  ['#7f2d55', '#f7a072', '#fff3b0', '#1b998b', '#2b1020'],
] as const;

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

export function renderEventPoster(facts: PosterFacts): string {
  const random = seededRandom(`${facts.city}|${facts.name}`);
  const [skyTop, skyBottom, sun, sea, skyline] =
    palettes[Math.floor(random() * palettes.length)] ?? palettes[0];
  const title = `${facts.name} — ${facts.city}/${facts.state}, ${formatEventDates(facts.startDate, facts.endDate)}`;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${POSTER_WIDTH}" height="${POSTER_HEIGHT}" viewBox="0 0 ${POSTER_WIDTH} ${POSTER_HEIGHT}" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    '<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">',
    `<stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/>`,
    '</linearGradient></defs>',
    `<rect width="${POSTER_WIDTH}" height="${POSTER_HEIGHT}" fill="url(#sky)"/>`,
  ];
  const sunX = 480 + Math.round(random() * 220);
  parts.push(`<circle cx="${sunX}" cy="300" r="80" fill="${sun}" opacity="0.95"/>`);
  parts.push(`<circle cx="${sunX}" cy="300" r="110" fill="${sun}" opacity="0.25"/>`);

  // Skyline: buildings of random width and height standing on the shore line.
  let x = 0;
  const shore = 340;
  const buildings: string[] = [];
  while (x < POSTER_WIDTH) {
    const w = 24 + Math.round(random() * 46);
    // Low buildings under the text on the left, towers on the right.
    const h = 30 + Math.round(random() * (x < 420 ? 40 : 110));
    buildings.push(`<rect x="${x}" y="${shore - h}" width="${w}" height="${h}"/>`);
    // A few windows lit by the dawn.
    for (let wy = shore - h + 10; wy < shore - 12; wy += 18) {
      if (random() > 0.6) {
        buildings.push(`<rect x="${x + 6}" y="${wy}" width="6" height="8" fill="${sun}" opacity="0.7"/>`);
      }
    }
    x += w + 2 + Math.round(random() * 10);
  }
  parts.push(`<g fill="${skyline}">${buildings.join('')}</g>`);

  // Sea with three waves, then the beach.
  parts.push(`<rect y="${shore}" width="${POSTER_WIDTH}" height="${POSTER_HEIGHT - shore}" fill="${sea}"/>`);
  for (let i = 0; i < 3; i += 1) {
    const y = shore + 22 + i * 26;
    let d = `M0 ${y}`;
    for (let wx = 0; wx < POSTER_WIDTH; wx += 80) d += ` q20 -10 40 0 t40 0`;
    parts.push(`<path d="${d}" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="3"/>`);
  }
  parts.push(
    `<path d="M0 ${POSTER_HEIGHT - 40} Q${POSTER_WIDTH / 2} ${POSTER_HEIGHT - 80} ${POSTER_WIDTH} ${POSTER_HEIGHT - 30} V${POSTER_HEIGHT} H0 Z" fill="#f3d9a4"/>`,
  );

  // Name, place and date.
  const lines = wrapWords(facts.name.toLocaleUpperCase('pt-BR'), 22).slice(0, 3);
  lines.forEach((line, i) => {
    parts.push(
      `<text x="40" y="${72 + i * 50}" fill="#ffffff" font-family="system-ui,sans-serif" font-size="42" font-weight="800">${escapeXml(line)}</text>`,
    );
  });
  const infoY = 72 + lines.length * 50 + 4;
  parts.push(
    `<text x="40" y="${infoY}" fill="#ffffff" font-family="system-ui,sans-serif" font-size="24" font-weight="600">${escapeXml(`${facts.city}/${facts.state}`)}</text>`,
    `<text x="40" y="${infoY + 34}" fill="${sun}" font-family="system-ui,sans-serif" font-size="24" font-weight="700">${escapeXml(formatEventDates(facts.startDate, facts.endDate))}</text>`,
    `<text x="${POSTER_WIDTH - 30}" y="${POSTER_HEIGHT - 14}" fill="#5a3e1b" font-family="system-ui,sans-serif" font-size="18" font-weight="800" letter-spacing="3" text-anchor="end">PASSADA</text>`,
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
