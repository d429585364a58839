import { statSync } from 'node:fs';
import path from 'node:path';
import { formatEventDates } from '@passada/core/events';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { CATEGORY_HEADS } from '@passada/core/routes';
import { escapeXml } from '@passada/core/text';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMAGE_HEIGHT,
  IMAGE_WIDTH,
  parseImageFileName,
  productImage,
} from '../../modules/catalog/product-images.ts';
import { POSTER_HEIGHT, POSTER_WIDTH } from '../../modules/events/event-poster.ts';
import { notFound } from '../errors.ts';
import { type OgCard, renderOgPng } from './og-image.ts';

/** Private and transactional pages search engines should leave alone (the API too, but its images). */
const DISALLOWED = [
  '/api/',
  '/user',
  '/enderecos',
  '/adicionar-endereco',
  '/editar-endereco/',
  '/fechar-pedido',
  '/revisar-pedido',
  '/pagar',
  '/login',
  '/criarconta',
  '/pesquisa',
];

/** Rendering a PNG takes tens of milliseconds; each card is kept until its inputs change. */
const MAX_KEPT_CARDS = 500;

/**
 * robots.txt, sitemap.xml and the raster link-preview images of product and event pages
 * (docs/decisions/0015-server-written-page-head.md). The page heads themselves are written by
 * web-app.ts from page-meta.ts.
 */
export default fp(
  async (untyped: FastifyInstance) => {
    const app = untyped.withTypeProvider<ZodTypeProvider>();
    const base = app.env.publicUrl.replace(/\/+$/, '');

    app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) => {
      const lines = [
        'User-agent: *',
        'Allow: /',
        'Allow: /api/media/',
        ...DISALLOWED.map((p) => `Disallow: ${p}`),
        '',
        `Sitemap: ${base}/sitemap.xml`,
        '',
      ];
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(lines.join('\n'));
    });

    // Crawlers and old browsers ask for /favicon.ico whatever the page says; the icon is an SVG.
    app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=86400').redirect('/favicon.svg', 301),
    );

    /** The web app's build time: institutional pages change only when it is rebuilt. */
    const appBuiltAt = (() => {
      try {
        return statSync(path.join(app.env.webDist, 'index.html')).mtime;
      } catch {
        return null;
      }
    })();

    app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
      const [products, events] = await Promise.all([app.catalog.listPageDates(), app.events.listPageDates()]);
      const latest = (dates: Date[]) =>
        dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : appBuiltAt;
      const entries: Array<[string, Date | null]> = [
        ['/', latest(products.map((p) => p.updatedAt))],
        ...Object.keys(CATEGORY_HEADS).map((slug): [string, Date | null] => [
          `/${slug}`,
          latest(
            products.filter((p) => slug === 'topavaliados' || p.category === slug).map((p) => p.updatedAt),
          ),
        ]),
        ...products.map((p): [string, Date] => [`/produto/${p.id}`, p.updatedAt]),
        ['/eventos', latest(events.map((e) => e.updatedAt))],
        ...events.flatMap(
          (e): Array<[string, Date]> => [
            [`/eventos/register/${e.id}`, e.updatedAt],
            [`/eventos/regulamento/${e.id}`, e.updatedAt],
          ],
        ),
        ['/sobrenos', appBuiltAt],
        ['/lojas', appBuiltAt],
        ['/privacidade', appBuiltAt],
      ];
      const xml = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...entries.map(
          ([page, date]) =>
            `<url><loc>${escapeXml(`${base}${page}`)}</loc>${date ? `<lastmod>${date.toISOString()}</lastmod>` : ''}</url>`,
        ),
        '</urlset>',
        '',
      ].join('\n');
      return reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', 'public, max-age=600')
        .send(xml);
    });

    const cards = new Map<string, Buffer>();
    const sendCard = (reply: FastifyReply, key: string, card: () => OgCard) => {
      let png = cards.get(key);
      if (!png) {
        if (cards.size >= MAX_KEPT_CARDS) cards.clear();
        png = renderOgPng(card());
        cards.set(key, png);
      }
      // Price, stock or dates may change: an hour keeps previews fresh enough and the server idle.
      return reply.type('image/png').header('cache-control', 'public, max-age=3600').send(png);
    };
    const ogParams = { schema: { hide: true, params: z.object({ file: z.string().max(20) }) } };
    const idOf = (file: string): number => {
      const m = /^([1-9]\d{0,8})\.png$/.exec(file);
      if (!m) throw notFound('Imagem não encontrada.');
      return Number(m[1]);
    };

    app.get('/api/media/og/produto/:file', ogParams, async (request, reply) => {
      const product = await app.catalog.getProduct(idOf(request.params.file));
      const drawing = parseImageFileName(product.images[0]?.split('/').pop() ?? '');
      const svg = drawing ? productImage(drawing.kind, drawing.view, drawing.color).svg : null;
      const subtitle = formatBRL(reaisToCents(product.price));
      return sendCard(reply, `p:${product.id}:${product.name}:${subtitle}:${product.images[0]}`, () => ({
        art: svg
          ? { svg, width: IMAGE_WIDTH, height: IMAGE_HEIGHT }
          : { svg: '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>', width: 1, height: 1 },
        title: product.name,
        subtitle,
        brand: app.env.STORE_NAME,
      }));
    });

    app.get('/api/media/og/evento/:file', ogParams, async (request, reply) => {
      const event = await app.events.getEvent(idOf(request.params.file));
      const svg = await app.events.getPoster(event.imagem_evento.split('/').pop() ?? '');
      const subtitle = `${formatEventDates(event.start_data_evento, event.end_data_evento)} · ${event.city}-${event.state}`;
      return sendCard(reply, `e:${event.id}:${event.nome_evento}:${subtitle}:${event.imagem_evento}`, () => ({
        art: { svg, width: POSTER_WIDTH, height: POSTER_HEIGHT },
        title: event.nome_evento,
        subtitle,
        brand: app.env.STORE_NAME,
      }));
    });
  },
  { name: 'seo', dependencies: ['catalog', 'events', 'results', 'orders'] },
);
