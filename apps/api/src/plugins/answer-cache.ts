import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
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
  /** The answers built and kept, by key (the others in `answers` are still being built). */
  const kept = new Map<string, CachedAnswer>();

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
      else kept.set(key, p.answer);
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
    /** The answer kept for `key`, if there is one now (no building). */
    peek(key: string): CachedAnswer | undefined {
      return kept.get(key);
    },
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
  const { status, headers, body } = cachedReply(answer, answerForm(answer, request.headers));
  return reply.code(status).headers(headers).send(body);
}

/** Which form of a cached answer a request gets: 304 (it has it), or the stored encoding it takes. */
export type AnswerForm = 'not-modified' | 'br' | 'gzip' | 'raw';

/** The form of `answer` a request with these headers gets (ETag first, then its Accept-Encoding). */
export function answerForm(answer: CachedAnswer, requestHeaders: IncomingHttpHeaders): AnswerForm {
  if (
    answer.status === 200 &&
    requestHeaders['if-none-match']?.split(',').some((tag) => tag.trim() === answer.etag)
  )
    return 'not-modified';
  return pickEncoding(requestHeaders['accept-encoding']) ?? 'raw';
}

/**
 * The status, headers and bytes of one form of a cached answer. Shared by `sendCached` and the front
 * door (front-door.ts), so both answer alike.
 */
export function cachedReply(
  answer: CachedAnswer,
  form: AnswerForm,
): { status: number; headers: Record<string, string>; body: Buffer | undefined } {
  const headers: Record<string, string> = { 'cache-control': 'no-cache', vary: 'accept-encoding' };
  if (answer.status === 200) headers.etag = answer.etag;
  if (form === 'not-modified') return { status: 304, headers, body: undefined };
  headers['content-type'] = answer.type;
  if (form !== 'raw') headers['content-encoding'] = form;
  const body = form === 'br' ? answer.br : form === 'gzip' ? answer.gzip : answer.raw;
  headers['content-length'] = String(body.length);
  return { status: answer.status, headers, body };
}
