import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { imageSources, PRODUCT_MAIN_IMAGE_SIZES } from '@passada/core/images';
import { escapeXml } from '@passada/core/text';
import type { FastifyInstance } from 'fastify';
import { headTags, pageMeta } from './seo/page-meta.ts';
import type { WebShell } from './web-shell.ts';

/**
 * Serves the built React app: hashed assets with a year-long cache, the page shell never cached, and
 * the shell for every other non-API path so the SPA's router answers, with the page's own head
 * (title, description, canonical, previews, JSON-LD) and status: an address, product or event that
 * does not exist is a 404 that shows the app's 404 page.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string, shell: WebShell | null) {
  const hasWeb = shell !== null && existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }
  /**
   * A product page's data and main image are known to the server: hinting them lets the phone fetch
   * both while it is still parsing the JavaScript (the largest paint of that page is the image).
   */
  async function productHints(url: string, rendered: boolean): Promise<string> {
    const id = /^\/produto\/(\d{1,9})\/?$/.exec(url)?.[1];
    if (!id) return '';
    try {
      const product = await app.catalog.getProduct(Number(id));
      const image = product.images[0];
      return (
        // A page rendered here carries the product already: only the browser-rendered one fetches it.
        (rendered ? '' : `<link rel="preload" as="fetch" href="/api/products/${id}/" crossorigin>`) +
        (image ? imagePreload(image) : '')
      );
    } catch {
      return '';
    }
  }

  /**
   * The catalogue, product and event pages come rendered with their data (apps/web/src/entry-server.tsx),
   * read from this server's own API so they are the same answers the browser would get. When that
   * fails the browser renders the page, as it does every other one.
   */
  async function renderOnServer(shell: WebShell, url: string) {
    const load = async (apiPath: string) => {
      const res = await app.inject({ method: 'GET', url: apiPath });
      if (res.statusCode !== 200) throw new Error(`${apiPath} answered ${res.statusCode}`);
      return res.json();
    };
    try {
      return await shell.render(url, load);
    } catch (error) {
      app.log.warn({ err: error, url }, 'server rendering failed; the browser renders the page');
      return null;
    }
  }

  /** The main image's preload: its AVIF copies at the gallery's sizes when it has them, else the file. */
  function imagePreload(image: string): string {
    const sources = imageSources(image);
    const responsive = sources
      ? ` imagesrcset="${escapeXml(sources.avif)}" imagesizes="${PRODUCT_MAIN_IMAGE_SIZES}" type="image/avif"`
      : '';
    return `<link rel="preload" as="image" href="${escapeXml(image)}"${responsive} fetchpriority="high">`;
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url === '/api' || url.startsWith('/api/') || !hasWeb || request.method !== 'GET') {
      return reply.status(404).send({ detail: 'Recurso não encontrado.', code: 'not_found' });
    }
    if (path.extname(url) && !url.startsWith('/produto/')) {
      return reply.status(404).send({ detail: 'Arquivo não encontrado.', code: 'not_found' });
    }
    const meta = await pageMeta(app, url);
    const head = headTags(meta, url, app.env.publicUrl, app.env.STORE_NAME);
    reply.header('cache-control', 'no-cache');
    reply.status(meta.status).type('text/html; charset=utf-8');
    if (meta.status !== 200 || !shell) return reply.send(shell?.html(url, head.tags, head.title));
    const rendered = await renderOnServer(shell, request.url);
    const hints = await productHints(url, rendered !== null);
    return reply.send(
      rendered
        ? rendered.page(hints + head.tags, head.title)
        : shell.html(url, hints + head.tags, head.title),
    );
  });
}
