import { configureZodMessages } from '@passada/core/zod-messages';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ZodError } from 'zod';

// Every zod message the API answers with is worded in Portuguese (docs/product.md §8); set once here,
// as every module that validates input reports through this file.
configureZodMessages();

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

/** Installs the JSON error handler and the JSON 404 for unknown /api/ paths. */
export function registerErrorHandling(app: FastifyInstance) {
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
      return reply.status(error.statusCode).send({
        detail: error.detail,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extra,
      });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply
        .status(415)
        .send({ detail: 'Tipo de conteúdo não suportado.', code: 'unsupported_media_type' });
    }
    if (error instanceof SyntaxError || error.code?.startsWith('FST_ERR_CTP')) {
      return reply.status(400).send({ detail: 'JSON malformado.', code: 'malformed_json' });
    }
    if (error.statusCode === 429) {
      return reply.status(429).send({
        detail: 'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
        code: 'rate_limited',
      });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send({ detail: 'Requisição inválida.', code: error.code ?? 'bad_request' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ detail: 'Erro interno. Tente novamente em instantes.', code: 'internal_error' });
  });
}
