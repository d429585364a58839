/**
 * The import rules of docs/architecture.md §9 ("Who may import whom"), checked on resolved paths.
 * `npm run lint` runs it after Biome. Biome's `noRestrictedImports` matches the text of an import,
 * so `../../modules/x/…`, a deeper folder or a package name slipped past it; here every import
 * (static, `export … from`, dynamic `import()`, `require`) is resolved to the file it names first.
 *
 *   node --import tsx scripts/check-boundaries.ts [root] [--write-debt]
 *
 * Exits 1 and prints one line per breach: the file and line, what it imports, and the rule.
 */
import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {
  againstDebt,
  checkTableOwners,
  DEBT_FILE,
  debtKey,
  readDebt,
  readOwners,
} from './check-table-owners.ts';

/** Where the checked source lives, relative to the repository root. */
const SOURCE_DIRS = ['packages/core/src', 'apps/api/src', 'apps/api/scripts', 'apps/web/src', 'apps/web/e2e'];

/** Our workspace packages by name, for a bare import that does not resolve (or resolves elsewhere). */
const WORKSPACES: Record<string, string> = {
  '@passada/core': 'packages/core',
  '@passada/api': 'apps/api',
  '@passada/web': 'apps/web',
};

const SECTION = 'docs/architecture.md §9';

export interface Breach {
  /** Repository-relative path of the importing file. */
  file: string;
  line: number;
  /** The import as written. */
  specifier: string;
  /** Repository-relative path it resolves to, or the package name. */
  target: string;
  rule: number;
  message: string;
}

export interface Import {
  file: string;
  line: number;
  specifier: string;
  /** Repository-relative path (forward slashes), or null for an npm package. */
  target: string | null;
  /** The package name for a bare import (`zod`, `@passada/core`). */
  packageName: string | null;
  /**
   * The names a `{ … }` import or re-export takes (`{ a, type B, c as d }` → a, B, c); absent when it
   * takes the whole module (`* as`, a default, `import()`, `export *`).
   */
  names?: string[];
}

interface Rule {
  rule: number;
  message: string;
  /** Whether an import breaks the rule. */
  breaks(imp: Import): boolean;
}

const MODULE = /^apps\/api\/src\/modules\/([^/]+)\/(.+)$/;
/** The back office's route files: its HTTP face, which holds no SQL (decision 0030). */
const PAINEL_ROUTES = /^apps\/api\/src\/modules\/painel\/[^/]+\.routes\.ts$/;
/** A repository: the SQL of a module, for that module alone. */
const REPOSITORY = /\.repository\.ts$/;
const FEATURE = /^apps\/web\/src\/features\/([^/]+)\//;

/** A module's public face: its plugin (`index.ts`), its services and its staff service (`*-admin.ts`). */
const PUBLIC_MODULE_FILE = /^(index|[\w-]+\.service|[\w-]+-admin)\.ts$/;

/** The target's match when an import goes from one folder named by `pattern` to another (module, feature). */
function crossing(pattern: RegExp, { file, target }: Import): RegExpExecArray | null {
  const from = pattern.exec(file);
  const to = target ? pattern.exec(target) : null;
  return from && to && from[1] !== to[1] ? to : null;
}

/** The back office's one fetch wrapper, which only its `api/` files may import (rule 9). */
const PAINEL_FETCH = 'apps/web/src/features/painel/shell/painel-api.ts';
/** The `api/` folders of the back office's parts (shell, catalog, orders, events, staff). */
const PAINEL_API = /^apps\/web\/src\/features\/painel\/[^/]+\/api\//;
/** A part of the back office (`shell`, `catalog`, `orders`, `events`, `staff`) and the file's path in it. */
const PAINEL_PART = /^apps\/web\/src\/features\/painel\/([^/]+)\/(.+)$/;
/** The back office's route table, the one shell file that imports the other parts (their pages) (rule 14). */
const PAINEL_ROUTE_TABLE = 'apps/web/src/features/painel/shell/painel-app.tsx';
/** The shop's fetch wrapper, whose `apiFetch` only a feature's `api/` files call (rule 13). */
const API_FETCH = 'apps/web/src/lib/api.ts';
const FEATURE_API = /^apps\/web\/src\/features\/[^/]+\/api\//;

const isTest = (file: string) => /\.test(-utils)?\.tsx?$/.test(file) || file.includes('.test-utils.');

/**
 * The rules, numbered as in docs/architecture.md §9. Messages are for the person who wrote the
 * import: what to do instead, and where the rule is explained.
 */
export const RULES: Rule[] = [
  {
    rule: 1,
    message:
      'Um módulo usa outro só pela face pública dele: index.ts, os serviços (*.service.ts) e o serviço da equipe (*-admin.ts); nunca o repositório, as rotas ou outros arquivos internos. Use o serviço que o módulo dono decora na instância (app.<módulo>).',
    breaks: (imp) => {
      const to = crossing(MODULE, imp);
      return !!to && !PUBLIC_MODULE_FILE.test(to[2]!);
    },
  },
  {
    rule: 2,
    message:
      'Uma feature não importa outra: mova o que é compartilhado para components/ ou lib/ (ou para @passada/core, se o servidor também usa).',
    breaks: (imp) => !!crossing(FEATURE, imp),
  },
  {
    rule: 3,
    message:
      'components/ e lib/ são compartilhados e não importam features: só app/ (e os pontos de entrada main.tsx e entry-server.tsx) importam features. Mova o que é compartilhado para components/ ou lib/.',
    breaks: ({ file, target }) =>
      /^apps\/web\/src\/(components|lib)\//.test(file) && !!target?.startsWith('apps/web/src/features/'),
  },
  {
    rule: 4,
    message:
      'packages/core é puro: importa só zod (e vitest nos testes) e os próprios arquivos, nada de apps/ nem de outros pacotes.',
    breaks: ({ file, target, packageName }) => {
      if (!file.startsWith('packages/core/')) return false;
      if (packageName === 'zod' || (packageName === 'vitest' && isTest(file))) return false;
      if (packageName === '@passada/core') return false;
      if (target?.startsWith('packages/core/')) return false;
      return true;
    },
  },
  {
    rule: 5,
    message:
      'O app web e a API não importam um ao outro: o que os dois usam fica em packages/core (@passada/core/<arquivo>); o navegador fala com a API só por HTTP.',
    breaks: ({ file, target }) =>
      (file.startsWith('apps/web/') && !!target?.startsWith('apps/api/')) ||
      (file.startsWith('apps/api/') && !!target?.startsWith('apps/web/')),
  },
  {
    rule: 6,
    message:
      'As rotas do painel (modules/painel/*.routes.ts) não abrem o banco: nenhum repositório. Chame o serviço da equipe do módulo dono (app.<módulo>.admin, ou app.staff) dentro de audited (decisão 0030).',
    breaks: ({ file, target }) => PAINEL_ROUTES.test(file) && !!target && REPOSITORY.test(target),
  },
  {
    rule: 7,
    message:
      'O repositório de um módulo só é importado pelos arquivos do próprio módulo: fora de modules/, use o que a face pública dele (index.ts, *.service.ts) reexporta.',
    breaks: ({ file, target }) =>
      !file.startsWith('apps/api/src/modules/') && !!target && MODULE.test(target) && REPOSITORY.test(target),
  },
  {
    rule: 8,
    message:
      'modules/staff é o módulo de baixo (contas da equipe, sessões, permissões, auditoria): não importa nenhum outro módulo; os outros é que o usam (decisão 0030).',
    breaks: (imp) => {
      const to = crossing(MODULE, imp);
      return !!to && MODULE.exec(imp.file)?.[1] === 'staff';
    },
  },
  {
    rule: 9,
    message:
      'No painel, só os arquivos de api/ chamam o painelFetch (shell/painel-api.ts): páginas e componentes usam os hooks do api/ da sua parte do painel ou de shell/api/ (consultas com chaves, mutações que invalidam o que mudam).',
    breaks: ({ file, target }) =>
      target === PAINEL_FETCH &&
      file.startsWith('apps/web/src/features/painel/') &&
      !PAINEL_API.test(file) &&
      !isTest(file),
  },
  {
    rule: 13,
    message:
      'Numa feature, só os arquivos de api/ chamam o apiFetch (lib/api.ts): páginas e componentes usam as consultas (queryOptions) e os hooks do api/ da feature, mutações que invalidam o que mudam, e o polling é o refetchInterval da consulta. Importar ApiRequestError continua livre.',
    breaks: ({ file, target, names }) =>
      target === API_FETCH &&
      FEATURE.test(file) &&
      !FEATURE_API.test(file) &&
      // The back office's own wrapper (painelFetch), itself kept to the back office's api/ folders by rule 9.
      file !== PAINEL_FETCH &&
      !isTest(file) &&
      (names === undefined || names.includes('apiFetch')),
  },
  {
    rule: 14,
    message:
      'Uma parte do painel (catalog/, orders/, events/, staff/) importa só de shell/ e de si mesma, nunca de outra parte: mova o que duas partes usam para shell/. O shell importa das partes só as páginas (pages/), e só na tabela de rotas (shell/painel-app.tsx).',
    breaks: ({ file, target }) => {
      const from = PAINEL_PART.exec(file);
      if (!from || !target?.startsWith('apps/web/src/features/painel/')) return false;
      const to = PAINEL_PART.exec(target);
      if (to?.[1] === from[1]) return false;
      if (from[1] !== 'shell') return to?.[1] !== 'shell';
      return file !== PAINEL_ROUTE_TABLE || !to?.[2]?.startsWith('pages/');
    },
  },
];

export function listSources(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(c|m)?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(root, dir));
  return out;
}

const COMPILER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  jsx: ts.JsxEmit.ReactJSX,
};

/** The statement an import's specifier closes, up to the specifier: `import { a, b } from '`. */
const NAMED = /^(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]?$/;

/** The names of the import or re-export whose specifier starts at `pos` (see `Import.names`). */
function importedNames(text: string, pos: number): string[] | undefined {
  // The statement's start is near: the names of one import fit well within its last 2,000 characters.
  const before = text.slice(Math.max(0, pos - 2000), pos);
  const start = Math.max(...[...before.matchAll(/\b(?:import|export)\b/g)].map((m) => m.index), 0);
  const named = NAMED.exec(before.slice(start));
  if (!named) return undefined;
  return named[1]!
    .split(',')
    .map(
      (n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!,
    )
    .filter(Boolean);
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every import of one file, resolved to a repository path where it is one of ours. */
export function importsOf(root: string, absolute: string): Import[] {
  const text = readFileSync(absolute, 'utf8');
  const file = path.relative(root, absolute).split(path.sep).join('/');
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map(({ fileName: specifier, pos }) => {
    const line = text.slice(0, pos).split('\n').length;
    const relative = specifier.startsWith('.') || specifier.startsWith('/');
    const resolved = ts.resolveModuleName(specifier, absolute, COMPILER_OPTIONS, ts.sys).resolvedModule;
    let target: string | null = null;
    let packageName: string | null = null;
    if (relative) {
      const where = resolved?.resolvedFileName ?? path.resolve(path.dirname(absolute), specifier);
      target = toRepoPath(root, where);
    } else {
      packageName = packageNameOf(specifier);
      const workspace = WORKSPACES[packageName];
      if (workspace) target = `${workspace}/${specifier.slice(packageName.length + 1)}`;
      else if (resolved && !resolved.isExternalLibraryImport)
        target = toRepoPath(root, resolved.resolvedFileName);
    }
    const names = importedNames(text, pos);
    return { file, line, specifier, target, packageName, ...(names ? { names } : {}) };
  });
}

function toRepoPath(root: string, absolute: string): string {
  let real = absolute;
  try {
    real = realpathSync(absolute);
  } catch {
    // A file that does not exist (a broken import) is still judged by where it points.
  }
  return path.relative(realpathSync(root), real).split(path.sep).join('/');
}

/** Rule 12's message: a circle of imports, type-only ones included, named file by file. */
const CIRCLE =
  'Arquivos que se importam em círculo (mesmo só tipos): {circle}. Mova o que os dois lados usam para um arquivo que nenhum deles importa de volta (um tipo, um formato, uma regra em comum).';

/**
 * Rule 12: no circle of imports between our files, type-only imports included (a circle of types still
 * ties the files' order and their reading together). One breach per circle, at the import that closes
 * it from its first file in path order. Tarjan's strongly connected components over the imports given.
 */
export function importCircles(imports: Import[]): Breach[] {
  const edges = new Map<string, Import[]>();
  for (const imp of imports) {
    if (!imp.target || imp.target === imp.file) continue;
    edges.set(imp.file, [...(edges.get(imp.file) ?? []), imp]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const { target } of edges.get(file) ?? []) {
      if (!edges.has(target!)) continue;
      if (!index.has(target!)) {
        visit(target!);
        low.set(file, Math.min(low.get(file)!, low.get(target!)!));
      } else if (onStack.has(target!)) low.set(file, Math.min(low.get(file)!, index.get(target!)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) visit(file);
  return circles.map((circle) => {
    const first = circle[0]!;
    const closing = edges.get(first)!.find((imp) => circle.includes(imp.target!))!;
    return {
      file: first,
      line: closing.line,
      specifier: closing.specifier,
      target: closing.target!,
      rule: 12,
      message: CIRCLE.replace('{circle}', circle.join(' ⇄ ')),
    };
  });
}

/** Every breach of the §9 rules under `root` (the repository, or a folder laid out like it). */
export function checkBoundaries(root: string): Breach[] {
  const breaches: Breach[] = [];
  const all: Import[] = [];
  for (const absolute of listSources(root)) {
    for (const imp of importsOf(root, absolute)) {
      all.push(imp);
      for (const { rule, message, breaks } of RULES) {
        if (!breaks(imp)) continue;
        breaches.push({
          file: imp.file,
          line: imp.line,
          specifier: imp.specifier,
          target: imp.target ?? imp.packageName ?? imp.specifier,
          rule,
          message,
        });
      }
    }
  }
  return [...breaches, ...importCircles(all)];
}

export function formatBreach(b: Breach): string {
  return `${b.file}:${b.line} importa '${b.specifier}': ${b.message} (${SECTION}, regra ${b.rule})`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const folder = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const root = path.resolve(folder ?? path.join(import.meta.dirname, '..'));
  const breaches = checkBoundaries(root);
  for (const b of breaches) console.error(formatBreach(b));
  const { problems } = readOwners(root);
  for (const p of problems) console.error(p);
  const owners = checkTableOwners(root, listSources(root));
  if (process.argv.includes('--write-debt')) {
    const lines = [...new Set(owners.map(debtKey))].sort();
    writeFileSync(
      path.join(root, DEBT_FILE),
      `# Table-owner breaches that predate rules 10 and 11 (${SECTION}); the list only shrinks.\n${lines.join('\n')}\n`,
    );
  }
  const { fresh, settled } = againstDebt(owners, readDebt(root));
  for (const b of fresh) console.error(`${b.file}:${b.line} ${b.message} (${SECTION}, regra ${b.rule})`);
  for (const k of settled)
    console.error(`${DEBT_FILE}: "${k}" já não acontece no código: apague a linha (a lista só diminui).`);
  const total = breaches.length + problems.length + fresh.length + settled.length;
  if (total > 0) {
    console.error(`\n${total} ponto(s) fora das regras de ${SECTION}.`);
    process.exit(1);
  }
  const debt = owners.length - fresh.length;
  console.log(
    `Fronteiras de importação e donos das tabelas conferidos (${SECTION}); ${debt} leitura(s)/escrita(s) antigas ainda em ${DEBT_FILE}.`,
  );
}
