import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppProviders, createQueryClient } from './app/app.tsx';
import { AppRoutes } from './app/app-routes.tsx';
import { preloadRoute } from './app/router.tsx';
import { categoryProductsQuery, productQuery } from './features/catalog/api/products.ts';
import { publicConfigQuery } from './lib/config-api.ts';
import { eventQuery, eventsPageQuery } from './lib/events-api.ts';
import { SERVER_DATA_ID } from './ssr-data.ts';

/** Answers an API path (`/api/...`) with its JSON, or throws; the server reads its own API. */
export type LoadJson = (apiPath: string) => Promise<unknown>;

/** The pages rendered on the server, with the API answers each shows (the same as its queries). */
const PAGES: ReadonlyArray<{
  pattern: RegExp;
  prefetch(
    match: RegExpExecArray,
    search: URLSearchParams,
    client: QueryClient,
    load: LoadJson,
  ): Promise<void>;
}> = [
  {
    pattern: /^\/$/,
    prefetch: (_, __, client, load) =>
      Promise.all(
        (['feminino', 'masculino'] as const).map((category) =>
          client.prefetchQuery({
            ...categoryProductsQuery(category),
            queryFn: () => load(`/api/products/category/${category}/`) as never,
          }),
        ),
      ).then(() => undefined),
  },
  {
    pattern: /^\/(feminino|masculino|acessorios)\/?$/,
    prefetch: (match, _, client, load) => {
      const category = match[1] as 'feminino' | 'masculino' | 'acessorios';
      return client.prefetchQuery({
        ...categoryProductsQuery(category),
        queryFn: () => load(`/api/products/category/${category}/`) as never,
      });
    },
  },
  {
    pattern: /^\/produto\/(\d{1,9})\/?$/,
    prefetch: (match, _, client, load) =>
      client.prefetchQuery({
        ...productQuery(match[1]!),
        queryFn: () => load(`/api/products/${match[1]}/`) as never,
      }),
  },
  {
    pattern: /^\/eventos\/?$/,
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
  {
    pattern: /^\/eventos\/register\/(\d{1,9})\/?$/,
    prefetch: (match, _, client, load) =>
      client.prefetchQuery({
        ...eventQuery(match[1]!),
        queryFn: () => load(`/api/events/${match[1]}/`) as never,
      }),
  },
];

export interface RenderedPage {
  /** The markup inside `<div id="root">`. */
  html: string;
  /** `<script type="application/json">` with the query data the browser starts from. */
  dataScript: string;
}

/** JSON inside a script element: `<` escaped so no text can close the element early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Renders one of the pages above with its data, or answers null for any other address (the browser
 * renders those itself). A page whose data fails to load is left to the browser too.
 */
export async function render(url: string, load: LoadJson): Promise<RenderedPage | null> {
  const parsed = new URL(url, 'http://localhost');
  for (const { pattern, prefetch } of PAGES) {
    const match = pattern.exec(parsed.pathname);
    if (!match) continue;
    const queryClient = createQueryClient();
    // Nothing waits here for a retry: a failed answer leaves the page to the browser.
    queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
    await prefetch(match, parsed.searchParams, queryClient, load);
    if (
      queryClient
        .getQueryCache()
        .getAll()
        .some((q) => q.state.status !== 'success')
    )
      return null;
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
    return { html, dataScript };
  }
  return null;
}
