import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBoundaries, formatBreach, importCircles, listSources } from './check-boundaries.ts';
import { againstDebt, checkTableOwners, readDebt, readOwners } from './check-table-owners.ts';

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
  'apps/web/src/features/painel/shell/painel-api.ts': 'export const painelFetch = 1;\n',
  'apps/web/src/features/painel/shell/components/data-table.tsx': 'export const DataTable = 1;\n',
  'apps/web/src/features/painel/catalog/api/products.ts': 'export const useProducts = 1;\n',
  'apps/web/src/features/painel/orders/api/orders.ts': 'export const useOrders = 1;\n',
  'apps/web/src/features/painel/orders/components/order-label.tsx': 'export const OrderLabel = 1;\n',
  'apps/web/src/features/painel/orders/pages/orders-page.tsx': 'export default 1;\n',
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
  'apps/web/src/features/painel/staff/pages/staff-page.tsx':
    "import { painelFetch } from '../../shell/painel-api.ts';\n",
  'apps/web/src/features/painel/catalog/components/photo-manager.tsx':
    "export { painelFetch } from '../../shell/painel-api.ts';\n",
  // Rule 14: a part of the back office importing another part (tests too), and the shell importing a part
  // outside its route table, or in it something else than a page.
  'apps/web/src/features/painel/events/pages/reports-page.tsx':
    "import { useProducts } from '../../catalog/api/products.ts';\n",
  'apps/web/src/features/painel/catalog/pages/product-page.test.tsx':
    "const orders = () => import('../../orders/pages/orders-page.tsx');\n",
  'apps/web/src/features/painel/shell/painel-layout.tsx':
    "import { useOrders } from '../orders/api/orders.ts';\n",
  'apps/web/src/features/painel/shell/painel-app.tsx':
    "import { OrderLabel } from '../orders/components/order-label.tsx';\nconst orders = () => import('../orders/pages/orders-page.tsx');\n",
  // Rule 13: a feature's page or component calling apiFetch itself, by name or taking the whole module.
  'apps/web/src/features/events/components/waiting-room.tsx':
    "import {\n  ApiRequestError,\n  apiFetch,\n} from '../../../lib/api.ts';\n",
  'apps/web/src/features/catalog/pages/search-page.tsx': "const api = () => import('../../../lib/api.ts');\n",
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
  "apps/web/src/features/painel/staff/pages/staff-page.tsx:1 importa '../../shell/painel-api.ts': No painel, só os arquivos de api/ chamam o painelFetch",
  "apps/web/src/features/painel/catalog/components/photo-manager.tsx:1 importa '../../shell/painel-api.ts': No painel, só os arquivos de api/",
  "apps/web/src/features/painel/events/pages/reports-page.tsx:1 importa '../../catalog/api/products.ts': Uma parte do painel (catalog/, orders/, events/, staff/) importa só de shell/ e de si mesma",
  "apps/web/src/features/painel/catalog/pages/product-page.test.tsx:1 importa '../../orders/pages/orders-page.tsx': Uma parte do painel",
  "apps/web/src/features/painel/shell/painel-layout.tsx:1 importa '../orders/api/orders.ts': Uma parte do painel",
  "apps/web/src/features/painel/shell/painel-app.tsx:1 importa '../orders/components/order-label.tsx': Uma parte do painel",
  "apps/web/src/features/events/components/waiting-room.tsx:4 importa '../../../lib/api.ts': Numa feature, só os arquivos de api/ chamam o apiFetch",
  "apps/web/src/features/catalog/pages/search-page.tsx:1 importa '../../../lib/api.ts': Numa feature, só os arquivos de api/ chamam o apiFetch",
  "packages/core/src/text.ts:1 importa 'react': packages/core é puro",
  "packages/core/src/text.ts:2 importa '../../../apps/api/src/app.ts': packages/core é puro",
];
const ruleOf = (line: string) =>
  line.includes('Uma parte do painel')
    ? 14
    : line.includes('Numa feature, só os arquivos de api/')
      ? 13
      : line.includes('As rotas do painel')
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
    expect(lines.at(-1)).toBe(`${expected.length} ponto(s) fora das regras de docs/architecture.md §9.`);
  });

  it('rule 12: refuses a circle of imports, type-only ones included, once per circle', () => {
    const root = layout({
      ...TARGETS,
      'apps/api/src/modules/orders/order-returns.ts':
        "import { exchangeWire } from './order-exchanges.ts';\nexport const returnsWire = 1;\n",
      'apps/api/src/modules/orders/order-exchanges.ts':
        "import type { ReturnsWire } from './order-returns.ts';\nexport const exchangeWire = 1;\n",
      // Three files in a ring.
      'apps/web/src/lib/a.ts': "import { b } from './b.ts';\nexport const a = 1;\n",
      'apps/web/src/lib/b.ts': "import { c } from './c.ts';\nexport const b = 1;\n",
      'apps/web/src/lib/c.ts': "import type { A } from './a.ts';\nexport const c = 1;\n",
    });
    const circles = checkBoundaries(root).filter((b) => b.rule === 12);
    expect(circles.map((b) => [b.file, b.line, b.target])).toEqual([
      ['apps/api/src/modules/orders/order-exchanges.ts', 1, 'apps/api/src/modules/orders/order-returns.ts'],
      ['apps/web/src/lib/a.ts', 1, 'apps/web/src/lib/b.ts'],
    ]);
    expect(circles[1]!.message).toContain(
      'apps/web/src/lib/a.ts ⇄ apps/web/src/lib/b.ts ⇄ apps/web/src/lib/c.ts',
    );
    // A file importing itself, or a one-way chain, is no circle.
    const line = (file: string, target: string) => ({
      file,
      line: 1,
      specifier: target,
      target,
      packageName: null,
    });
    expect(importCircles([line('x.ts', 'x.ts'), line('x.ts', 'y.ts'), line('y.ts', 'z.ts')])).toEqual([]);
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
      // A feature's api/ files call apiFetch; its pages and components take only the error's class and
      // types; the back office's wrapper and tests call it too.
      'apps/web/src/features/cart/api/cart.ts': "import { apiFetch } from '../../../lib/api.ts';\n",
      'apps/web/src/features/cart/cart-lines.tsx':
        "import { ApiRequestError } from '../../lib/api.ts';\nimport type { ApiError } from '../../lib/api.ts';\nimport { CartDialog } from './cart-dialog.tsx';\n",
      'apps/web/src/features/painel/shell/painel-api.ts': "import { apiFetch } from '../../../lib/api.ts';\n",
      'apps/web/src/features/cart/cart-lines.test.tsx': "import { apiFetch } from '../../lib/api.ts';\n",
      // core imports zod and itself; its tests also vitest.
      'packages/core/src/text.ts': "import { z } from 'zod';\nimport { cents } from './money.ts';\n",
      // The back office's api/ files call painelFetch; its tests may set its token.
      'apps/web/src/features/painel/staff/api/staff.ts':
        "import { painelFetch } from '../../shell/painel-api.ts';\n",
      'apps/web/src/features/painel/staff/pages/staff-page.test.tsx':
        "import { painelToken } from '../../shell/painel-api.ts';\n",
      // A part of the back office takes from the shell and from itself; the shell's route table takes the
      // parts' pages.
      'apps/web/src/features/painel/catalog/pages/products-page.tsx':
        "import { DataTable } from '../../shell/components/data-table.tsx';\nimport { useProducts } from '../api/products.ts';\n",
      'apps/web/src/features/painel/shell/painel-app.tsx':
        "const orders = () => import('../orders/pages/orders-page.tsx');\n",
      'packages/core/src/text.test.ts': "import { it } from 'vitest';\nimport { cents } from './money.ts';\n",
    });
    expect(checkBoundaries(root).map(formatBreach)).toEqual([]);
  });

  it('the repository itself keeps the rules', () => {
    expect(checkBoundaries(repo).map(formatBreach)).toEqual([]);
  });
});

/** Two owners' schema files, as the repository writes them: the owner on the first line. */
const SCHEMA: Record<string, string> = {
  'apps/api/src/db/schema/orders.ts': [
    '// Owner: orders. The tables of orders.',
    "export const orders = pgTable('orders', {});",
    "export const orderItems = pgTable(\n  'order_items',\n  {},\n);",
  ].join('\n'),
  'apps/api/src/db/schema/catalog.ts': [
    '// Owner: catalog. The tables of products.',
    "export const products = pgTable('products', {});",
  ].join('\n'),
  'apps/api/src/db/schema/index.ts': "export * from './orders.ts';\nexport * from './catalog.ts';\n",
  'apps/api/src/modules/catalog/index.ts':
    "export default fp(plugin, { name: 'catalog', dependencies: ['infra'] });\n",
  'apps/api/src/modules/orders/index.ts':
    "export default fp(plugin, { name: 'orders', dependencies: ['infra', 'catalog'] });\n",
  'apps/api/src/modules/fiscal/index.ts':
    "export default fp(plugin, { name: 'fiscal', dependencies: ['infra'] });\n",
};
const IMPORT = "import { orderItems, orders, products } from '../../db/schema/index.ts';\n";

function ownerBreaches(files: Record<string, string>) {
  const root = layout({ ...SCHEMA, ...files });
  return checkTableOwners(root, listSources(root)).map(
    (b) => `${b.file}:${b.line} regra ${b.rule} ${b.table}`,
  );
}

describe('every table has one owner (docs/architecture.md §9, rules 10 and 11)', () => {
  it("reads each schema file's owner from its first line, and names a file without one", () => {
    const root = layout({
      ...SCHEMA,
      'apps/api/src/db/schema/loose.ts': "export const loose = pgTable('loose', {});\n",
    });
    const { tables, problems } = readOwners(root);
    expect(tables.map((t) => `${t.sqlName}:${t.owner}`).sort()).toEqual([
      'order_items:orders',
      'orders:orders',
      'products:catalog',
    ]);
    expect(problems).toEqual([
      'apps/api/src/db/schema/loose.ts:1 não diz na primeira linha o módulo dono das tabelas ("… owner: <módulo> …").',
    ]);
  });

  it("rule 10: a module never writes another module's table, with Drizzle or with SQL, even in a read model", () => {
    expect(
      ownerBreaches({
        'apps/api/src/modules/catalog/catalog.repository.ts': [
          IMPORT,
          'export const a = (tx) => tx.update(orders).set({});',
          'export const b = (tx) => tx.insert(products).values({});',
          'export const c = (tx) => tx.execute(sql`delete from order_items where id = 1`);',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the checked file's own interpolation.
          'export const d = (tx) => tx.execute(sql`update ${orders} set status = 1`);',
          'export const e = (db) => db.query(\'INSERT INTO "orders" (id) values (1)\');',
        ].join('\n'),
        'apps/api/src/modules/fiscal/sales.read-model.ts': `${IMPORT}export const f = (tx) => tx.delete(orderItems);\n`,
      }),
    ).toEqual([
      'apps/api/src/modules/catalog/catalog.repository.ts:3 regra 10 orders',
      'apps/api/src/modules/catalog/catalog.repository.ts:5 regra 10 order_items',
      'apps/api/src/modules/catalog/catalog.repository.ts:6 regra 10 orders',
      'apps/api/src/modules/catalog/catalog.repository.ts:7 regra 10 orders',
      'apps/api/src/modules/fiscal/sales.read-model.ts:2 regra 10 order_items',
    ]);
  });

  it("rule 11: another module's table only in a repository of a declared dependency, or in a read model", () => {
    expect(
      ownerBreaches({
        // Outside a repository, even of a declared dependency.
        'apps/api/src/modules/orders/orders.service.ts': `${IMPORT}export const a = (db) => db.select().from(products);\n`,
        // A repository of a module that does not declare the owner as a dependency.
        'apps/api/src/modules/catalog/catalog.repository.ts': [
          IMPORT,
          'export const b = (db) => db.select().from(orders);',
          'export const c = (db) => db.execute(sql`select id from order_items join products on true`);',
        ].join('\n'),
      }),
    ).toEqual([
      'apps/api/src/modules/catalog/catalog.repository.ts:3 regra 11 orders',
      'apps/api/src/modules/catalog/catalog.repository.ts:4 regra 11 order_items',
      'apps/api/src/modules/orders/orders.service.ts:2 regra 11 products',
    ]);
  });

  it("lets through its own tables, a declared dependency's in a repository, and any read in a read model", () => {
    expect(
      ownerBreaches({
        'apps/api/src/modules/orders/orders.repository.ts': [
          IMPORT,
          'export const a = (tx) => tx.update(orders).set({});',
          'export const b = (db) => db.select().from(orderItems).innerJoin(products, sql`true`);',
          'export const c = (tx) => tx.execute(sql`delete from order_items where order_id in (select id from orders)`);',
        ].join('\n'),
        'apps/api/src/modules/fiscal/sales.read-model.ts': [
          IMPORT,
          'export const d = (db) => db.select().from(orders).innerJoin(orderItems, sql`true`);',
          "export const e = 'select id from products';",
        ].join('\n'),
        // Test files are not checked: they set up any table.
        'apps/api/src/modules/catalog/catalog.test.ts': `${IMPORT}tx.insert(orders).values({});\n`,
      }),
    ).toEqual([]);
  });

  it('fails the lint on a breach that is not on the debt list, and on a debt line the code no longer breaches', async () => {
    const root = layout({
      ...SCHEMA,
      'apps/api/src/modules/catalog/catalog.repository.ts': `${IMPORT}export const a = (tx) => tx.update(orders).set({});\n`,
      'scripts/table-owners-debt.txt': '# old\napps/api/src/modules/fiscal/fiscal.repository.ts 11 orders\n',
    });
    const { fresh, settled } = againstDebt(checkTableOwners(root, listSources(root)), readDebt(root));
    expect(fresh.map((b) => `${b.file} ${b.rule} ${b.table}`)).toEqual([
      'apps/api/src/modules/catalog/catalog.repository.ts 10 orders',
    ]);
    expect(settled).toEqual(['apps/api/src/modules/fiscal/fiscal.repository.ts 11 orders']);
    const failure = await run(process.execPath, ['--import', 'tsx', 'scripts/check-boundaries.ts', root], {
      cwd: repo,
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure!.stderr).toContain(
      'apps/api/src/modules/catalog/catalog.repository.ts:2 o módulo catalog escreve na tabela orders, que é do módulo orders',
    );
    expect(failure!.stderr).toContain(
      '"apps/api/src/modules/fiscal/fiscal.repository.ts 11 orders" já não acontece',
    );
  });

  it('the repository names an owner in every schema file, and its breaches are all on the shrinking debt list', () => {
    expect(readOwners(repo).problems).toEqual([]);
    const { fresh, settled } = againstDebt(checkTableOwners(repo, listSources(repo)), readDebt(repo));
    expect(fresh.map((b) => `${b.file}:${b.line} ${b.message}`)).toEqual([]);
    expect(settled).toEqual([]);
  });
});
