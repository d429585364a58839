import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, rssMB } from './shop.ts';

export const LOAD = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  /** Runs of the shop and of the bare server, alternating, per API figure; the median ratio counts. */
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
};

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  /** Highest resident memory of `watchPid` while the load ran, when one was given. */
  peakRssMB?: number;
}

/** `LOAD.connections` keep-alive connections asking `url` for `LOAD.seconds`, as the table was measured. */
export async function load(url: string, watchPid?: number): Promise<LoadResult> {
  let peak = 0;
  const sampler = watchPid
    ? setInterval(() => {
        peak = Math.max(peak, rssMB(watchPid));
      }, 100)
    : null;
  try {
    const result = await autocannon({ url, connections: LOAD.connections, duration: LOAD.seconds });
    return {
      requestsPerSecond: result.requests.average,
      p99Ms: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      ...(watchPid ? { peakRssMB: peak } : {}),
    };
  } finally {
    if (sampler) clearInterval(sampler);
  }
}

/** A short run first, so the figure is of a warm process (JIT, caches, pools). */
export async function warmUp(url: string): Promise<void> {
  await autocannon({ url, connections: 10, duration: 2 });
}

/** Headers node:http writes itself (or that describe the transfer, not the answer). */
const TRANSFER_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
]);

/**
 * The same bytes the shop answered for `url` (its body and its headers: content type, security
 * headers, ETag…), served by a bare node:http server in its own process: the ceiling the shop is
 * compared with, so the ratio measures the shop's work and not the size of the headers every answer
 * must carry. Resolves to the bare server's address for the same path, and a function that stops it.
 */
export async function startBare(url: string): Promise<{ url: string; stop(): void }> {
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  const dir = mkdtempSync(path.join(tmpdir(), 'passada-bare-'));
  const file = path.join(dir, 'body');
  writeFileSync(file, body);
  const headersFile = path.join(dir, 'headers.json');
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !TRANSFER_HEADERS.has(name)));
  writeFileSync(headersFile, JSON.stringify(headers));
  const port = await freePort();
  const bare: ChildProcess = fork(
    path.join(import.meta.dirname, 'bare-server.mjs'),
    [String(port), file, headersFile],
    { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const stop = () => {
    bare.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      bare.once('message', () => resolve());
      bare.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    });
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}${new URL(url).pathname}`, stop };
}

/** One round of the shop against its bare server: both runs and the shop's share of the bare's rate. */
export interface BareRound {
  shop: LoadResult;
  bare: LoadResult;
  ratio: number;
}

/**
 * `LOAD.rounds` runs of the bare server and of the shop, alternating, so a change in the machine's speed
 * during the bench reaches both sides; both warmed up first. Stops the bare server.
 */
export async function alternatingRuns(url: string, bare: { url: string; stop(): void }, pid: number) {
  const rounds: BareRound[] = [];
  try {
    await warmUp(bare.url);
    await warmUp(url);
    for (let round = 0; round < LOAD.rounds; round++) {
      const bareRun = await load(bare.url);
      const shopRun = await load(url, pid);
      rounds.push({
        shop: shopRun,
        bare: bareRun,
        ratio: shopRun.requestsPerSecond / bareRun.requestsPerSecond,
      });
    }
  } finally {
    bare.stop();
  }
  return rounds;
}
