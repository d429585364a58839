import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { serverBuildOptions } from '../../scripts/build-options.ts';

const apiRoot = path.resolve(import.meta.dirname, '../..');
const src = path.join(apiRoot, 'src');
const rel = (file: string) => path.relative(apiRoot, path.resolve(file)).split(path.sep).join('/');

/** Test code by its place or name: the test folder (fakes in src/test/mocks/), tests, fakes and mocks anywhere. */
const TEST_CODE = /^src\/test\/|\.test\.ts$|\.test-utils\.|fake|mock/i;

describe('the production build', () => {
  it('compiles the server from its entries without any test code or fake', async () => {
    // The same options as `npm run build`, asked for the list of files it reads instead of writing.
    const result = await build({ ...serverBuildOptions, write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs).map(rel);
    // It did compile the shop, providers included (an empty list would prove nothing).
    expect(inputs).toEqual(
      expect.arrayContaining([
        'src/main.ts',
        'src/app.ts',
        'src/providers/payments/efi.provider.ts',
        'src/providers/payments/simulado.provider.ts',
        'src/providers/storage/index.ts',
      ]),
    );
    expect(inputs.filter((file) => TEST_CODE.test(file))).toEqual([]);
    const code = result.outputFiles.map((f) => f.text).join('\n');
    expect(code).not.toMatch(/startFakeEfi|startFakeS3/);
  });

  it('keeps every fake in src/test/mocks/, beside the tests', () => {
    const fakes: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/fake|mock/i.test(entry.name)) fakes.push(rel(full));
      }
    };
    walk(src);
    expect(fakes.filter((file) => !file.startsWith('src/test/mocks/'))).toEqual([]);
    expect(fakes).toEqual(
      expect.arrayContaining(['src/test/mocks/fake-efi.ts', 'src/test/mocks/fake-s3.ts']),
    );
  });
});
