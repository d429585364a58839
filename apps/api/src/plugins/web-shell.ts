import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeXml } from '@passada/core/text';

/**
 * The built index.html, prepared once at start for a fast first paint on slow phones: the theme
 * bootstrap and the stylesheet are inlined (two fewer render-blocking requests), and the home page
 * gets its banner image in the static markup so the largest paint does not wait for JavaScript.
 * React replaces that markup when it starts.
 */
export interface WebShell {
  /**
   * The page for a path: `/` carries the home banner placeholder; `head` adds tags (preload hints,
   * description, canonical, previews, JSON-LD) and `title` replaces the app's default title.
   */
  html(pathname: string, head?: string, title?: string): string;
  /** CSP hashes of the inline scripts (`'sha256-…'`). */
  scriptHashes: string[];
  /**
   * The page rendered by React on the server with its data (catalogue, product and event pages), or
   * null for the pages the browser renders itself, or when the server renderer is not built.
   */
  render(url: string, load: LoadJson): Promise<RenderedPage | null>;
}

/** Answers an API path with its JSON (the server reads its own API for the page it renders). */
export type LoadJson = (apiPath: string) => Promise<unknown>;

export interface RenderedPage {
  /** The whole page: the shell with the rendered markup in `#root` and the data as JSON. */
  page(head?: string, title?: string): string;
}

/** The server renderer built by `vite build --ssr` (apps/web/src/entry-server.tsx). */
interface ServerRenderer {
  render(url: string, load: LoadJson): Promise<{ html: string; dataScript: string; head: string } | null>;
}

const SSR_ENTRY = new URL('../../dist/ssr/entry-server.js', import.meta.url);
let renderer: Promise<ServerRenderer | null> | undefined;

/** Whether `npm run build` has built the server renderer (the shell alone serves otherwise). */
export function hasServerRenderer(): boolean {
  return existsSync(SSR_ENTRY);
}

/** Loaded once, on the first page it could render; absent in development (then the browser renders). */
function serverRenderer(): Promise<ServerRenderer | null> {
  renderer ??= hasServerRenderer()
    ? (import(pathToFileURL(SSR_ENTRY.pathname).href) as Promise<ServerRenderer>)
    : Promise.resolve(null);
  return renderer;
}

const HOME_MARKER = '<!--home-banner-->';
const HINTS_MARKER = '<!--page-hints-->';

/** The page module each much-visited route loads first (apps/web/src/app/router.tsx). */
const PAGE_MODULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/$/, 'src/features/home/home-page.tsx'],
  [/^\/produto\/\d+\/?$/, 'src/features/catalog/pages/product-page.tsx'],
  [/^\/(feminino|masculino|acessorios|topavaliados)\/?$/, 'src/features/catalog/pages/category-page.tsx'],
  [/^\/eventos\/?$/, 'src/features/events/pages/events-page.tsx'],
];

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/**
 * `<link rel="modulepreload">` for the entry's chunks and for a lazily loaded page's chunks, read
 * from Vite's build manifest, so the phone downloads them with the entry instead of after it has run
 * (the build has no preload helper of its own: apps/web/vite.config.ts).
 */
function modulePreloads(webDist: string, html: string): { entry: string; pages: Map<string, string> } {
  const pages = new Map<string, string>();
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) return { entry: '', pages };
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  // Each chunk after the chunks it imports: the order the page's loader evaluates them in.
  const chunksOf = (source: string, skip: ReadonlySet<string>) => {
    const seen = new Set<string>();
    const files: string[] = [];
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(chunk.file)) return;
      seen.add(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
      files.push(chunk.file);
    };
    visit(source);
    return files.filter((file) => !skip.has(file) && !html.includes(`/${file}"`));
  };
  const link = (file: string) => `<link rel="modulepreload" crossorigin href="/${file}">`;
  const entryFiles = chunksOf('index.html', new Set());
  for (const [, source] of PAGE_MODULES) {
    pages.set(source, chunksOf(source, new Set(entryFiles)).map(link).join(''));
  }
  return { entry: entryFiles.map(link).join(''), pages };
}
const CODE_HINTS_ID = 'code-hints';

/**
 * The app's entry, started once the page the server sent is painted with its largest image (the one
 * its head preloads, waited for at most 2 s): the image gets the connection to itself, and starting
 * React, which takes the main thread for a while on a cheap phone, waits until the page shows. Then
 * the page's code hints (`<template id="code-hints">`, inert until here) go into the head, so every
 * chunk downloads at once, and the chunks run one task each, those a chunk imports first, the entry
 * last: no single long task keeps the phone from answering a tap.
 */
function startAfterPaint(entry: string): string {
  return [
    `const hint = document.querySelector('link[rel="preload"][as="image"][fetchpriority="high"]');`,
    'if (hint) {',
    ' const image = new Image();',
    ' if (hint.imageSrcset) { image.sizes = hint.imageSizes; image.srcset = hint.imageSrcset; }',
    ' image.src = hint.href;',
    ' await Promise.race([image.decode().catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);',
    '}',
    // A hidden tab paints no frame: it goes on at once.
    `if (document.visibilityState !== 'hidden')`,
    ' await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));',
    `const code = document.getElementById('${CODE_HINTS_ID}');`,
    `const chunks = code ? [...code.content.querySelectorAll('link')].map((link) => link.href) : [];`,
    'if (code) document.head.append(code.content);',
    `for (const chunk of chunks) {`,
    ` if (chunk.endsWith('${entry}')) continue;`,
    ' await import(chunk);',
    ' await new Promise((r) => setTimeout(r, 0));',
    '}',
    `import('${entry}');`,
  ].join('\n');
}

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

  html = html.replace(
    /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/,
    (_, src: string) => {
      const code = startAfterPaint(src);
      scriptHashes.push(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
      return `<script type="module">${code}</script>`;
    },
  );

  // Each page brings its own description (page-meta.ts); the build's default would be a duplicate.
  html = html.replace(/<meta name="description"[^>]*>\s*/, '');
  const { entry, pages: preloads } = modulePreloads(webDist, html);
  // Hints go right after the title, ahead of the inlined stylesheet, so the browser sees them in the
  // first bytes it reads.
  html = html.includes('</title>')
    ? html.replace('</title>', `</title>${HINTS_MARKER}`)
    : html.replace('</head>', `${HINTS_MARKER}</head>`);
  const home = html.replace(HOME_MARKER, HOME_BANNER);
  const other = html.replace(HOME_MARKER, '');
  const withHead = (page: string, pathname: string, head: string, title: string | undefined) => {
    const source = PAGE_MODULES.find(([pattern]) => pattern.test(pathname))?.[1];
    const code = entry + (source ? (preloads.get(source) ?? '') : '');
    const hints = `${head}<template id="${CODE_HINTS_ID}">${code}</template>`;
    const withHints = page.replace(HINTS_MARKER, () => hints);
    return title
      ? withHints.replace(/<title>[^<]*<\/title>/, `<title>${escapeXml(title)}</title>`)
      : withHints;
  };
  return {
    html(pathname, head = '', title) {
      return withHead(pathname === '/' ? home : other, pathname, head, title);
    },
    async render(url, load) {
      const rendered = await (await serverRenderer())?.render(url, load);
      if (!rendered) return null;
      const pathname = url.split('?')[0] ?? url;
      // The placeholder inside #root gives way to the rendered page; its data follows it.
      const page = other.replace(
        /<div id="root">[\s\S]*?<\/div>\s*<\/body>/,
        () => `<div id="root">${rendered.html}</div>${rendered.dataScript}</body>`,
      );
      // The page's own hints (its largest image's preload) come first in the head.
      return { page: (head = '', title) => withHead(page, pathname, rendered.head + head, title) };
    },
    scriptHashes,
  };
}
