import { STORE_TIME_ZONE } from '@passada/core/calendar';
import { COMPANY } from '@passada/core/company';
import type { Product } from '@passada/core/contracts/catalog';
import type { Event } from '@passada/core/contracts/events';
import type { RunnerResult } from '@passada/core/contracts/results';
import { formatEventDates } from '@passada/core/events';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { RESULT_STATUS_LABEL } from '@passada/core/results';
import { CATEGORY_HEADS, matchShopRoute, PAGE_HEADS } from '@passada/core/routes';
import { escapeXml } from '@passada/core/text';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.ts';

/**
 * What the server writes in a page's <head> before any JavaScript runs: search engines and link
 * previews (WhatsApp, Facebook) read only this. The status is the page's: an unknown address, product
 * or event answers 404 with the app's own 404 page, never a "soft 404".
 */
export interface PageMeta {
  status: 200 | 404;
  title: string;
  description: string;
  /** Pages behind a login, a search result or a checkout step: not for search engines. */
  noindex?: boolean;
  og?: { type: 'product' | 'website'; image: string; imageAlt: string; extra?: Record<string, string> };
  jsonLd?: object[];
}

const SCHEMA = 'https://schema.org';

/** `2026-12-06` at `06:00` in the store's time zone, with its offset (Fortaleza has no summer time, but ask). */
export function zonedDateTime(date: string, time = '00:00'): string {
  const probe = new Date(`${date}T12:00:00Z`);
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone: STORE_TIME_ZONE, timeZoneName: 'longOffset' })
      .formatToParts(probe)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const offset = name === 'GMT' ? '+00:00' : name.replace('GMT', '');
  const hhmm = /^\d{1,2}:\d{2}$/.test(time) ? time.padStart(5, '0') : '00:00';
  return `${date}T${hhmm}:00${offset}`;
}

const available = (inStock: boolean) => `${SCHEMA}/${inStock ? 'InStock' : 'OutOfStock'}`;

export function productMeta(
  product: Product,
  base: string,
  storeName: string,
  reviews: { average: number | null; count: number } = { average: null, count: 0 },
): PageMeta {
  const url = `${base}/produto/${product.id}`;
  const inStock = product.stock.some((s) => s.quantity > 0);
  const price = (reaisToCents(product.price) / 100).toFixed(2);
  const category = CATEGORY_HEADS[product.category as keyof typeof CATEGORY_HEADS];
  const image = `${base}/api/media/og/produto/${product.id}.png`;
  return {
    status: 200,
    title: product.name,
    description:
      `${product.name} por ${formatBRL(reaisToCents(product.price))}. ${product.description}`.slice(0, 300),
    og: {
      type: 'product',
      image,
      imageAlt: product.name,
      extra: {
        'product:price:amount': price,
        'product:price:currency': 'BRL',
        'product:availability': inStock ? 'in stock' : 'out of stock',
      },
    },
    jsonLd: [
      {
        '@context': SCHEMA,
        '@type': 'Product',
        name: product.name,
        description: product.description,
        sku: String(product.id),
        url,
        image: [image, ...product.images.map((i) => `${base}${i}`)],
        brand: { '@type': 'Brand', name: storeName },
        // Only from published reviews of buyers who kept the piece (decision 0071), never the seeded rating.
        ...(reviews.average !== null && reviews.count > 0
          ? {
              aggregateRating: {
                '@type': 'AggregateRating',
                ratingValue: reviews.average,
                reviewCount: reviews.count,
                bestRating: 5,
                worstRating: 1,
              },
            }
          : {}),
        offers: {
          '@type': 'Offer',
          url,
          price,
          priceCurrency: 'BRL',
          availability: available(inStock),
          itemCondition: `${SCHEMA}/NewCondition`,
          seller: { '@type': 'Organization', name: storeName },
        },
      },
      breadcrumbs(base, [
        ['Início', '/'],
        ...(category ? [[category.name, `/${product.category}`] as [string, string]] : []),
        [product.name, `/produto/${product.id}`],
      ]),
    ],
  };
}

export function eventMeta(event: Event, base: string, storeName: string): PageMeta {
  const url = `${base}/eventos/register/${event.id}`;
  const image = `${base}/api/media/og/evento/${event.id}.png`;
  const dates = formatEventDates(event.start_data_evento, event.end_data_evento);
  const place = `${event.city}-${event.state}`;
  return {
    status: 200,
    title: event.nome_evento,
    description: `${event.nome_evento}: ${dates}, ${place}. ${event.descricao_evento}`.slice(0, 300),
    og: { type: 'website', image, imageAlt: `Cartaz de ${event.nome_evento}` },
    jsonLd: [
      {
        '@context': SCHEMA,
        '@type': 'SportsEvent',
        name: event.nome_evento,
        description: event.descricao_evento,
        url,
        image: [image],
        sport: 'Corrida de rua',
        startDate: zonedDateTime(event.start_data_evento, event.hora_evento),
        endDate: zonedDateTime(event.end_data_evento, event.hora_evento),
        eventStatus: `${SCHEMA}/EventScheduled`,
        eventAttendanceMode: `${SCHEMA}/OfflineEventAttendanceMode`,
        location: {
          '@type': 'Place',
          name: place,
          address: {
            '@type': 'PostalAddress',
            addressLocality: event.city,
            addressRegion: event.state,
            addressCountry: 'BR',
          },
        },
        organizer: { '@type': 'Organization', name: event.organizer },
        offers: event.dias_evento.flatMap((day) =>
          day.categorias.map((c) => ({
            '@type': 'Offer',
            name: `${c.nome_categoria} (${formatEventDates(day.data, day.data)})`,
            url,
            price: c.preco_inscricao.toFixed(2),
            priceCurrency: 'BRL',
            availability: `${SCHEMA}/${event.inscricoes_abertas && c.quantidade_disponivel > 0 ? 'InStock' : 'SoldOut'}`,
            validThrough: zonedDateTime(event.prazo_inscricao, '23:59'),
            seller: { '@type': 'Organization', name: storeName },
          })),
        ),
      },
      breadcrumbs(base, [
        ['Início', '/'],
        ['Eventos', '/eventos'],
        [event.nome_evento, `/eventos/register/${event.id}`],
      ]),
    ],
  };
}

function breadcrumbs(base: string, items: Array<[string, string]>): object {
  return {
    '@context': SCHEMA,
    '@type': 'BreadcrumbList',
    itemListElement: items.map(([name, path], i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name,
      item: `${base}${path}`,
    })),
  };
}

/** The physical shop (/lojas): address, contacts and opening hours as the page shows them. */
export function storeJsonLd(base: string, storeName: string): object {
  return {
    '@context': SCHEMA,
    '@type': 'Store',
    name: storeName,
    legalName: COMPANY.legalName,
    url: `${base}/lojas`,
    email: COMPANY.email,
    telephone: COMPANY.phoneE164,
    image: `${base}/media/banner-poster.svg`,
    address: {
      '@type': 'PostalAddress',
      streetAddress: 'Av. Beira Mar, 3000, loja 12',
      addressLocality: 'Fortaleza',
      addressRegion: 'CE',
      postalCode: '60165-121',
      addressCountry: 'BR',
    },
    geo: { '@type': 'GeoCoordinates', latitude: -3.725, longitude: -38.495 },
    openingHoursSpecification: [
      ['09:00', '11:30'],
      ['14:00', '18:00'],
    ].map(([opens, closes]) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
      opens,
      closes,
    })),
  };
}

/**
 * A runner's result page (docs/decisions/0064): the time and places in the title and description, the
 * event's card as the shared image. No personal data beyond what the results page itself shows.
 */
export function runnerResultMeta(result: RunnerResult, base: string): PageMeta {
  const [first] = result.provas;
  const race = result.provas.map((p) => {
    const time = p.tempo_liquido ?? p.tempo_bruto;
    const place = p.colocacao_geral ? `, ${p.colocacao_geral}º de ${p.concluintes_geral}` : '';
    return time ? `${p.categoria}: ${time}${place}` : `${p.categoria}: ${RESULT_STATUS_LABEL[p.situacao]}`;
  });
  return {
    status: 200,
    title: `${first!.nome}: resultado na ${result.evento.nome}`,
    description: `${first!.nome} (nº ${first!.numero}) na ${result.evento.nome}, ${result.evento.cidade}. ${race.join('; ')}.`,
    og: {
      type: 'website',
      image: `${base}/api/media/og/evento/${result.evento.id}.png`,
      imageAlt: `Cartaz de ${result.evento.nome}`,
    },
  };
}

const NOT_FOUND: PageMeta = {
  status: 404,
  title: 'Página não encontrada',
  description: 'Esta página não existe.',
  noindex: true,
};

/** A product or event that does not exist is the same 404 as an unknown address. */
async function orNotFound(load: () => Promise<PageMeta>): Promise<PageMeta> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) return NOT_FOUND;
    throw error;
  }
}

/**
 * The head of the page at `pathname` (no query string), with its HTTP status: the page is found in the
 * shop's one route table (`@passada/core/routes`), the same the web app's router is built from.
 */
export async function pageMeta(app: FastifyInstance, pathname: string): Promise<PageMeta> {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const base = app.env.publicUrl.replace(/\/+$/, '');
  const store = app.env.STORE_NAME;
  const { route, params } = matchShopRoute(path);
  const head = PAGE_HEADS[route.path];
  const id = Number(params.id);
  switch (head.kind) {
    case 'page': {
      const { kind: _, structuredData, ...meta } = head;
      return {
        status: 200,
        ...meta,
        ...(structuredData === 'store' ? { jsonLd: [storeJsonLd(base, store)] } : {}),
      };
    }
    case 'product':
      return orNotFound(async () =>
        productMeta(await app.catalog.getProduct(id), base, store, await app.orders.reviews.summary(id)),
      );
    case 'event':
      return orNotFound(async () => eventMeta(await app.events.getEvent(id), base, store));
    case 'event-page':
      return orNotFound(async () => {
        const event = await app.events.getEvent(id);
        return {
          status: 200,
          title: `${head.what}: ${event.nome_evento}`,
          description: event.descricao_evento,
          noindex: head.noindex,
        };
      });
    case 'runner-result':
      if (!/^[1-9]\d{0,6}$/.test(params.numero ?? '')) return NOT_FOUND;
      return orNotFound(async () =>
        runnerResultMeta(await app.results.runner(id, Number(params.numero)), base),
      );
    case 'private':
      return { status: 200, title: 'Minha conta', description: 'Sua conta na Passada.', noindex: true };
    case 'not-found':
      return NOT_FOUND;
  }
}

/** The tags for `<head>`: title, description, canonical, robots, Open Graph, Twitter card and JSON-LD. */
export function headTags(
  meta: PageMeta,
  pathname: string,
  base: string,
  storeName: string,
): { title: string; tags: string } {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const canonical = `${base.replace(/\/+$/, '')}${path}`;
  const title = `${meta.title} | ${storeName}`;
  const attr = escapeXml;
  const tags: string[] = [`<meta name="description" content="${attr(meta.description)}">`];
  if (meta.status === 200 && !meta.noindex) tags.push(`<link rel="canonical" href="${attr(canonical)}">`);
  if (meta.noindex) tags.push('<meta name="robots" content="noindex">');
  if (meta.status === 200 && !meta.noindex) {
    const og: Record<string, string> = {
      'og:site_name': storeName,
      'og:locale': 'pt_BR',
      'og:type': meta.og?.type ?? 'website',
      'og:title': meta.title,
      'og:description': meta.description,
      'og:url': canonical,
      ...(meta.og
        ? {
            'og:image': meta.og.image,
            'og:image:type': 'image/png',
            'og:image:width': '1200',
            'og:image:height': '630',
            'og:image:alt': meta.og.imageAlt,
            ...meta.og.extra,
          }
        : {}),
    };
    for (const [property, content] of Object.entries(og))
      tags.push(`<meta property="${property}" content="${attr(content)}">`);
    tags.push(`<meta name="twitter:card" content="${meta.og ? 'summary_large_image' : 'summary'}">`);
    tags.push(`<meta name="twitter:title" content="${attr(meta.title)}">`);
    tags.push(`<meta name="twitter:description" content="${attr(meta.description)}">`);
    if (meta.og) tags.push(`<meta name="twitter:image" content="${attr(meta.og.image)}">`);
  }
  for (const data of meta.jsonLd ?? []) {
    // `<` escaped so no text in the data can close the script element.
    tags.push(`<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`);
  }
  return { title, tags: tags.join('') };
}
