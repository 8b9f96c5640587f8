/**
 * @fileoverview The single error type of the server and its RFC 9457 problem-document shape.
 * Code anywhere throws `AppError`; one handler (http/error-handler.ts) turns it into a response.
 */

/** Stable machine words carried in a problem document's `code` member. */
export type ProblemCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'conflict'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export interface FieldError {
  path: string;
  message: string;
}

const TITLES: Record<ProblemCode, string> = {
  invalid_request: 'Invalid request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  request_timeout: 'Request timeout',
  conflict: 'Conflict',
  payload_too_large: 'Payload too large',
  headers_too_large: 'Request headers too large',
  unsupported_media_type: 'Unsupported media type',
  rate_limited: 'Too many requests',
  unavailable: 'Service unavailable',
  internal: 'Internal server error',
};

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  /** `code` and `detail` again under the names the seed system's clients read (docs/compatibility.md). */
  error: ProblemCode;
  message: string;
  errors?: FieldError[];
  /** GoTrue compatibility members, set on /auth/v1 responses. */
  error_code?: string;
  msg?: string;
}

export interface AppErrorOptions {
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** GoTrue's error_code for /auth/v1 clients (e.g. `user_already_exists`). */
  authCode?: string;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly authCode: string | undefined;

  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    options: AppErrorOptions = {},
  ) {
    super(detail);
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.authCode = options.authCode;
  }

  toProblem(): ProblemDocument {
    const problem: ProblemDocument = {
      type: `https://tokentally.dev/problems/${this.code.replaceAll('_', '-')}`,
      title: TITLES[this.code],
      status: this.status,
      detail: this.detail,
      code: this.code,
      error: this.code,
      message: this.detail,
    };
    if (this.errors && this.errors.length > 0) problem.errors = this.errors;
    return problem;
  }
}

/** Helpers for the errors thrown most often, so call sites read as sentences. */
export const problems = {
  invalid: (detail: string, errors?: FieldError[]) =>
    new AppError(400, 'invalid_request', detail, { errors: errors ?? [] }),
  invalidField: (path: string, message: string) =>
    new AppError(400, 'invalid_request', `${path.replace(/^\//, '').replaceAll('/', '.')}: ${message}`, {
      errors: [{ path, message }],
    }),
  unauthorized: (detail = 'A valid bearer token is required.') =>
    new AppError(401, 'unauthorized', detail, { headers: { 'WWW-Authenticate': 'Bearer' } }),
  forbidden: (detail = 'This credential may not perform this operation.') => new AppError(403, 'forbidden', detail),
  notFound: (detail = 'No such resource.') => new AppError(404, 'not_found', detail),
  conflict: (detail: string) => new AppError(409, 'conflict', detail),
  tooLarge: (detail: string) => new AppError(413, 'payload_too_large', detail),
  rateLimited: (retryAfterSeconds: number, detail = 'Too many requests; retry later.') =>
    new AppError(429, 'rate_limited', detail, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    }),
};
