import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders, createQueryClient } from './app/app.tsx';
import { AppRoutes } from './app/app-routes.tsx';
import { preloadRoute } from './app/router.tsx';
import { SERVER_DATA_ID } from './ssr-data.ts';
import './index.css';

const queryClient = createQueryClient();
const container = document.getElementById('root')!;
const serverData = document.getElementById(SERVER_DATA_ID);

const app = (
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      {/* Navigations apply at once (not as transitions): "Sair" leaves the account page before the token
          is forgotten (lib/session.tsx), as the login guard would otherwise send the shopper to /login. */}
      <BrowserRouter useTransitions={false}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>
);

/** Lets the browser paint and answer input before the next step of the start. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A page the server rendered (entry-server.tsx) carries its data as JSON: the query cache starts
 * with it and the page's code is loaded before React takes the HTML over, so the first browser
 * render is the server's and nothing is fetched twice.
 */
async function start() {
  // Evaluating this module runs React's renderer for the first time (its code is only set up when
  // first imported): the page's data and code come in a task of their own.
  await nextTask();
  if (serverData?.textContent) {
    hydrate(queryClient, JSON.parse(serverData.textContent));
    await preloadRoute(window.location.pathname);
  }
  // React's start (its event listeners, then hydration) in a task of its own as well.
  await nextTask();
  // A transition makes the first render interruptible: React yields to the browser between pieces of
  // work instead of one long task, which keeps a cheap phone responsive while the page starts.
  startTransition(() => {
    if (serverData) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}

void start();
