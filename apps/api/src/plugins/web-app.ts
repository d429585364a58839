import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
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
  async function productHints(url: string): Promise<string> {
    const id = /^\/produto\/(\d{1,9})\/?$/.exec(url)?.[1];
    if (!id) return '';
    try {
      const product = await app.catalog.getProduct(Number(id));
      const image = product.images[0];
      return (
        `<link rel="preload" as="fetch" href="/api/products/${id}/" crossorigin>` +
        (image ? `<link rel="preload" as="image" href="${escapeXml(image)}" fetchpriority="high">` : '')
      );
    } catch {
      return '';
    }
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
    return reply
      .status(meta.status)
      .type('text/html; charset=utf-8')
      .send(shell?.html(url, (meta.status === 200 ? await productHints(url) : '') + head.tags, head.title));
  });
}
