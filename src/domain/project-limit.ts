/**
 * @fileoverview The project summary's `limit`: how many of the top projects it lists.
 */
import { InvalidParamError } from './param-error.js';

/** Bounds and default of the project summary's `limit`. */
export const PROJECT_LIMITS = Object.freeze({ min: 1, max: 10, default: 3 });

/** Validates `limit` (whole number 1..10, default 3); anything else throws {@link InvalidParamError} naming `limit`. */
export function parseProjectLimit(value: number | string | null | undefined): number {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return PROJECT_LIMITS.default;
  const n = typeof value === 'number' ? value : /^\+?\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(n) || n < PROJECT_LIMITS.min || n > PROJECT_LIMITS.max) {
    throw new InvalidParamError(
      'limit',
      `limit must be a whole number from ${PROJECT_LIMITS.min} to ${PROJECT_LIMITS.max} (got ${String(value)})`,
    );
  }
  return n;
}
