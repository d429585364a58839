import { createRequire } from 'node:module';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig, type Plugin } from 'vite';

/**
 * Vite wraps each `import()` of the browser build in its preload helper, which with `modulePreload:
 * false` is left to fetch the stylesheets of the imported chunk. The app has one stylesheet, loaded
 * by the page (`cssCodeSplit: false` below keeps it so), so the wrapper only imports: about 0.6 KB
 * gzip of the home page's JavaScript budget for nothing. A failed import still rejects (the page's
 * error boundary shows it).
 */
const noPreloadHelper: Plugin = {
  name: 'passada:no-preload-helper',
  apply: 'build',
  enforce: 'pre',
  resolveId: (id) => (id === PRELOAD_HELPER ? id : undefined),
  load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : undefined),
};
const PRELOAD_HELPER = '\0vite/preload-helper.js';

const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    noPreloadHelper,
    react(),
    tailwindcss(),
    // `BUNDLE_REPORT=1 npm run build -w apps/web` writes dist/bundle-report.html: what each chunk holds,
    // with gzip sizes, to see what the home page loads and keep it under its budget.
    process.env.BUNDLE_REPORT && !isSsrBuild
      ? visualizer({ filename: 'dist/bundle-report.html', gzipSize: true, template: 'treemap' })
      : null,
  ],
  resolve: {
    // react-router's package exports send every build to its development files, which keep its
    // developer warnings and the "Hey developer" screens (remix-run/react-router#14102); the app's
    // build takes the production files next to them.
    alias:
      command === 'build' && !isSsrBuild
        ? [{ find: /^react-router$/, replacement: reactRouterProduction }]
        : [],
  },
  server: {
    port: 5173,
    // In development the API runs on its own port; in production one process serves both.
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  build: isSsrBuild
    ? {
        // `vite build --ssr src/entry-server.tsx`: the server renderer of the first pages, run by the
        // API (apps/api/src/plugins/web-shell.ts). npm packages stay imports; our core is bundled.
        outDir: '../api/dist/ssr',
        emptyOutDir: true,
        copyPublicDir: false,
        target: 'node20',
      }
    : {
        target: 'es2022',
        sourcemap: false,
        // The server reads it to hint the chunks of the page being opened (apps/api/src/plugins/web-shell.ts).
        manifest: true,
        // No preload helper in the home page's budget: the server hints each page's chunks itself
        // (apps/api/src/plugins/web-shell.ts), and a later page's few shared chunks are mostly cached.
        modulePreload: false,
        // One stylesheet for every page: no chunk needs its own, so no import waits for one (noPreloadHelper).
        cssCodeSplit: false,
        rolldownOptions: {
          output: {
            // What every page runs (React, the router, the app's frame) in one file, and the product card
            // with what it shows in another: a few larger files compress better than many small ones
            // (the home page's JavaScript budget, README). Each group also takes what its modules import.
            codeSplitting: {
              groups: [
                {
                  name: 'app-shell',
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]|src[\\/]app[\\/](app|app-routes|router|route-error-page)\.tsx|src[\\/]app[\\/]layout[\\/](root-layout|site-header|site-footer)\.tsx/,
                },
                {
                  name: 'product-card',
                  test: /src[\\/]components[\\/](product-card|price|responsive-image)\.tsx|core[\\/]src[\\/]images\.ts/,
                },
              ],
            },
          },
        },
      },
  ssr: { noExternal: ['@passada/core'] },
}));
