/**
 * The check-in desk as an installable web app (docs/decisions/0063): while the desk is open the page
 * points to the desk's own manifest, and registers the desk's service worker, whose scope is only
 * `/painel/checkin/`: the storefront's pages are never controlled, cached or slowed by it. The files
 * this page already loaded are handed to the worker to keep, so the desk opens again without the network.
 */
export const DESK_SCOPE = '/painel/checkin/';
const DESK_MANIFEST = '/painel-checkin.webmanifest';
const DESK_WORKER = '/painel-checkin-sw.js';

export function installDeskApp(): () => void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  const before = link?.getAttribute('href') ?? null;
  if (link) link.href = DESK_MANIFEST;
  if ('serviceWorker' in navigator && window.isSecureContext) {
    void navigator.serviceWorker
      .register(DESK_WORKER, { scope: DESK_SCOPE })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        const files = performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name))
          .filter((u) => u.origin === location.origin && u.pathname.startsWith('/assets/'))
          .map((u) => u.pathname);
        registration.active?.postMessage({ type: 'keep', urls: [...new Set(files)] });
      })
      .catch(() => {
        // Without a worker the desk still works offline while this page stays open.
      });
  }
  return () => {
    if (link && before) link.setAttribute('href', before);
  };
}
