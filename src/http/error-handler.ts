/**
 * @fileoverview Turns every failure into an RFC 9457 problem document: thrown AppErrors, domain
 * errors (http/domain-errors.ts, including the database's busy error), schema validation errors,
 * body-parser errors, unknown paths (404) and wrong methods (405 with Allow).
 * Anything unexpected becomes a plain 500 whose details go to the log only.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { DomainError } from '../domain/errors.js';
import { problemOf } from './domain-errors.js';
import { AppError, problems } from './problem.js';
import { toFieldErrors } from './validation.js';

const PARSER_ERRORS: Record<string, () => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => problems.tooLarge('The request body is larger than 1 MiB.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => problems.invalid('The Content-Length header does not match the body.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => problems.invalid('The body is not valid JSON.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => problems.invalid('The body is not valid JSON.'),
};

function toAppError(
  error: FastifyError & { validation?: ErrorObject[]; validationContext?: string },
): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof DomainError) return problemOf(error);
  if (error.validation) {
    const errors = toFieldErrors(error.validation, error.validationContext ?? 'body');
    const first = errors[0];
    const detail = first
      ? `${first.path.replace(/^\//, '').replaceAll('/', '.')} ${first.message}`
      : 'The request is invalid.';
    return problems.invalid(detail, errors);
  }
  const mapped = error.code ? PARSER_ERRORS[error.code] : undefined;
  if (mapped) return mapped();
  if (error.statusCode === 413) return problems.tooLarge('The request body is too large.');
  if (error.statusCode === 415) return PARSER_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE?.();
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return problems.invalid('The request is invalid.');
  return undefined;
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const problem = error.toProblem();
  if (request.url.startsWith('/auth/v1')) {
    problem.error_code = error.authCode ?? error.code;
    problem.msg = error.detail;
  }
  return reply.code(error.status).headers(error.headers).type('application/problem+json').send(problem);
}

/** Installs the error and not-found handlers. `allowedMethods` answers which methods a path has. */
export function registerErrorHandling(app: FastifyInstance, allowedMethods: (path: string) => string[]): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError) return sendProblem(request, reply, appError);
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      request,
      reply,
      new AppError(500, 'internal', 'Something went wrong on our side; it has been logged.'),
    );
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const methods = allowedMethods(path);
    if (methods.length > 0) {
      const error = new AppError(
        405,
        'method_not_allowed',
        `${request.method} is not allowed here; use ${methods.join(' or ')}.`,
        {
          headers: { Allow: methods.join(', ') },
        },
      );
      return sendProblem(request, reply, error);
    }
    return sendProblem(request, reply, problems.notFound(`There is nothing at ${path}.`));
  });
}
