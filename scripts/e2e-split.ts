/**
 * Splits the end-to-end spec files between the runs of `scripts/e2e-shards.sh` by how long each took,
 * not by how many tests it holds (Playwright's own `--shard`): the specs that start shops of their own
 * (Correios labels, the monthly NFS-e, the lottery) sort first by name, and a split by count gave one run
 * 23 minutes and the other 18.
 *
 *   node --import tsx scripts/e2e-split.ts plan <runs>         one line per run: its spec files
 *   node --import tsx scripts/e2e-split.ts record <report.json>…  the seconds each spec took, from
 *                                                               Playwright's JSON reports, into the
 *                                                               last-run file
 *
 * The seconds come from the last run on this machine (`apps/web/test-results/e2e-durations.json`,
 * ignored by git) over the ones kept with the specs (`apps/web/e2e/durations.json`); a spec in neither
 * counts as the median. Copy the last-run file over the kept one when the specs change much.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const specDir = path.join(root, 'apps/web/e2e');
const keptFile = path.join(specDir, 'durations.json');
const lastRunFile = path.join(root, 'apps/web/test-results/e2e-durations.json');

type Durations = Record<string, number>;

function readDurations(file: string): Durations {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Durations;
  } catch {
    return {};
  }
}

/** Longest first, each to the run with the least so far: within 4/3 of the best split. */
export function plan(specs: string[], seconds: Durations, runs: number): string[][] {
  const known = specs.map((s) => seconds[s]).filter((s): s is number => typeof s === 'number');
  const sorted = [...known].sort((a, b) => a - b);
  const median = sorted.length ? (sorted[Math.floor(sorted.length / 2)] ?? 30) : 30;
  const weight = (spec: string) => seconds[spec] ?? median;
  const parts = Array.from({ length: runs }, () => ({ specs: [] as string[], total: 0 }));
  for (const spec of [...specs].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const lightest = parts.reduce((min, part) => (part.total < min.total ? part : min));
    lightest.specs.push(spec);
    lightest.total += weight(spec);
  }
  return parts.map((part) => part.specs.sort());
}

interface ReportSuite {
  file?: string;
  suites?: ReportSuite[];
  specs?: Array<{ tests: Array<{ results: Array<{ duration: number }> }> }>;
}

function suiteMs(suite: ReportSuite): number {
  const own = (suite.specs ?? []).flatMap((s) => s.tests.flatMap((t) => t.results.map((r) => r.duration)));
  return own.reduce((a, b) => a + b, 0) + (suite.suites ?? []).reduce((a, s) => a + suiteMs(s), 0);
}

/** Seconds per spec file from Playwright JSON reports (`--reporter=json`). */
export function durationsFromReports(reports: Array<{ suites?: ReportSuite[] }>): Durations {
  const out: Durations = {};
  for (const report of reports) {
    for (const suite of report.suites ?? []) {
      if (!suite.file) continue;
      const spec = path.basename(suite.file);
      out[spec] = Math.round(((out[spec] ?? 0) + suiteMs(suite) / 1000) * 10) / 10;
    }
  }
  return out;
}

function main(args: string[]) {
  const [command, ...rest] = args;
  if (command === 'plan') {
    const runs = Number(rest[0] ?? 2);
    const specs = readdirSync(specDir).filter((f) => f.endsWith('.spec.ts'));
    const seconds = { ...readDurations(keptFile), ...readDurations(lastRunFile) };
    // Playwright reads each path as a regular expression on the file's path: this one matches one file.
    const filter = (spec: string) => `e2e/${spec.replaceAll('.', '\\.')}$`;
    for (const part of plan(specs, seconds, runs)) console.log(part.map(filter).join(' '));
    return;
  }
  if (command === 'record') {
    const reports = rest.flatMap((file) => {
      try {
        return [JSON.parse(readFileSync(file, 'utf8')) as { suites?: ReportSuite[] }];
      } catch {
        return [];
      }
    });
    const measured = durationsFromReports(reports);
    if (Object.keys(measured).length === 0) return;
    writeFileSync(
      lastRunFile,
      `${JSON.stringify({ ...readDurations(lastRunFile), ...measured }, null, 2)}\n`,
    );
    return;
  }
  console.error('uso: e2e-split.ts plan <partes> | record <relatório.json>…');
  process.exitCode = 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv.slice(2));
}
