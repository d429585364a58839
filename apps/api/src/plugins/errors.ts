// Loading core's zod sets its Portuguese messages for the whole process (once, in packages/core/src/zod.ts):
// every module that validates input reports through this file, so it is loaded before any validation.
import '@passada/core/zod';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ZodError } from 'zod';

/**
 * An error with a status the client should see. Everything the API answers on failure has the shape
 * `{detail, code, errors?}` (docs/architecture.md §3).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly code: string,
    readonly errors?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, code = 'invalid', errors?: Record<string, string>) =>
  new HttpError(400, detail, code, errors);
export const unauthorized = (detail = 'Autenticação necessária.') =>
  new HttpError(401, detail, 'not_authenticated');
export const notFound = (detail = 'Não encontrado.') => new HttpError(404, detail, 'not_found');
export const conflict = (detail: string, code = 'conflict') => new HttpError(409, detail, code);

export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * The one answer to invalid input, whether the route schema or a service's own parse refused it: 400
 * `validation_error`, each field's first message under `errors`, the first of them in `detail`.
 */
export function validationError(
  issues: FieldIssue[],
  opts: { title?: string; fieldPrefix?: string } = {},
): HttpError {
  const title = opts.title ?? 'Dados inválidos';
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[`${opts.fieldPrefix ?? ''}${issue.field}`] ??= issue.message;
  const first = issues[0];
  return badRequest(
    first ? `${title}: ${first.field}: ${first.message}` : `${title}.`,
    'validation_error',
    errors,
  );
}

/** A zod failure as field issues; an issue about the whole value is reported on `wholeField`. */
export function zodIssues(error: ZodError, wholeField = 'body'): FieldIssue[] {
  return error.issues.map((issue) => ({
    field: issue.path.join('.') || wholeField,
    message: issue.message || 'valor inválido',
  }));
}

/**
 * What of an unexpected error may go to the log. A failed query's message carries its SQL and its
 * parameters (e-mails, CPFs, token hashes) and a database error's message or detail may quote a
 * value, so only the class, the SQLSTATE, the table/constraint names and the stack frames are kept.
 */
export function errorForLog(error: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: error instanceof Error ? error.constructor.name : typeof error,
  };
  const chain: string[] = [];
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, table, constraint, routine } = e as Record<string, unknown>;
    if (typeof code === 'string' && out.code === undefined) out.code = code;
    if (typeof table === 'string') out.table = table;
    if (typeof constraint === 'string') out.constraint = constraint;
    if (typeof routine === 'string') out.routine = routine;
    if (depth > 0) chain.push(e instanceof Error ? e.constructor.name : typeof e);
    e = (e as { cause?: unknown }).cause;
  }
  if (chain.length > 0) out.causes = chain;
  // Frames only: the stack's first lines repeat the message (a failed query's spans several).
  if (error instanceof Error && error.stack) {
    out.stack = error.stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .slice(0, 8)
      .join('\n');
  }
  return out;
}

/**
 * Error bodies skip the route's response schemas: those describe the route's own answers, and an
 * error that does not fit one of them must still reach the client as itself, not as a 500.
 */
function sendError(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .serializer((payload: unknown) => JSON.stringify(payload))
    .send(body);
}

/**
 * Whether a parsed input holds a NUL character anywhere, keys included. PostgreSQL text cannot store
 * one and refuses the whole query, so such input is turned away before any handler sees it. Walks
 * with its own stack: a deeply nested body must not overflow the call stack.
 */
export function containsNul(input: unknown): boolean {
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        stack.push(inner);
      }
    }
  }
  return false;
}

/** Installs the JSON error handler and the JSON 404 for unknown /api/ paths. */
export function registerErrorHandling(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every request and needs no promise.
  // The address's parts (path and query) hold a NUL only when it was written as %00 (a raw NUL byte
  // is refused by the HTTP parser), so most requests skip walking them.
  app.addHook('preValidation', (request, _reply, done) => {
    const inAddress =
      request.url.includes('%00') && (containsNul(request.params) || containsNul(request.query));
    if (inAddress || (request.body !== undefined && containsNul(request.body))) {
      done(badRequest('A requisição contém caracteres inválidos.', 'invalid_characters'));
      return;
    }
    done();
  });
  app.setErrorHandler((caught: FastifyError, request, reply) => {
    const error = hasZodFastifySchemaValidationErrors(caught)
      ? validationError(
          caught.validation.map((issue) => ({
            field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body',
            message: issue.message ?? 'valor inválido',
          })),
        )
      : caught;
    if (error instanceof HttpError) {
      return sendError(reply, error.statusCode, {
        detail: error.detail,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extra,
      });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendError(reply, 415, {
        detail: 'Tipo de conteúdo não suportado.',
        code: 'unsupported_media_type',
      });
    }
    if (error instanceof SyntaxError || error.code?.startsWith('FST_ERR_CTP')) {
      return sendError(reply, 400, { detail: 'JSON malformado.', code: 'malformed_json' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, {
        detail: 'Requisição inválida.',
        code: error.code ?? 'bad_request',
      });
    }
    request.log.error({ err: errorForLog(error) }, 'unhandled error');
    return sendError(reply, 500, {
      detail: 'Erro interno. Tente novamente em instantes.',
      code: 'internal_error',
    });
  });
}
