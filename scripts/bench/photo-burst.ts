/**
 * A burst of photo uploads against the built shop (run `npm run build` first):
 *
 *   node --import tsx scripts/bench/photo-burst.ts [shop root, default this repository]
 *
 * Sends three decompression bombs (PNG, 16000 × 16000 px, under 1 MB each) and three phone-sized
 * photos (JPEG, 4032 × 3024) at once to `POST /api/painel/products/:id/images/`, while timing storefront
 * reads (`GET /api/products/`) one after the other. Prints the server's resident memory before, at its
 * peak, and 30 s after the photos were done (ready or refused), the answers, and the storefront's
 * slowest and median read during the burst. Not part of `npm run bench`: its figures are memory and
 * latency under a burst, not budgets.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { rssMB, startShop, root as thisRoot } from './shop.ts';

// The demo admin the seed creates.
const root = path.resolve(process.argv[2] ?? thisRoot);
const EMAIL = 'admin@passada.com.br';
const PASSWORD = 'painel-demo-2026';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function multipart(bytes: Buffer, filename: string, type: string) {
  const boundary = `----bench${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="foto"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    body: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

async function main() {
  const bomb = await sharp({ create: { width: 16000, height: 16000, channels: 3, background: '#ffffff' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  const phone = await sharp({
    create: {
      width: 4032,
      height: 3024,
      channels: 3,
      background: '#ff6b57',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  console.log(`bomb ${(bomb.length / 1024).toFixed(0)} KB, photo ${(phone.length / 1024).toFixed(0)} KB`);

  const shop = await startShop('pglite', {}, root);
  const base = shop.baseURL;
  try {
    const login = await fetch(`${base}/api/painel/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    if (!login.token) throw new Error(`login: ${JSON.stringify(login)}`);
    const auth = { authorization: `Token ${login.token}` };
    const products = (await fetch(`${base}/api/products/`).then((r) => r.json())) as Array<{ id: number }>;
    const productId = products[0]!.id;
    // Warm up the storefront's answer and the process.
    for (let i = 0; i < 20; i++) await fetch(`${base}/api/products/`).then((r) => r.arrayBuffer());
    await sleep(2000);
    const rssBefore = rssMB(shop.pid);

    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMB(shop.pid));
    }, 50);

    const started = performance.now();
    const uploads = [bomb, phone, bomb, phone, bomb, phone].map(async (bytes, i) => {
      const isBomb = bytes === bomb;
      const form = multipart(
        bytes,
        isBomb ? `bomba${i}.png` : `foto${i}.jpg`,
        isBomb ? 'image/png' : 'image/jpeg',
      );
      const t0 = performance.now();
      const res = await fetch(`${base}/api/painel/products/${productId}/images/`, {
        method: 'POST',
        headers: { ...auth, 'content-type': form.type },
        body: form.body,
      });
      const body = (await res.json()) as { id?: number; status?: string; code?: string };
      return { kind: isBomb ? 'bomb' : 'photo', status: res.status, ms: performance.now() - t0, body };
    });

    // Storefront reads, one after the other, until every photo is done: in a worker thread, so this
    // process's own work sending the uploads does not delay them.
    const reader = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
      const reads = [];
      let done = false;
      parentPort.on('message', () => { done = true; });
      (async () => {
        while (!done) {
          const t0 = performance.now();
          await fetch(workerData + '/api/products/').then((r) => r.arrayBuffer());
          reads.push(performance.now() - t0);
        }
        parentPort.postMessage(reads);
      })();`,
      { eval: true, workerData: base },
    );
    const readsDone = new Promise<number[]>((resolve) => reader.once('message', resolve));

    const answers = await Promise.all(uploads);
    const answeredMs = performance.now() - started;
    // Wait for the queue (new code): every accepted photo out of "processando".
    for (;;) {
      const product = (await fetch(`${base}/api/painel/products/${productId}/`, { headers: auth }).then((r) =>
        r.json(),
      )) as { images: Array<{ status?: string }> };
      if (!product.images) throw new Error(`painel: ${JSON.stringify(product)}`);
      if (!product.images.some((i) => i.status === 'processando')) break;
      await sleep(200);
    }
    const doneMs = performance.now() - started;
    reader.postMessage('stop');
    const reads = await readsDone;
    await reader.terminate();
    clearInterval(sampler);
    const rssDone = rssMB(shop.pid);
    await sleep(30_000);
    const rssAfter = rssMB(shop.pid);

    const sorted = [...reads].sort((a, b) => a - b);
    for (const a of answers) {
      console.log(`${a.kind}: ${a.status} ${a.body.status ?? a.body.code ?? ''} in ${a.ms.toFixed(0)} ms`);
    }
    console.log(
      `all answered after ${answeredMs.toFixed(0)} ms; all photos done after ${doneMs.toFixed(0)} ms`,
    );
    console.log(
      `storefront GET /api/products/ during the burst: ${reads.length} reads, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(0)} ms`,
    );
    console.log(
      `RSS: before ${rssBefore.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, when done ${rssDone.toFixed(0)} MB, 30 s later ${rssAfter.toFixed(0)} MB`,
    );
  } finally {
    await shop.stop();
  }
}

await main();
