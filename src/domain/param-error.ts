/**
 * @fileoverview The one error the pure analytics modules throw for bad request input.
 * Routes turn it into a 400 problem document whose `errors[0].path` is `param`.
 */

/** Thrown when a request parameter is malformed, impossible or out of range; names the parameter so the route can answer 400. */
export class InvalidParamError extends Error {
  /** The query parameter at fault, e.g. `tz`, `from`, `weeks`. */
  readonly param: string;

  constructor(param: string, message: string) {
    super(message);
    this.name = 'InvalidParamError';
    this.param = param;
  }
}

/** True when `err` is an {@link InvalidParamError}; lets a route's error handler map it without importing the class's internals. */
export function isInvalidParamError(err: unknown): err is InvalidParamError {
  return err instanceof InvalidParamError;
}
