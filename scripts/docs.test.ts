import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../apps/api/src/config/env.ts';
import { listSources } from './check-boundaries.ts';
import { readOwners } from './check-table-owners.ts';
import { envExample, moduleFacts, repoRoot, schemaAreas } from './code-facts.ts';

/**
 * The docs' tables that the code can confirm. Each failure lists exactly what to add or remove, and
 * where; the lists are compared as sets, so the order in the docs is free.
 */
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

/** `a, b` → what is missing from and extra in `written`, as sentences. */
function setDiff(written: string[], actual: string[]): { add: string[]; remove: string[] } {
  return {
    add: actual.filter((x) => !written.includes(x)),
    remove: written.filter((x) => !actual.includes(x)),
  };
}

/** A cell's comma-separated names; notes in parentheses are for the reader. */
const list = (cell: string) =>
  cell
    .replace(/\([^)]*\)/g, '')
    .split(',')
    .map((s) => s.replaceAll('`', '').trim())
    .filter((s) => s && s !== '—' && s !== 'infra');

/** The section of docs/architecture.md that starts with `## §n`. */
function section(n: number): string {
  const text = read('docs/architecture.md');
  const start = text.indexOf(`\n## §${n} `);
  const end = text.indexOf('\n## §', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

describe('docs/architecture.md §2: the schema list', () => {
  it('names every file of apps/api/src/db/schema/', () => {
    const text = section(2).replace(/\s+/g, ' ');
    const written = /one schema in `apps\/api\/src\/db\/schema\/` \(([^)]*)\)/.exec(text)?.[1];
    expect(
      written,
      'docs/architecture.md §2 no longer has "one schema in `apps/api/src/db/schema/` (…)"',
    ).toBeDefined();
    const { add, remove } = setDiff(list(written!), schemaAreas());
    const problems = [
      ...add.map(
        (a) => `docs/architecture.md §2: add "${a}" to the schema list (apps/api/src/db/schema/${a}.ts)`,
      ),
      ...remove.map(
        (r) =>
          `docs/architecture.md §2: remove "${r}" from the schema list (apps/api/src/db/schema/${r}.ts does not exist)`,
      ),
    ];
    expect(problems).toEqual([]);
  });
});

describe('each module README: the tables it owns', () => {
  it('lists on its "**Owns:**" line exactly the tables whose schema file names that module', () => {
    const { tables } = readOwners(repoRoot);
    const problems: string[] = [];
    for (const m of readdirSync(path.join(repoRoot, 'apps/api/src/modules'))) {
      const readme = `apps/api/src/modules/${m}/README.md`;
      let text = '';
      try {
        text = read(readme);
      } catch {
        continue;
      }
      const line = /^\*\*Owns:\*\* (.*)$/m.exec(text)?.[1];
      if (line === undefined) {
        problems.push(`${readme}: falta a linha "**Owns:** \`tabela\`, …." (ou "**Owns:** no table.")`);
        continue;
      }
      const written = [...line.matchAll(/`([a-z_0-9]+)`/g)].map((x) => x[1]!);
      const { add, remove } = setDiff(
        written,
        tables.filter((t) => t.owner === m).map((t) => t.sqlName),
      );
      for (const a of add)
        problems.push(`${readme}: add \`${a}\` to "**Owns:**" (its schema file names ${m})`);
      for (const r of remove)
        problems.push(`${readme}: remove \`${r}\` from "**Owns:**" (no schema file of ${m} has it)`);
    }
    expect(problems).toEqual([]);
  });
});

describe('docs/architecture.md §9: what each module owns', () => {
  it('has one row per module, with what it decorates and depends on', () => {
    const text = section(9);
    const start = text.indexOf('| module | owns | decorates | depends on |');
    expect(
      start,
      'docs/architecture.md §9 lost its table "| module | owns | decorates | depends on |"',
    ).toBeGreaterThan(-1);
    const rows = new Map<string, { decorates: string[]; dependsOn: string[] }>();
    for (const line of text.slice(start).split('\n').slice(2)) {
      if (!line.startsWith('|')) break;
      const cells = line.split('|').map((c) => c.trim());
      const name = cells[1]!.replaceAll('`', '');
      rows.set(name, { decorates: list(cells[3] ?? ''), dependsOn: list(cells[4] ?? '') });
    }
    const where = 'docs/architecture.md §9, module table';
    const problems: string[] = [];
    const facts = moduleFacts();
    for (const fact of facts) {
      const cell = (xs: string[], code: boolean) =>
        xs.length ? xs.map((x) => (code ? `\`${x}\`` : x)).join(', ') : code ? '—' : 'infra';
      const row = rows.get(fact.name);
      if (!row) {
        problems.push(
          `${where}: add a row for \`${fact.name}\` (decorates: ${cell(fact.decorates, true)}; depends on: ${cell(fact.dependsOn, false)})`,
        );
        continue;
      }
      for (const [column, written, actual, code] of [
        ['decorates', row.decorates, fact.decorates, true],
        ['depends on', row.dependsOn, fact.dependsOn, false],
      ] as const) {
        const { add, remove } = setDiff(written, actual);
        if (add.length === 0 && remove.length === 0) continue;
        const changes = [
          add.length ? `add ${add.join(', ')}` : '',
          remove.length ? `remove ${remove.join(', ')}` : '',
        ].filter(Boolean);
        problems.push(
          `${where}, row \`${fact.name}\`, column "${column}": ${changes.join('; ')} (the cell should read: ${cell(actual, code)})`,
        );
      }
    }
    for (const name of rows.keys()) {
      if (!facts.some((f) => f.name === name))
        problems.push(
          `${where}: remove the row of \`${name}\` (apps/api/src/modules/${name}/ does not exist)`,
        );
    }
    expect(problems).toEqual([]);
  });
});

describe('settings: apps/api/src/config/env.ts, .env.example and docs/settings.md', () => {
  it('name the same settings, with the same defaults in .env.example and the docs', () => {
    const schema = Object.keys(EnvSchema.shape);
    const example = envExample();
    const docs = new Map(
      [...read('docs/settings.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)].map((m) => [
        m[1]!,
        m[2]!.trim(),
      ]),
    );
    const problems: string[] = [];
    for (const name of schema) {
      if (!example.has(name))
        problems.push(
          `.env.example: add ${name}=<default> with a one-line comment above it (env.ts reads ${name})`,
        );
      if (!docs.has(name)) {
        const value = example.get(name);
        problems.push(
          `docs/settings.md: add the row | \`${name}\` | ${value ? `\`${value}\`` : '—'} | <what it does> | (env.ts reads ${name})`,
        );
      }
    }
    for (const name of example.keys()) {
      if (!schema.includes(name))
        problems.push(
          `.env.example: remove ${name}, or add it to EnvSchema in apps/api/src/config/env.ts (nothing reads it)`,
        );
    }
    for (const [name, written] of docs) {
      if (!schema.includes(name)) {
        problems.push(
          `docs/settings.md: remove the row of ${name}, or add it to EnvSchema in apps/api/src/config/env.ts (nothing reads it)`,
        );
        continue;
      }
      const value = example.get(name);
      const expected = value ? `\`${value}\`` : '—';
      if (value !== undefined && written !== expected)
        problems.push(
          `docs/settings.md: the default of ${name} is ${expected} as in .env.example, not ${written}`,
        );
    }
    expect(problems).toEqual([]);
  });
});

describe('docs/architecture.md §7: one fetch wrapper', () => {
  /** Where the web app may call `fetch` itself: the wrapper, and the CSV download (a file, not JSON). */
  const ALLOWED = ['apps/web/src/lib/api.ts', 'apps/web/src/features/painel/shell/painel-api.ts'];

  it('calls fetch only in lib/api.ts (and the CSV download §7 names)', () => {
    const found = listSources(repoRoot)
      .map((absolute) => path.relative(repoRoot, absolute).split(path.sep).join('/'))
      .filter(
        (file) => file.startsWith('apps/web/src/') && !/\.test(-utils)?\.tsx?$|\.test-utils\./.test(file),
      )
      .filter((file) => /(?<![\w.])fetch\(/.test(read(file)));
    const problems = [
      ...found
        .filter((f) => !ALLOWED.includes(f))
        .map(
          (f) =>
            `${f} calls fetch itself: use apiFetch from apps/web/src/lib/api.ts (docs/architecture.md §7)`,
        ),
      ...ALLOWED.filter((f) => !found.includes(f)).map(
        (f) => `${f} no longer calls fetch: update docs/architecture.md §7 and this list`,
      ),
    ];
    expect(problems).toEqual([]);
  });
});
