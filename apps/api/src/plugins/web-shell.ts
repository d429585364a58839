import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The built index.html, prepared once at start for a fast first paint on slow phones: the theme
 * bootstrap and the stylesheet are inlined (two fewer render-blocking requests), and the home page
 * gets its banner image in the static markup so the largest paint does not wait for JavaScript.
 * React replaces that markup when it starts.
 */
export interface WebShell {
  /** The page for a path: `/` carries the home banner placeholder; `head` adds tags (preload hints). */
  html(pathname: string, head?: string): string;
  /** CSP hashes of the inline scripts (`'sha256-…'`). */
  scriptHashes: string[];
}

const HOME_MARKER = '<!--home-banner-->';
const HOME_BANNER =
  '<img src="/media/banner-poster.svg" width="960" height="420" alt="" fetchpriority="high" class="aspect-[16/7] w-full bg-stone-900 object-cover">';

export function loadWebShell(webDist: string): WebShell | null {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return null;
  let html = readFileSync(indexFile, 'utf8');
  const scriptHashes: string[] = [];

  html = html.replace(/<script src="(\/[\w.-]+\.js)"><\/script>/g, (tag, src: string) => {
    const file = path.join(webDist, src);
    if (!existsSync(file)) return tag;
    const code = readFileSync(file, 'utf8').trim();
    scriptHashes.push(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
    return `<script>${code}</script>`;
  });
  html = html.replace(
    /<link rel="stylesheet"[^>]*href="(\/assets\/[\w.-]+\.css)"[^>]*>/g,
    (tag, href: string) => {
      const file = path.join(webDist, href);
      return existsSync(file) ? `<style>${readFileSync(file, 'utf8')}</style>` : tag;
    },
  );

  const home = html.replace(HOME_MARKER, HOME_BANNER);
  const other = html.replace(HOME_MARKER, '');
  return {
    html: (pathname, head = '') => (pathname === '/' ? home : other).replace('</head>', `${head}</head>`),
    scriptHashes,
  };
}
