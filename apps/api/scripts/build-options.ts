/**
 * What `scripts/build.ts` compiles for production (`npm run build`, then `npm start` runs it with plain `node`):
 * one ESM file per entry (dist/main.js, the server; dist/cli.js, migrate and seed), with our code and @passada/core bundled in and every npm
 * package left to node_modules (native addons, PGlite's WebAssembly and pg-boss load their own
 * files). Starting no longer pays for the TypeScript loader, and memory holds no compiler.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';

const apiRoot = path.resolve(import.meta.dirname, '..');
export const outdir = path.join(apiRoot, 'dist');

/** Bare imports (npm packages) stay imports, except our own workspace package, shipped as TypeScript. */
const packagesStayExternal: Plugin = {
  name: 'packages-stay-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@passada/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Source files find the repository (settings, migrations) from their own `import.meta.url`. In the
 * bundle that would be dist/main.js, so each keeps the address of its source file, worked out at
 * run time from where dist/main.js is: the checkout can still be moved.
 */
const keepSourceLocation: Plugin = {
  name: 'keep-source-location',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const code = readFileSync(args.path, 'utf8');
      if (!code.includes('import.meta.url')) return undefined;
      const fromDist = path.relative(outdir, args.path).split(path.sep).join('/');
      return {
        contents: code.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromDist)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

/**
 * The two entries and everything they import, nothing else: test code (src/test/, with the fakes in
 * src/test/mocks/) stays out because no product file imports it, which
 * src/test/production-build.test.ts checks on this very list.
 */
export const serverBuildOptions: BuildOptions = {
  entryPoints: [path.join(apiRoot, 'src/main.ts'), path.join(apiRoot, 'src/db/cli.ts')],
  outdir,
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [packagesStayExternal, keepSourceLocation],
};
