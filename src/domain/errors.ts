/**
 * @fileoverview The errors code below the HTTP edge raises when a rule refuses a request: one
 * small closed set, named by what went wrong, never by status code. Only the edge
 * (http/domain-errors.ts) turns them into problem documents; `kind` is what it maps by, so a kind
 * added here fails the typecheck until the edge answers it.
 */

export type DomainErrorKind =
  'invalid' | 'refused' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'busy';

/**
 * Where a field of the request is: the body's or the query string's, and its dotted path in it
 * (`link_code`, `hourly.3.hour_start`). Without `in` the path names the field alone (`hourly`:
 * the ingest bounds name the upload's list that way).
 */
export interface FieldRef {
  readonly in?: 'body' | 'querystring';
  readonly field: string;
}

/** One field at fault and what is wrong with it (`is unknown`). */
export interface FieldFault {
  readonly at: FieldRef;
  readonly message: string;
}

/** How a field is named in a sentence: `body.link_code`, `querystring.tz`, `hourly`. */
export function fieldName(at: FieldRef): string {
  return at.in === undefined ? at.field : `${at.in}.${at.field}`;
}

export interface DomainErrorOptions {
  /**
   * A stable word for why, beside the sentence (`weak_password`); the sign-in API hands it to its
   * clients as GoTrue's `error_code`.
   */
  readonly reason?: string | undefined;
}

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  readonly reason: string | undefined;

  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message);
    this.reason = options.reason;
  }
}

/**
 * Input the rules reject: the fields at fault (none when the input is wrong as a whole, e.g. bad
 * credentials) and, when the fields alone do not say it, a sentence for the whole (`detail`).
 * Without one the edge names the first field: `body.link_code: is unknown`.
 */
export class InvalidInput extends DomainError {
  readonly kind = 'invalid';
  override name = 'InvalidInput';
  readonly faults: readonly FieldFault[];
  readonly detail: string | undefined;

  constructor(faults: readonly FieldFault[], options: DomainErrorOptions & { readonly detail?: string } = {}) {
    super(options.detail ?? faults[0]?.message ?? 'The input is invalid.', options);
    this.faults = faults;
    this.detail = options.detail;
  }
}

/** One field at fault: `invalidField({ in: 'body', field: 'link_code' }, 'is unknown')`. */
export function invalidField(at: FieldRef, message: string): InvalidInput {
  return new InvalidInput([{ at, message }]);
}

/**
 * A change the rules will not make although the request is well formed: a password change to one
 * too short, to the same password, or on an account that has none. Kept apart from
 * {@link InvalidInput} because the sign-in API, as GoTrue, answers the two differently.
 */
export class Refused extends DomainError {
  readonly kind = 'refused';
  override name = 'Refused';
}

/** The caller's credential no longer names anyone (its user is gone). */
export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
  override name = 'Unauthenticated';
}

/** The caller is known but may not do or see this. */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
  override name = 'Forbidden';
}

export class NotFound extends DomainError {
  readonly kind = 'not_found';
  override name = 'NotFound';
}

/** The request contradicts what is stored (a used link code, an e-mail address taken, no room left). */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
  override name = 'Conflict';
}

/** Nothing is wrong with the request, but it cannot be served now; `retryAfterSeconds` when known. */
export class Busy extends DomainError {
  readonly kind = 'busy';
  override name = 'Busy';
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, options: DomainErrorOptions & { readonly retryAfterSeconds?: number } = {}) {
    super(message, options);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
