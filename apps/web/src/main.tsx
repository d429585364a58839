import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './app/app.tsx';
import { routes } from './app/router.tsx';
import { SERVER_DATA_ID } from './ssr-data.ts';
import './index.css';

const queryClient = createQueryClient();
const container = document.getElementById('root')!;
const serverData = document.getElementById(SERVER_DATA_ID);

/**
 * A page the server rendered (entry-server.tsx) carries its data as JSON: the query cache starts
 * with it and the page's code is loaded before React takes the HTML over, so the first browser
 * render is the server's and nothing is fetched twice.
 */
async function start() {
  if (serverData?.textContent) hydrate(queryClient, JSON.parse(serverData.textContent));
  const matches = serverData ? (matchRoutes(routes, window.location) ?? []) : [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
  const router = createBrowserRouter(routes);
  const app = (
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
  // A transition makes the first render interruptible: React yields to the browser between pieces of
  // work instead of one long task, which keeps a cheap phone responsive while the page starts.
  startTransition(() => {
    if (serverData) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}

void start();
