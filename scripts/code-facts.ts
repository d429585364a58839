/**
 * Facts the docs state about the code, read from the code: the API's modules (what each decorates and
 * depends on), the database schema's files and the settings. `scripts/docs.test.ts` compares the docs
 * with them, so a table that drifts fails `npm test` with the line to change.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { importsOf, listSources } from './check-boundaries.ts';

export const repoRoot = path.resolve(import.meta.dirname, '..');

const MODULES_DIR = 'apps/api/src/modules';
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

export interface ModuleFacts {
  name: string;
  /** `app.<name>` for each `app.decorate('<name>', …)` in the module's files. */
  decorates: string[];
  /**
   * Other modules it needs: those named in its plugin's `dependencies` (Fastify refuses to start
   * without them) and those whose files it imports (outside its tests).
   */
  dependsOn: string[];
}

export function moduleNames(root = repoRoot): string[] {
  return readdirSync(path.join(root, MODULES_DIR), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

export function moduleFacts(root = repoRoot): ModuleFacts[] {
  const names = moduleNames(root);
  const imported = new Map<string, Set<string>>(names.map((n) => [n, new Set()]));
  const decorated = new Map<string, Set<string>>(names.map((n) => [n, new Set()]));
  const moduleOf = (file: string | null) =>
    file ? (new RegExp(`^${MODULES_DIR}/([^/]+)/`).exec(file)?.[1] ?? null) : null;
  for (const absolute of listSources(root)) {
    const file = path.relative(root, absolute).split(path.sep).join('/');
    const from = moduleOf(file);
    if (!from || isTest(file)) continue;
    for (const imp of importsOf(root, absolute)) {
      const to = moduleOf(imp.target);
      if (to && to !== from) imported.get(from)?.add(to);
    }
    for (const m of readFileSync(absolute, 'utf8').matchAll(/\bapp\.decorate\(\s*'(\w+)'/g))
      decorated.get(from)?.add(`app.${m[1]}`);
  }
  return names.map((name) => {
    const index = readFileSync(path.join(root, MODULES_DIR, name, 'index.ts'), 'utf8');
    const declared = /dependencies:\s*\[([^\]]*)\]/.exec(index)?.[1] ?? '';
    const plugins = [...declared.matchAll(/'([\w-]+)'/g)].map((m) => m[1]!).filter((d) => names.includes(d));
    return {
      name,
      decorates: [...(decorated.get(name) ?? [])].sort(),
      dependsOn: [...new Set([...plugins, ...(imported.get(name) ?? [])])].sort(),
    };
  });
}

/** The schema's files in `apps/api/src/db/schema/` (one per area), without `index.ts`. */
export function schemaAreas(root = repoRoot): string[] {
  return readdirSync(path.join(root, 'apps/api/src/db/schema'))
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !isTest(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

/** `NAME=value` lines of `.env.example`, in order. */
export function envExample(root = repoRoot): Map<string, string> {
  const text = readFileSync(path.join(root, '.env.example'), 'utf8');
  return new Map([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.trim()]));
}
