/**
 * @fileoverview The pino logger. Request logs carry method, URL and address only; credentials
 * are redacted wherever they could appear, so no secret or token reaches a log line.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

/** Credential fields, redacted at the top of a log object and one level down (`*.x` does not match a top-level `x`). */
const SECRET_FIELDS = [
  'password',
  'token',
  'access_token',
  'refresh_token',
  'link_code',
  'share_token',
  'serviceRoleKey',
  'jwtSecret',
  'anonKey',
];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.apikey',
  'req.headers.cookie',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
}
