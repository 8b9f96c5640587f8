/**
 * @fileoverview The error the pure analytics modules throw for a bad query-string parameter: an
 * {@link InvalidInput} (domain/errors.ts) naming the parameter, so the edge answers 400 with
 * `errors[0].path` `/querystring/<param>`.
 */
import { InvalidInput } from './errors.js';

/** Thrown when a request parameter is malformed, impossible or out of range; names the parameter. */
export class InvalidParamError extends InvalidInput {
  /** The query parameter at fault, e.g. `tz`, `from`, `weeks`. */
  readonly param: string;

  constructor(param: string, message: string) {
    super([{ at: { in: 'querystring', field: param }, message }]);
    this.name = 'InvalidParamError';
    this.param = param;
  }
}

/** True when `err` is an {@link InvalidParamError}; lets a route's error handler map it without importing the class's internals. */
export function isInvalidParamError(err: unknown): err is InvalidParamError {
  return err instanceof InvalidParamError;
}
