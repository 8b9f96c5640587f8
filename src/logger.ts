/**
 * @fileoverview The pino logger. Request logs carry method, URL and address only; credentials
 * are redacted wherever they could appear, so no secret or token reaches a log line.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.apikey',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.link_code',
  '*.share_token',
  '*.serviceRoleKey',
  '*.jwtSecret',
  '*.anonKey',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
}
