/** Compiles the server for production into apps/api/dist (what and how: build-options.ts). */
import { build } from 'esbuild';
import { serverBuildOptions } from './build-options.ts';

const started = performance.now();
await build(serverBuildOptions);
console.log(`API compilada em apps/api/dist (${Math.round(performance.now() - started)} ms)`);
