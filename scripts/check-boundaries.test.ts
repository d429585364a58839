import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBoundaries, formatBreach } from './check-boundaries.ts';

const repo = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

/** A folder laid out like the repository, holding only the files given. */
function layout(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'passada-boundaries-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  folders.push(root);
  return root;
}
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** The files every case imports from, so relative imports resolve to real files. */
const TARGETS: Record<string, string> = {
  'apps/api/src/app.ts': 'export const app = 1;\n',
  'apps/api/src/modules/catalog/index.ts': 'export default 1;\n',
  'apps/api/src/modules/catalog/catalog.service.ts': 'export type CatalogService = object;\n',
  'apps/api/src/modules/catalog/catalog-admin.ts': 'export type StaffProduct = object;\n',
  'apps/api/src/modules/catalog/catalog.repository.ts': 'export const findProduct = 1;\n',
  'apps/api/src/modules/catalog/catalog.routes.ts': 'export const catalogRoutes = 1;\n',
  'apps/api/src/modules/orders/orders.repository.ts': 'export const findOrder = 1;\n',
  'apps/api/src/modules/painel/painel.repository.ts': 'export const listAudit = 1;\n',
  'apps/api/src/modules/accounts/index.ts': 'export const hashPassword = 1;\n',
  'apps/api/src/modules/staff/index.ts': 'export const audited = 1;\n',
  'apps/api/src/modules/staff/staff.repository.ts': 'export const findStaff = 1;\n',
  'apps/web/src/features/cart/cart-dialog.tsx': 'export const CartDialog = 1;\n',
  'apps/web/src/features/catalog/pages/product-page.tsx': 'export default 1;\n',
  'apps/web/src/lib/api.ts': 'export const apiFetch = 1;\n',
  'apps/web/src/features/painel/painel-api.ts': 'export const painelFetch = 1;\n',
  'packages/core/src/money.ts': 'export const cents = 1;\n',
};

/** One file per kind of breach, each line an import the rule of §9 named in `expected` refuses. */
const BREACHES: Record<string, string> = {
  // Rule 3: shared web folders importing a feature.
  'apps/web/src/lib/cart-summary.ts': "import { CartDialog } from '../features/cart/cart-dialog.tsx';\n",
  'apps/web/src/components/payments/pix.tsx':
    "export { CartDialog } from '../../features/cart/cart-dialog.tsx';\n",
  // Rule 5: the web app importing the API, by path and by package name; and the other way round.
  'apps/web/src/features/home/home-page.tsx':
    "import { app } from '../../../../api/src/app.ts';\nconst lazy = () => import('@passada/api/src/app.ts');\n",
  'apps/api/src/plugins/web.ts': "import { apiFetch } from '../../../web/src/lib/api.ts';\n",
  // Rule 1: a module importing another module's internals, from its folder and from a subfolder.
  'apps/api/src/modules/orders/orders.service.ts':
    "import { findProduct } from '../catalog/catalog.repository.ts';\nimport { catalogRoutes } from '../catalog/catalog.routes.ts';\n",
  'apps/api/src/modules/orders/admin/export.ts':
    "import { findProduct } from '../../../modules/catalog/catalog.repository.ts';\n",
  // Rule 6: a back-office route opening the database, even through the back office's own repository.
  'apps/api/src/modules/painel/access.routes.ts': "import { listAudit } from './painel.repository.ts';\n",
  // Rule 7: a repository imported from outside the modules (a plugin, a test factory).
  'apps/api/src/plugins/cache.ts':
    "import { findProduct } from '../modules/catalog/catalog.repository.ts';\n",
  'apps/api/src/test/factories/orders.ts':
    "import { findOrder } from '../../modules/orders/orders.repository.ts';\n",
  // Rule 8: the staff module importing another module, even through its public face.
  'apps/api/src/modules/staff/staff.service.ts':
    "import { hashPassword } from '../accounts/index.ts';\nimport type { StaffProduct } from '../catalog/catalog-admin.ts';\n",
  // Rule 2: a feature importing another feature.
  'apps/web/src/features/cart/cart-lines.tsx': "import Product from '../catalog/pages/product-page.tsx';\n",
  // Rule 9: a back-office page or component calling painelFetch itself instead of an api/ hook.
  'apps/web/src/features/painel/pages/staff-page.tsx': "import { painelFetch } from '../painel-api.ts';\n",
  'apps/web/src/features/painel/components/photo-manager.tsx':
    "export { painelFetch } from '../painel-api.ts';\n",
  // Rule 4: packages/core importing a package or an app.
  'packages/core/src/text.ts':
    "import React from 'react';\nimport { app } from '../../../apps/api/src/app.ts';\n",
};

const expected = [
  "apps/web/src/lib/cart-summary.ts:1 importa '../features/cart/cart-dialog.tsx': components/ e lib/ são compartilhados e não importam features",
  "apps/web/src/components/payments/pix.tsx:1 importa '../../features/cart/cart-dialog.tsx': components/ e lib/ são compartilhados",
  "apps/web/src/features/home/home-page.tsx:1 importa '../../../../api/src/app.ts': O app web e a API não importam um ao outro",
  "apps/web/src/features/home/home-page.tsx:2 importa '@passada/api/src/app.ts': O app web e a API não importam um ao outro",
  "apps/api/src/plugins/web.ts:1 importa '../../../web/src/lib/api.ts': O app web e a API não importam um ao outro",
  "apps/api/src/modules/orders/orders.service.ts:1 importa '../catalog/catalog.repository.ts': Um módulo usa outro só pela face pública dele",
  "apps/api/src/modules/orders/orders.service.ts:2 importa '../catalog/catalog.routes.ts': Um módulo usa outro só pela face pública dele",
  "apps/api/src/modules/orders/admin/export.ts:1 importa '../../../modules/catalog/catalog.repository.ts': Um módulo usa outro",
  "apps/web/src/features/cart/cart-lines.tsx:1 importa '../catalog/pages/product-page.tsx': Uma feature não importa outra",
  "apps/api/src/modules/painel/access.routes.ts:1 importa './painel.repository.ts': As rotas do painel (modules/painel/*.routes.ts) não abrem o banco",
  "apps/api/src/plugins/cache.ts:1 importa '../modules/catalog/catalog.repository.ts': O repositório de um módulo só é importado pelos arquivos do próprio módulo",
  "apps/api/src/test/factories/orders.ts:1 importa '../../modules/orders/orders.repository.ts': O repositório de um módulo só é importado",
  "apps/api/src/modules/staff/staff.service.ts:1 importa '../accounts/index.ts': modules/staff é o módulo de baixo",
  "apps/api/src/modules/staff/staff.service.ts:2 importa '../catalog/catalog-admin.ts': modules/staff é o módulo de baixo",
  "apps/web/src/features/painel/pages/staff-page.tsx:1 importa '../painel-api.ts': No painel, só os arquivos de api/ chamam o painelFetch",
  "apps/web/src/features/painel/components/photo-manager.tsx:1 importa '../painel-api.ts': No painel, só os arquivos de api/",
  "packages/core/src/text.ts:1 importa 'react': packages/core é puro",
  "packages/core/src/text.ts:2 importa '../../../apps/api/src/app.ts': packages/core é puro",
];
const ruleOf = (line: string) =>
  line.includes('As rotas do painel')
    ? 6
    : line.includes('O repositório de um módulo')
      ? 7
      : line.includes('modules/staff é o módulo de baixo')
        ? 8
        : line.includes('components/ e lib/')
          ? 3
          : line.includes('O app web e a API')
            ? 5
            : line.includes('Um módulo')
              ? 1
              : line.includes('Uma feature')
                ? 2
                : line.includes('No painel')
                  ? 9
                  : 4;

describe('import boundaries (docs/architecture.md §9)', () => {
  it('npm run lint runs the check after Biome', () => {
    const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
    expect(pkg.scripts.lint).toMatch(/biome check \. && node --import tsx scripts\/check-boundaries\.ts$/);
  });

  it('fails on each kind of breach, naming the file, the import and the rule of §9', async () => {
    const root = layout({ ...TARGETS, ...BREACHES });
    const failure = await run(process.execPath, ['--import', 'tsx', 'scripts/check-boundaries.ts', root], {
      cwd: repo,
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const lines = failure!.stderr.trim().split('\n').filter(Boolean);
    for (const line of expected) {
      const found = lines.find((l) => l.startsWith(line));
      expect(found, `sem a linha: ${line}\n${failure!.stderr}`).toBeDefined();
      expect(found).toMatch(new RegExp(`\\(docs/architecture\\.md §9, regra ${ruleOf(line)}\\)$`));
    }
    // Nothing else: one line per breach, then the count.
    expect(lines).toHaveLength(expected.length + 1);
    expect(lines.at(-1)).toBe(
      `${expected.length} importação(ões) fora das regras de docs/architecture.md §9.`,
    );
  });

  it('lets through what §9 allows', () => {
    const root = layout({
      ...TARGETS,
      // A module's public face: its plugin, its service, its staff service; its own repository.
      'apps/api/src/modules/orders/orders.service.ts': [
        "import type { CatalogService } from '../catalog/catalog.service.ts';",
        "import type { StaffProduct } from '../catalog/catalog-admin.ts';",
        "import catalog from '../catalog/index.ts';",
        "import { findOrder } from './orders.repository.ts';",
        "import { cents } from '@passada/core/money';",
      ].join('\n'),
      // The back office's routes use the staff module and other modules' staff services; the staff
      // module uses its own repository; outside the modules, a repository's shared parts come
      // through the owner's service.
      'apps/api/src/modules/painel/catalog.routes.ts':
        "import { audited } from '../staff/index.ts';\nimport type { StaffProduct } from '../catalog/catalog-admin.ts';\n",
      'apps/api/src/modules/staff/staff.service.ts': "import { findStaff } from './staff.repository.ts';\n",
      'apps/api/src/test/factories/catalog.ts':
        "import type { CatalogService } from '../../modules/catalog/catalog.service.ts';\n",
      // app/ routes to features; features use lib/ and core.
      'apps/web/src/app/router.tsx':
        "const page = () => import('../features/catalog/pages/product-page.tsx');\n",
      'apps/web/src/features/cart/cart-lines.tsx':
        "import { apiFetch } from '../../lib/api.ts';\nimport { CartDialog } from './cart-dialog.tsx';\n",
      // core imports zod and itself; its tests also vitest.
      'packages/core/src/text.ts': "import { z } from 'zod';\nimport { cents } from './money.ts';\n",
      // The back office's api/ files call painelFetch; its tests may set its token.
      'apps/web/src/features/painel/api/staff.ts': "import { painelFetch } from '../painel-api.ts';\n",
      'apps/web/src/features/painel/pages/staff-page.test.tsx':
        "import { painelToken } from '../painel-api.ts';\n",
      'packages/core/src/text.test.ts': "import { it } from 'vitest';\nimport { cents } from './money.ts';\n",
    });
    expect(checkBoundaries(root).map(formatBreach)).toEqual([]);
  });

  it('the repository itself keeps the rules', () => {
    expect(checkBoundaries(repo).map(formatBreach)).toEqual([]);
  });
});
