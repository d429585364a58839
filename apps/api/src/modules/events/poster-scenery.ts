/** What the posters' scenes are drawn with: the poster's size, a scene's shape, sea, palms, jangadas, sertão, sobrados. */

export const POSTER_WIDTH = 800;
export const POSTER_HEIGHT = 500;
/** Sky top, sky bottom and sun of a scene; the scene's own colours are in its drawing. */
export type Sky = readonly [string, string, string];

/** A city's picture: its sky and what stands under it (landmark, sea, river or sertão), drawn in front of the sky. */
export interface Scene {
  skies: readonly Sky[];
  /** The sun's centre, or null when the scene draws its own light (night skies). */
  sun: { x: number; y: number; r: number } | null;
  draw(random: () => number, sky: Sky): string;
}

export const W = POSTER_WIDTH;
export const H = POSTER_HEIGHT;

/** The sea from `top` down, with a lit path under the sun and rows of small waves. */
export function sea(
  top: number,
  color: string,
  deep: string,
  sunX: number | null,
  random: () => number,
): string {
  const parts = [
    `<defs><linearGradient id="sea" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${deep}"/></linearGradient></defs>`,
    `<rect y="${top}" width="${W}" height="${H - top}" fill="url(#sea)"/>`,
  ];
  if (sunX !== null) {
    parts.push(
      `<path d="M${sunX - 14} ${top}L${sunX + 14} ${top}L${sunX + 90} ${H}L${sunX - 90} ${H}Z" fill="#fff3c4" opacity=".22"/>`,
    );
  }
  const waves: string[] = [];
  for (let y = top + 12; y < H; y += 14 + Math.round((y - top) / 6)) {
    for (let x = Math.round(random() * 40); x < W; x += 60 + Math.round(random() * 70)) {
      const w = 14 + Math.round(((y - top) / (H - top)) * 30);
      waves.push(`M${x} ${y}q${w / 2} -4 ${w} 0`);
    }
  }
  parts.push(`<path d="${waves.join('')}" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="2"/>`);
  return parts.join('');
}

/** A coconut palm rooted at (x, y), `h` tall, leaning by `lean`. */
export function palm(x: number, y: number, h: number, lean: number, color: string): string {
  const tx = x + lean;
  const ty = y - h;
  const leaves = [-150, -115, -70, -30, 10, 50]
    .map((a) => {
      const rad = (a * Math.PI) / 180;
      const ex = tx + Math.cos(rad) * h * 0.42;
      const ey = ty + Math.sin(rad) * h * 0.2 + h * 0.12;
      const cx = tx + Math.cos(rad) * h * 0.22;
      const cy = ty - h * 0.1;
      return `M${tx} ${ty}Q${cx.toFixed(0)} ${cy.toFixed(0)} ${ex.toFixed(0)} ${ey.toFixed(0)}`;
    })
    .join('');
  return `<path d="M${x - 4} ${y}Q${x + lean * 0.3} ${y - h * 0.5} ${tx - 2} ${ty}L${tx + 2} ${ty}Q${x + lean * 0.3 + 6} ${y - h * 0.5} ${x + 4} ${y}Z" fill="${color}"/><path d="${leaves}" fill="none" stroke="${color}" stroke-width="7" stroke-linecap="round"/>`;
}

/** A jangada: the raft and its tall triangular sail. */
export function jangada(x: number, y: number, size: number, sail: string): string {
  const s = size;
  return `<path d="M${x - s * 0.5} ${y}L${x + s * 0.5} ${y}L${x + s * 0.42} ${y + s * 0.08}L${x - s * 0.42} ${y + s * 0.08}Z" fill="#5a3a22"/><path d="M${x} ${y}L${x} ${y - s * 1.3}" stroke="#3d2a1a" stroke-width="${Math.max(1, s / 30)}"/><path d="M${x + 2} ${y - s * 1.25}Q${x + s * 0.62} ${y - s * 0.7} ${x + s * 0.5} ${y - s * 0.08}L${x + 2} ${y - s * 0.08}Z" fill="${sail}"/>`;
}

/** A mandacaru cactus standing at (x, y). */
export function mandacaru(x: number, y: number, h: number, color: string): string {
  const arm = (dir: number, at: number, len: number) =>
    `M${x + dir * 8} ${y - at}h${dir * 22}q${dir * 8} 0 ${dir * 8} -8v${-len}`;
  return `<path d="M${x} ${y}V${y - h}" stroke="${color}" stroke-width="18" stroke-linecap="round"/><path d="${arm(-1, h * 0.45, h * 0.3)}${arm(1, h * 0.6, h * 0.28)}" fill="none" stroke="${color}" stroke-width="13" stroke-linecap="round"/>`;
}

/** Low caatinga shrubs along the ground line `y`. */
export function caatinga(y: number, color: string, random: () => number, from = 0, to = W): string {
  const bushes: string[] = [];
  for (let x = from; x < to; x += 26 + Math.round(random() * 40)) {
    const r = 8 + Math.round(random() * 14);
    bushes.push(`<ellipse cx="${x}" cy="${y}" rx="${r * 1.4}" ry="${r}"/>`);
  }
  return `<g fill="${color}">${bushes.join('')}</g>`;
}

/** A two-storey sobrado with tall windows, `w` wide, on the ground line `y`. */
export function sobrado(x: number, y: number, w: number, h: number, wall: string, tiles = false): string {
  const parts = [`<rect x="${x}" y="${y - h}" width="${w}" height="${h}" fill="${wall}"/>`];
  if (tiles) parts.push(`<rect x="${x}" y="${y - h}" width="${w}" height="${h}" fill="url(#azulejo)"/>`);
  parts.push(`<rect x="${x - 3}" y="${y - h - 8}" width="${w + 6}" height="9" fill="#f4efe4"/>`);
  const cols = Math.max(2, Math.floor(w / 28));
  const step = w / cols;
  for (let c = 0; c < cols; c += 1) {
    const wx = x + c * step + step / 2 - 7;
    for (const floor of [0, 1]) {
      const wy = y - h + 14 + floor * (h / 2);
      parts.push(
        `<path d="M${wx} ${wy + 26}V${wy + 7}q7 -8 14 0V${wy + 26}Z" fill="#2b3a55"/><rect x="${wx - 2}" y="${wy + 26}" width="18" height="3" fill="#f4efe4"/>`,
      );
    }
  }
  return parts.join('');
}
