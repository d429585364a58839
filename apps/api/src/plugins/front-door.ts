import {
  createServer,
  type ServerOptions as HttpServerOptions,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { FastifyReply, FastifyRequest, FastifyServerFactory } from 'fastify';
import {
  type AnswerCache,
  type AnswerForm,
  answerForm,
  type CachedAnswer,
  cachedReply,
  sendCached,
} from './answer-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Kept answers served at the server's door, before routing (docs/decisions/0089). */
    frontDoor: FrontDoor;
  }
}

/** What a request served at the door records for the metrics (the route pattern, never the address). */
export type DoorRecorder = (method: string, route: string, status: number, seconds: number) => void;

/** The options Fastify gives its server factory that its own node:http server would take. */
interface ServerOptions {
  http?: HttpServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

interface Entry {
  /** The route's cache as the route asks for it (a cache that drops itself when a day ends does so here). */
  cacheOf: () => AnswerCache;
  key: string;
  route: string;
  /** The headers the request hooks put on the reply (the security headers), sent again as they were. */
  hookHeaders: OutgoingHttpHeaders;
  /** The answer `forms` were made for, and each form's status, whole headers and bytes. */
  answer: CachedAnswer | undefined;
  forms: Map<AnswerForm, { status: number; headers: OutgoingHttpHeaders; body: Buffer | undefined }>;
}

/**
 * The door of the HTTP server (docs/decisions/0089): a GET whose exact address (path and query) a
 * route already answered from an answer cache is answered here with that cache's kept answer, the same
 * bytes and headers, without routing, hooks, validation or a promise. Only routes whose answer is a
 * function of the address alone (never of a cookie, a header or the hour) put addresses here, with
 * `sendKept`. The door asks the cache on every request, so an invalidation (a publication, a change)
 * is seen by the next one; an address whose answer is no longer kept goes to the routes again.
 */
export function createFrontDoor(maxAddresses: number) {
  const entries = new Map<string, Entry>();
  let record: DoorRecorder = () => {};
  let answered = 0;

  /** Answers `req` when its address has a kept answer; false when the routes must answer it. */
  function serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || entries.size === 0) return false;
    const url = req.url ?? '';
    const entry = entries.get(url);
    if (!entry) return false;
    const answer = entry.cacheOf().peek(entry.key);
    if (!answer) {
      entries.delete(url);
      return false;
    }
    const started = performance.now();
    const form = answerForm(answer, req.headers);
    if (entry.answer !== answer) {
      entry.answer = answer;
      entry.forms.clear();
    }
    let reply = entry.forms.get(form);
    if (!reply) {
      const { status, headers, body } = cachedReply(answer, form);
      reply = { status, headers: { ...entry.hookHeaders, ...headers }, body };
      entry.forms.set(form, reply);
    }
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
    answered++;
    record('GET', entry.route, reply.status, (performance.now() - started) / 1000);
    return true;
  }

  return {
    serve,
    /** The metrics plugin's recorder, so answers served here are counted like the routes' own. */
    onServed(recorder: DoorRecorder) {
      record = recorder;
    },
    /**
     * Puts the request's address at the door once `key`'s answer is kept: the next request for the same
     * address is answered there. Past `maxAddresses` addresses the oldest one goes back to the routes
     * (a flood of made-up query strings cannot grow the map); 0 keeps every request on the routes.
     */
    keep(request: FastifyRequest, reply: FastifyReply, cacheOf: () => AnswerCache, key: string) {
      const url = request.raw.url;
      if (!url || maxAddresses === 0 || request.method !== 'GET' || !cacheOf().peek(key)) return;
      if (entries.has(url)) return;
      if (entries.size >= maxAddresses) entries.delete(entries.keys().next().value!);
      entries.set(url, {
        cacheOf,
        key,
        route: request.routeOptions.url ?? 'sem_rota',
        hookHeaders: reply.getHeaders() as OutgoingHttpHeaders,
        answer: undefined,
        forms: new Map(),
      });
    },
    /** How many addresses are at the door. */
    get size() {
      return entries.size;
    },
    /** How many requests the door answered since the start. */
    get answered() {
      return answered;
    },
    /**
     * The server Fastify listens with: node:http's, with Fastify's own time-outs, asking the door first.
     */
    serverFactory: ((handler, options: ServerOptions) => {
      const server = createServer(options.http ?? {}, (req, res) => {
        if (!serve(req, res)) handler(req, res);
      });
      server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
      server.requestTimeout = options.requestTimeout ?? 0;
      server.setTimeout(options.connectionTimeout ?? 0);
      if ((options.maxRequestsPerSocket ?? 0) > 0)
        server.maxRequestsPerSocket = options.maxRequestsPerSocket!;
      return server;
    }) as FastifyServerFactory,
  };
}

export type FrontDoor = ReturnType<typeof createFrontDoor>;

/**
 * Answers with `key`'s kept answer (or the one `produce` builds), and puts the request's address at
 * the front door (docs/decisions/0089). Only for an answer that depends on the address alone.
 */
export async function sendKept(
  request: FastifyRequest,
  reply: FastifyReply,
  cacheOf: () => AnswerCache,
  key: string,
  produce: () => Promise<unknown>,
) {
  const answer: CachedAnswer = await cacheOf().get(key, produce);
  request.server.frontDoor.keep(request, reply, cacheOf, key);
  return sendCached(request, reply, answer);
}
