import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const JSON_TYPE = 'application/json; charset=utf-8';

/** One answer (JSON or a page), hashed and compressed once for every request that reads it. */
export interface CachedAnswer {
  body: string;
  /** The body's UTF-8 bytes, encoded once: a large answer is not encoded again for every request. */
  raw: Buffer;
  type: string;
  status: number;
  etag: string;
  gzip: Buffer;
  br: Buffer;
}

/** Hashes and compresses a body once (brotli and gzip), for `sendCached`. */
export async function prepareAnswer(body: string, type = JSON_TYPE, status = 200): Promise<CachedAnswer> {
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gzipAsync(body, { level: 9 }),
  ]);
  return {
    body,
    raw: Buffer.from(body),
    type,
    status,
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
    gzip: gz,
    br,
  };
}

/**
 * Route options of a route answering with `sendCached`: its bytes are compressed once when kept, so
 * the compression plugin's per-request hooks have nothing to do there (a GET has no body to inflate).
 */
export const PRECOMPRESSED = { compress: false, decompress: false } as const;

/** What a producer built: the answer, and whether it may be kept for the next requests. */
export interface Produced {
  answer: CachedAnswer;
  keep: boolean;
}

/**
 * Answers read far more often than they change (the catalogue, the pages showing it): each is built
 * once and kept until `invalidate()`. A read that started before an invalidation is not kept, so a
 * change committed while it ran is never hidden behind an old answer. Past `maxEntries` kept answers,
 * new ones are built for each request and not kept.
 */
export function createAnswerCache(maxEntries = Number.POSITIVE_INFINITY) {
  let generation = 0;
  const answers = new Map<string, Promise<CachedAnswer>>();
  /** The keys whose answers are built and kept (the others in `answers` are still being built). */
  const kept = new Set<string>();

  /** The kept answer for `key`, or the one `produce` builds (requests arriving meanwhile share it). */
  function remember(key: string, produce: () => Promise<Produced>): Promise<CachedAnswer> {
    const known = answers.get(key);
    if (known) return known;
    const started = generation;
    const produced = produce();
    const pending = produced.then((p) => p.answer);
    answers.set(key, pending);
    const forget = () => {
      if (answers.get(key) === pending) answers.delete(key);
    };
    produced.then((p) => {
      if (!p.keep || generation !== started || kept.size >= maxEntries) forget();
      else kept.add(key);
    }, forget);
    return pending;
  }

  return {
    /** A JSON answer: `produce` reads the value, kept serialized. */
    get(key: string, produce: () => Promise<unknown>): Promise<CachedAnswer> {
      return remember(key, async () => ({
        answer: await prepareAnswer(JSON.stringify(await produce())),
        keep: true,
      }));
    },
    remember,
    invalidate(): void {
      generation++;
      answers.clear();
      kept.clear();
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
  reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (answer.status === 200) {
    reply.header('etag', answer.etag);
    if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === answer.etag)) {
      return reply.code(304).send();
    }
  }
  reply.code(answer.status).type(answer.type);
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (encoding === 'br') return reply.header('content-encoding', 'br').send(answer.br);
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(answer.gzip);
  return reply.send(answer.raw);
}
