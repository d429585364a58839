import {
  type FastifyBaseLogger,
  LogController,
  type FastifyReply as Reply,
  type FastifyRequest as Request,
} from 'fastify';

/**
 * Request lines at `debug`, not `info`: at the load the shop is built for, two lines per request cost
 * more than answering from the cache. Failed requests still log at `error` (and errors.ts logs every
 * unhandled error with its stack), so production logs keep what is needed to act.
 */
export class DebugRequestLogging extends LogController {
  override incomingRequest(request: Request): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: Request, reply: Reply): void {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type LogMethod = (...args: unknown[]) => void;
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * A request's logger: pino's child with the request id, made the first time the request logs. Most
 * requests never log (request lines are at `debug`), and making the child (its bindings serialized,
 * the redaction set up) was a few per cent of the CPU of a small answer.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get #logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }

  /**
   * Whether a line at `level` would be written. One below the logger's level (the request lines at
   * `debug`, under the usual `info`) makes no child: asking the child would make it for nothing.
   */
  #writes(level: (typeof LEVELS)[number]): boolean {
    if (this.#child) return true;
    if (level === 'silent' || this.level === 'silent') return false;
    const values = (this.parent as unknown as { levels?: { values?: Record<string, number> } }).levels
      ?.values;
    const threshold = values?.[this.level];
    // Not pino (Fastify's silent logger when logging is off), or a custom level pino does not list:
    // the child decides.
    return values === undefined || threshold === undefined || (values[level] ?? 0) >= threshold;
  }

  static {
    for (const level of LEVELS) {
      Object.defineProperty(LazyChildLogger.prototype, level, {
        value(this: LazyChildLogger, ...args: unknown[]) {
          if (this.#writes(level)) (this.#logger[level] as LogMethod)(...args);
        },
      });
    }
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, made only when it is first used. */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
