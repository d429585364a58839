import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** One JSON answer, serialized, hashed and compressed once for every request that reads it. */
export interface CachedAnswer {
  json: string;
  etag: string;
  gzip: Buffer;
  br: Buffer;
}

async function prepare(value: unknown): Promise<CachedAnswer> {
  const json = JSON.stringify(value);
  const [br, gz] = await Promise.all([
    brotli(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gzipAsync(json, { level: 9 }),
  ]);
  return { json, etag: `"${createHash('sha1').update(json).digest('base64url')}"`, gzip: gz, br };
}

/**
 * Answers read far more often than they change (the catalogue): each is built from the database
 * once and kept until `invalidate()`. A read that started before an invalidation is not kept, so a
 * change committed while it ran is never hidden behind an old answer.
 */
export function createAnswerCache() {
  let generation = 0;
  const answers = new Map<string, Promise<CachedAnswer>>();

  return {
    get(key: string, produce: () => Promise<unknown>): Promise<CachedAnswer> {
      const kept = answers.get(key);
      if (kept) return kept;
      const started = generation;
      const pending = produce().then(prepare);
      answers.set(key, pending);
      pending.then(
        () => {
          if (generation !== started && answers.get(key) === pending) answers.delete(key);
        },
        () => {
          if (answers.get(key) === pending) answers.delete(key);
        },
      );
      return pending;
    },
    invalidate(): void {
      generation++;
      answers.clear();
    },
  };
}

export type AnswerCache = ReturnType<typeof createAnswerCache>;

/** Which of our stored encodings the client takes, best first (brotli, then gzip). */
function pickEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/**
 * Sends a cached answer: 304 when the client already has it (ETag), otherwise the stored
 * compressed bytes, so neither serializing nor compressing happens per request. Browsers revalidate
 * every time (no-cache), so a change is seen on the next visit.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === answer.etag)) {
    return reply.code(304).send();
  }
  reply.type('application/json; charset=utf-8');
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (encoding === 'br') return reply.header('content-encoding', 'br').send(answer.br);
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(answer.gzip);
  return reply.send(answer.json);
}
