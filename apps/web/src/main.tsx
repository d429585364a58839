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

/**
 * A page the server rendered (entry-server.tsx) carries its data as JSON: the query cache starts
 * with it and the page's code is loaded before React takes the HTML over, so the first browser
 * render is the server's and nothing is fetched twice.
 */
async function start() {
  if (serverData?.textContent) {
    hydrate(queryClient, JSON.parse(serverData.textContent));
    await preloadRoute(window.location.pathname);
  }
  // A task of its own: evaluating the code and React's start (its event listeners, then hydration)
  // would otherwise be one long task.
  await new Promise((resolve) => setTimeout(resolve, 0));
  // A transition makes the first render interruptible: React yields to the browser between pieces of
  // work instead of one long task, which keeps a cheap phone responsive while the page starts.
  startTransition(() => {
    if (serverData) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}

void start();
