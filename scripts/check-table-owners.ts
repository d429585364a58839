/**
 * The data's rooms (docs/architecture.md §9, rules 10 and 11): every table has one owner module, named
 * on the first line of its schema file (`apps/api/src/db/schema/<file>.ts`), and
 *
 * 10. no module writes another module's table: neither with Drizzle (`insert(t)`, `update(t)`,
 *     `delete(t)`) nor with raw SQL (`insert into t`, `update t`, `delete from t`, also with the table
 *     interpolated as `${t}`); a write to another module's rows is a call to its service;
 * 11. a module names another module's table only in its repositories (`*.repository.ts`) and only of a
 *     module it declares as a dependency (`fastify-plugin`'s `dependencies` in its `index.ts`), or in a
 *     named read model (`*.read-model.ts`: dashboards, reports, metrics, the fiscal sale queries, the
 *     personal-data export), which may read any table and, by rule 10, write none of another's.
 *
 * Tables are found by their Drizzle name (imported from `db/schema`) and by their SQL name in raw SQL
 * text (tagged `sql` templates and SQL-looking strings). Test files are not checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SCHEMA_DIR = 'apps/api/src/db/schema';
const MODULES_DIR = 'apps/api/src/modules';

export interface TableOwner {
  /** The Drizzle export (`registrations`). */
  name: string;
  /** The SQL table name (`registrations`). */
  sqlName: string;
  owner: string;
  file: string;
}

export interface OwnerBreach {
  file: string;
  line: number;
  rule: 10 | 11;
  table: string;
  owner: string;
  module: string;
  message: string;
}

const OWNER_LINE = /owner:\s*`?([a-z][a-z-]*)`?/i;
const TABLE_DECL = /export const (\w+) = pgTable\(\s*'([a-z_0-9]+)'/g;

/** The schema files' owners: each file's first line names its module (`… owner: registrations …`). */
export function readOwners(root: string): { tables: TableOwner[]; problems: string[] } {
  const dir = path.join(root, SCHEMA_DIR);
  const tables: TableOwner[] = [];
  const problems: string[] = [];
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.includes('.test.'));
  } catch {
    return { tables, problems };
  }
  for (const f of files.sort()) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    const owner = OWNER_LINE.exec(text.split('\n', 1)[0] ?? '')?.[1];
    const file = `${SCHEMA_DIR}/${f}`;
    if (!owner) {
      problems.push(`${file}:1 não diz na primeira linha o módulo dono das tabelas ("… owner: <módulo> …").`);
      continue;
    }
    for (const m of text.matchAll(TABLE_DECL)) tables.push({ name: m[1]!, sqlName: m[2]!, owner, file });
  }
  return { tables, problems };
}

/** Each module's declared dependencies, read from `fp(…, { name, dependencies: [...] })` in its index.ts. */
export function readDependencies(root: string): Map<string, Set<string>> {
  const deps = new Map<string, Set<string>>();
  const dir = path.join(root, MODULES_DIR);
  let modules: string[] = [];
  try {
    modules = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return deps;
  }
  for (const m of modules) {
    let text = '';
    try {
      text = readFileSync(path.join(dir, m, 'index.ts'), 'utf8');
    } catch {
      deps.set(m, new Set());
      continue;
    }
    const list = /dependencies:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? '';
    deps.set(m, new Set([...list.matchAll(/'([a-z-]+)'/g)].map((x) => x[1]!)));
  }
  return deps;
}

const WRITE_METHODS = new Set(['insert', 'update', 'delete']);
const SQL_WRITE = /\b(insert\s+into|update|delete\s+from)\s+"?([a-z_0-9]+)"?/gi;
const SQL_WRITE_BEFORE_INTERPOLATION = /\b(insert\s+into|update|delete\s+from)\s*"?$/i;
const SQL_READ = /\b(from|join)\s+"?([a-z_0-9]+)"?/gi;
const LOOKS_LIKE_SQL = /\b(select|insert\s+into|update\s+\S+\s+set|delete\s+from|with\s+\w+\s+as)\b/i;

const MODULE_FILE = /^apps\/api\/src\/modules\/([^/]+)\/(.+)$/;
const isTest = (file: string) => /\.(test|spec)(-utils)?\.tsx?$/.test(file) || file.includes('/test/');

/** Every breach of rules 10 and 11 in the modules under `root`. */
export function checkTableOwners(root: string, sources: string[]): OwnerBreach[] {
  const { tables } = readOwners(root);
  if (tables.length === 0) return [];
  const byName = new Map(tables.map((t) => [t.name, t]));
  const bySql = new Map(tables.map((t) => [t.sqlName, t]));
  const deps = readDependencies(root);
  const breaches: OwnerBreach[] = [];

  for (const absolute of sources) {
    const file = path.relative(root, absolute).split(path.sep).join('/');
    const where = MODULE_FILE.exec(file);
    if (!where || isTest(file)) continue;
    const module = where[1]!;
    const base = path.basename(file);
    const readModel = base.endsWith('.read-model.ts');
    const repository = base.endsWith('.repository.ts');
    const text = readFileSync(absolute, 'utf8');
    const source = ts.createSourceFile(absolute, text, ts.ScriptTarget.Latest, true);
    const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

    // Table names imported from the schema, under the local name they are used by.
    const imported = new Map<string, TableOwner>();
    for (const stmt of source.statements) {
      if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier)) continue;
      if (!/db\/schema(\/|$)/.test(stmt.moduleSpecifier.text)) continue;
      const named = stmt.importClause?.namedBindings;
      if (!named || !ts.isNamedImports(named)) continue;
      for (const el of named.elements) {
        const table = byName.get((el.propertyName ?? el.name).text);
        if (table) imported.set(el.name.text, table);
      }
    }

    const seen = new Set<string>();
    const report = (node: ts.Node, rule: 10 | 11, table: TableOwner) => {
      const line = lineOf(node);
      const key = `${line}:${rule}:${table.sqlName}`;
      if (seen.has(key)) return;
      seen.add(key);
      breaches.push({
        file,
        line,
        rule,
        table: table.sqlName,
        owner: table.owner,
        module,
        message:
          rule === 10
            ? `o módulo ${module} escreve na tabela ${table.sqlName}, que é do módulo ${table.owner}: chame o serviço de ${table.owner} (app.${camel(table.owner)}).`
            : `o módulo ${module} lê a tabela ${table.sqlName}, do módulo ${table.owner}, ${
                repository
                  ? `sem declarar ${table.owner} entre as dependências do plugin (index.ts)`
                  : 'fora de um repositório'
              }: leia pelo serviço de ${table.owner}, ou num repositório (com a dependência declarada), ou num *.read-model.ts.`,
      });
    };
    const foreign = (t: TableOwner | undefined): t is TableOwner => !!t && t.owner !== module;
    const mayRead = (t: TableOwner) => readModel || (repository && (deps.get(module)?.has(t.owner) ?? false));

    const sqlText = (s: string, node: ts.Node) => {
      if (!LOOKS_LIKE_SQL.test(s)) return;
      const written = new Set<string>();
      for (const m of s.matchAll(SQL_WRITE)) {
        const t = bySql.get(m[2]!.toLowerCase());
        if (foreign(t)) report(node, 10, t);
        if (t) written.add(t.sqlName);
      }
      for (const m of s.matchAll(SQL_READ)) {
        const t = bySql.get(m[2]!.toLowerCase());
        if (foreign(t) && !written.has(t.sqlName) && !mayRead(t)) report(node, 11, t);
      }
    };

    // Tables interpolated after a write keyword, reported as writes and not again as reads.
    const interpolatedWrites = new Set<ts.Node>();
    const visit = (node: ts.Node) => {
      // Drizzle writes: db.insert(t), tx.update(t), db.delete(t).
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        WRITE_METHODS.has(node.expression.name.text)
      ) {
        const arg = node.arguments[0];
        if (arg && ts.isIdentifier(arg)) {
          const t = imported.get(arg.text);
          if (foreign(t)) report(node, 10, t);
        }
      }
      // Raw SQL, with a table interpolated after a write keyword: sql`update ${t} set …`.
      if (ts.isTemplateExpression(node)) {
        let before = node.head.text;
        const whole = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? ');
        for (const span of node.templateSpans) {
          if (ts.isIdentifier(span.expression) && SQL_WRITE_BEFORE_INTERPOLATION.test(before)) {
            const t = imported.get(span.expression.text);
            if (foreign(t)) report(span.expression, 10, t);
            interpolatedWrites.add(span.expression);
          }
          before = span.literal.text;
        }
        sqlText(whole, node);
      } else if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isStringLiteral(node)) {
        sqlText(node.text, node);
      }
      // Any other mention of a foreign table's Drizzle name is a read.
      if (
        ts.isIdentifier(node) &&
        !ts.isImportSpecifier(node.parent) &&
        !isWriteTarget(node) &&
        !interpolatedWrites.has(node)
      ) {
        const t = imported.get(node.text);
        if (foreign(t) && !mayRead(t)) report(node, 11, t);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return breaches.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** `t` in `db.insert(t)`, `tx.update(t)`, `tx.delete(t)`: reported as a write, not again as a read. */
function isWriteTarget(node: ts.Identifier): boolean {
  const call = node.parent;
  return (
    ts.isCallExpression(call) &&
    call.arguments[0] === node &&
    ts.isPropertyAccessExpression(call.expression) &&
    WRITE_METHODS.has(call.expression.name.text)
  );
}

/**
 * Breaches that were already in the code when rules 10 and 11 came in, one `file rule table` a line
 * (`scripts/table-owners-debt.txt`). The check accepts them and fails on any other; a listed line the
 * code no longer breaches fails too, so the list only shrinks. Regenerate it with `--write-debt`.
 */
export const DEBT_FILE = 'scripts/table-owners-debt.txt';

export const debtKey = (b: Pick<OwnerBreach, 'file' | 'rule' | 'table'>) => `${b.file} ${b.rule} ${b.table}`;

export function readDebt(root: string): Set<string> {
  let text = '';
  try {
    text = readFileSync(path.join(root, DEBT_FILE), 'utf8');
  } catch {
    return new Set();
  }
  return new Set(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}

/** The breaches not on the debt list, and the debt lines that no longer match a breach. */
export function againstDebt(breaches: OwnerBreach[], debt: Set<string>) {
  const found = new Set(breaches.map(debtKey));
  return {
    fresh: breaches.filter((b) => !debt.has(debtKey(b))),
    settled: [...debt].filter((k) => !found.has(k)),
  };
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
