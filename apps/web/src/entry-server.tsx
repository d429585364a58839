import type { Product } from '@passada/core/contracts/catalog';
import type { Event } from '@passada/core/contracts/events';
import { imagePreloadLink, PRODUCT_MAIN_IMAGE_SIZES } from '@passada/core/images';
import { matchShopRoute, type ShopPath } from '@passada/core/routes';
import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppProviders, createQueryClient } from './app/app.tsx';
import { AppRoutes } from './app/app-routes.tsx';
import { preloadRoute } from './app/router.tsx';
import { CARD_SIZES } from './components/product-card.tsx';
import { categoryProductsQuery, productQuery } from './features/catalog/api/products.ts';
import { CATEGORY_PAGES, pageProducts } from './features/catalog/utils/category-pages.ts';
import { homeQuery } from './features/home/api/home-products.ts';
import { HOME_BANNER_POSTER } from './features/home/components/banner-slider.tsx';
import { publicConfigQuery } from './lib/config-api.ts';
import { eventQuery, eventsPageQuery } from './lib/events-api.ts';
import { SERVER_DATA_ID } from './ssr-data.ts';

/** Answers an API path (`/api/...`) with its JSON, or throws; the server reads its own API. */
export type LoadJson = (apiPath: string) => Promise<unknown>;

/** A page of the route table as rendered: its path in the table and the address's parameters. */
interface PageMatch {
  path: ShopPath;
  params: Record<string, string>;
}

interface RenderedPageSpec {
  prefetch(match: PageMatch, search: URLSearchParams, client: QueryClient, load: LoadJson): Promise<void>;
  largestImage?(match: PageMatch, client: QueryClient): { src: string; sizes?: string } | undefined;
}

/** A category grid (`/feminino`, `/topavaliados`…): the segment is the page's key. */
const categoryPage: RenderedPageSpec = {
  prefetch: ({ path }, _, client, load) => {
    const { category } = CATEGORY_PAGES[path.slice(1)]!;
    return client.prefetchQuery({
      ...categoryProductsQuery(category),
      queryFn: () =>
        load(category === 'all' ? '/api/products/' : `/api/products/category/${category}/`) as never,
    });
  },
  largestImage: ({ path }, client) => {
    const { category } = CATEGORY_PAGES[path.slice(1)]!;
    const products = client.getQueryData<Product[]>(categoryProductsQuery(category).queryKey);
    const image = pageProducts(category, products)?.[0]?.images[0];
    return image ? { src: image, sizes: CARD_SIZES } : undefined;
  },
};

/**
 * The pages of the route table (`@passada/core/routes`) rendered on the server, with the API answers
 * each shows (the same as its queries) and the image each paints largest on a phone (its largest
 * contentful paint), preloaded from the head.
 */
const PAGES: Partial<Record<ShopPath, RenderedPageSpec>> = {
  '/': {
    prefetch: (_, __, client, load) =>
      client.prefetchQuery({ ...homeQuery(), queryFn: () => load('/api/home/') as never }),
    // The banner's first slide is wider and higher than any card.
    largestImage: () => ({ src: HOME_BANNER_POSTER }),
  },
  '/feminino': categoryPage,
  '/masculino': categoryPage,
  '/acessorios': categoryPage,
  '/topavaliados': categoryPage,
  '/produto/:id': {
    prefetch: ({ params }, _, client, load) =>
      client.prefetchQuery({
        ...productQuery(params.id!),
        queryFn: () => load(`/api/products/${params.id}/`) as never,
      }),
    largestImage: ({ params }, client) => {
      const image = client.getQueryData<Product>(productQuery(params.id!).queryKey)?.images[0];
      return image ? { src: image, sizes: PRODUCT_MAIN_IMAGE_SIZES } : undefined;
    },
  },
  '/eventos': {
    prefetch: (_, search, client, load) => {
      const requested = Number(search.get('page') ?? '1');
      const page = Number.isInteger(requested) && requested > 0 ? requested : 1;
      const query = eventsPageQuery(page);
      return client.prefetchQuery({
        ...query,
        queryFn: () =>
          load(`/api/events/?${new URLSearchParams({ page: String(page), page_size: '9' })}`) as never,
      });
    },
  },
  '/eventos/register/:id': {
    prefetch: ({ params }, _, client, load) =>
      client.prefetchQuery({
        ...eventQuery(params.id!),
        queryFn: () => load(`/api/events/${params.id}/`) as never,
      }),
    largestImage: ({ params }, client) => {
      const poster = client.getQueryData<Event>(eventQuery(params.id!).queryKey)?.imagem_evento;
      // The poster is a plain image (no responsive copies).
      return poster ? { src: poster } : undefined;
    },
  },
};

export interface RenderedPage {
  /** The markup inside `<div id="root">`. */
  html: string;
  /** `<script type="application/json">` with the query data the browser starts from. */
  dataScript: string;
  /** Tags for the head: the preload of the page's largest image. */
  head: string;
}

/** JSON inside a script element: `<` escaped so no text can close the element early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Renders one of the pages above with its data, or answers null for any other address (the browser
 * renders those itself). Throws when the page's data fails to load: the server then sends the shell
 * and the browser renders the page.
 */
export async function render(url: string, load: LoadJson): Promise<RenderedPage | null> {
  const parsed = new URL(url, 'http://localhost');
  const { route, params } = matchShopRoute(parsed.pathname);
  const page = PAGES[route.path];
  if (page) {
    const { prefetch, largestImage } = page;
    const match: PageMatch = { path: route.path, params };
    const queryClient = createQueryClient();
    // Nothing waits here for a retry: a failed answer leaves the page to the browser.
    queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
    await prefetch(match, parsed.searchParams, queryClient, load);
    const failed = queryClient
      .getQueryCache()
      .getAll()
      .find((q) => q.state.status !== 'success');
    if (failed) throw new Error(`the page's data did not load: ${JSON.stringify(failed.queryKey)}`);
    // The settings behind the demo strip shown on every page.
    await queryClient.prefetchQuery({ ...publicConfigQuery, queryFn: () => load('/api/config/') as never });

    await preloadRoute(parsed.pathname);
    const html = renderToString(
      <AppProviders queryClient={queryClient}>
        <StaticRouter location={`${parsed.pathname}${parsed.search}`}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>,
    );
    const dataScript = `<script type="application/json" id="${SERVER_DATA_ID}">${scriptJson(dehydrate(queryClient))}</script>`;
    const image = largestImage?.(match, queryClient);
    return { html, dataScript, head: image ? imagePreloadLink(image.src, image.sizes) : '' };
  }
  return null;
}
