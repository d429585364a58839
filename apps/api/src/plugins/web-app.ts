import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { imagePreloadLink, PRODUCT_MAIN_IMAGE_SIZES } from '@passada/core/images';
import type { FastifyInstance } from 'fastify';
import { CATALOG_CHANGED } from '../modules/catalog/catalog.service.ts';
import { EVENTS_CHANGED } from '../modules/events/events.service.ts';
import { RESULTS_CHANGED } from '../modules/results/results.service.ts';
import { createAnswerCache, type Produced, prepareAnswer, sendCached } from './answer-cache.ts';
import { headTags, pageMeta } from './seo/page-meta.ts';
import type { RenderedPage, WebShell } from './web-shell.ts';

const HTML = 'text/html; charset=utf-8';

/**
 * Serves the built React app: hashed assets with a year-long cache, pages revalidated on every visit
 * (no-cache, ETag), and the shell for every other non-API path so the SPA's router answers, with the
 * page's own head (title, description, canonical, previews, JSON-LD) and status: an address, product
 * or event that does not exist is a 404 that shows the app's 404 page. Every page is sent compressed,
 * and kept, compressed, until the catalogue or an event changes (docs/decisions/0021).
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
   * A product page the browser renders (the server renderer is not built): its data and main image
   * are known to the server, and hinting them lets the phone fetch both while it is still parsing the
   * JavaScript. A rendered page carries its data and its image's preload already.
   */
  async function productHints(url: string): Promise<string> {
    const id = /^\/produto\/(\d{1,9})\/?$/.exec(url)?.[1];
    if (!id) return '';
    try {
      const product = await app.catalog.getProduct(Number(id));
      const image = product.images[0];
      return (
        `<link rel="preload" as="fetch" href="/api/products/${id}/" crossorigin>` +
        (image ? imagePreloadLink(image, PRODUCT_MAIN_IMAGE_SIZES) : '')
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
  async function renderOnServer(
    shell: WebShell,
    url: string,
  ): Promise<{ rendered: RenderedPage | null; failed: boolean }> {
    const load = async (apiPath: string) => {
      const res = await app.inject({ method: 'GET', url: apiPath });
      if (res.statusCode !== 200) throw new Error(`${apiPath} answered ${res.statusCode}`);
      return res.json();
    };
    try {
      return { rendered: await shell.render(url, load), failed: false };
    } catch (error) {
      app.log.warn({ err: error, url }, 'server rendering failed; the browser renders the page');
      return { rendered: null, failed: true };
    }
  }

  /**
   * Pages that answer 200, kept by address (not with a query string: each would be another copy) with
   * their compressed bytes and ETag, at most PAGE_CACHE_MAX_PAGES. Any write to the catalogue or to an
   * event, or a publication of results (a runner's page shows the result), in any process, drops them all (docs/decisions/0014-cached-catalogue-answers.md); so does a
   * new day in the store's time zone, which moves event prices by lot and closes registrations.
   */
  const pages = createAnswerCache(app.env.PAGE_CACHE_MAX_PAGES);
  for (const channel of [CATALOG_CHANGED, EVENTS_CHANGED, RESULTS_CHANGED]) {
    const stopListening = await app.database.listen(channel, pages.invalidate);
    app.addHook('onClose', stopListening);
  }
  let pagesDay = '';

  /**
   * The page for a path: its status and head, rendered on the server when it is one of those pages.
   * Only a 200 whose rendering did not fail is kept (a failed one is tried again on the next request).
   */
  async function buildPage(shell: WebShell | null, url: string, requestUrl: string): Promise<Produced> {
    const meta = await pageMeta(app, url);
    const head = headTags(meta, url, app.env.publicUrl, app.env.STORE_NAME);
    if (meta.status !== 200 || !shell) {
      return {
        answer: await prepareAnswer(shell?.html(url, head.tags, head.title) ?? '', HTML, meta.status),
        keep: false,
      };
    }
    const { rendered, failed } = await renderOnServer(shell, requestUrl);
    const html = rendered
      ? rendered.page(head.tags, head.title)
      : shell.html(url, (await productHints(url)) + head.tags, head.title);
    return { answer: await prepareAnswer(html, HTML), keep: !failed };
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url === '/api' || url.startsWith('/api/') || !hasWeb || request.method !== 'GET') {
      return reply.status(404).send({ detail: 'Recurso não encontrado.', code: 'not_found' });
    }
    if (path.extname(url) && !url.startsWith('/produto/')) {
      return reply.status(404).send({ detail: 'Arquivo não encontrado.', code: 'not_found' });
    }
    const today = dateInTimeZone(app.now(), STORE_TIME_ZONE);
    if (today !== pagesDay) {
      pages.invalidate();
      pagesDay = today;
    }
    const answer =
      request.url === url
        ? await pages.remember(url, () => buildPage(shell, url, request.url))
        : (await buildPage(shell, url, request.url)).answer;
    return sendCached(request, reply, answer);
  });
}
