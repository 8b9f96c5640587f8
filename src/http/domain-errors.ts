/**
 * @fileoverview The one place domain errors (domain/errors.ts) become problem documents: each kind
 * has its status, problem code and fixed headers here, and an invalid field's location becomes the
 * JSON pointer of `errors[].path` (`{ in: 'body', field: 'link_code' }` → `/body/link_code`).
 */
import {
  Busy,
  fieldName,
  InvalidInput,
  type DomainError,
  type DomainErrorKind,
  type FieldRef,
} from '../domain/errors.js';
import { AppError, type FieldError, type ProblemCode } from './problem.js';

interface Answer {
  readonly status: number;
  readonly code: ProblemCode;
  readonly headers?: Readonly<Record<string, string>>;
}

const ANSWERS: Record<DomainErrorKind, Answer> = {
  invalid: { status: 400, code: 'invalid_request' },
  // GoTrue answers a well-formed change it will not make with 422 and the same problem code as a 400.
  refused: { status: 422, code: 'invalid_request' },
  unauthenticated: { status: 401, code: 'unauthorized', headers: { 'WWW-Authenticate': 'Bearer' } },
  forbidden: { status: 403, code: 'forbidden' },
  not_found: { status: 404, code: 'not_found' },
  conflict: { status: 409, code: 'conflict' },
  busy: { status: 503, code: 'unavailable' },
};

/** A field's JSON pointer in the request: `/body/hourly/3/hour_start`, `/querystring/tz`, `/hourly`. */
export function fieldPointer(at: FieldRef): string {
  const path = `/${at.field.replaceAll('.', '/')}`;
  return at.in === undefined ? path : `/${at.in}${path}`;
}

function fieldErrors(error: InvalidInput): FieldError[] {
  return error.faults.map((fault) => ({ path: fieldPointer(fault.at), message: fault.message }));
}

/** The detail of an invalid input: its own sentence, else its first field named (`body.link_code: is unknown`). */
function invalidDetail(error: InvalidInput): string {
  if (error.detail !== undefined) return error.detail;
  const first = error.faults[0];
  return first === undefined ? error.message : `${fieldName(first.at)}: ${first.message}`;
}

/** The problem a domain error is answered with. */
export function problemOf(error: DomainError): AppError {
  const answer = ANSWERS[error.kind];
  const headers: Record<string, string> = { ...answer.headers };
  if (error instanceof Busy && error.retryAfterSeconds !== undefined)
    headers['Retry-After'] = String(error.retryAfterSeconds);
  const invalid = error instanceof InvalidInput ? error : undefined;
  return new AppError(answer.status, answer.code, invalid ? invalidDetail(invalid) : error.message, {
    errors: invalid ? fieldErrors(invalid) : undefined,
    headers,
    authCode: error.reason,
  });
}
