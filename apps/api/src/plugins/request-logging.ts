import { LogController, type FastifyReply as Reply, type FastifyRequest as Request } from 'fastify';

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
