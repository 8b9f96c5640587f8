/**
 * @fileoverview One log line per request, written when it completes: method, URL, status and
 * time. (Fastify's default writes two.) Headers and bodies are never logged, so no credential is;
 * a token in the URL (an invite link's `?invite=tt_inv_…`) is logged by its prefix only.
 *
 * The completed line is built here from those four fields only, so it goes through a child logger
 * without the redaction pass, which cost about a tenth of an upload's HTTP work (docs/decisions.md,
 * "Speed"). Error lines carry an error object and keep the redacting logger.
 *
 * The one-click link page (`/link?callback=…&state=…`) is logged without its query string: the
 * state is the CLI's one-time secret for that link, and whoever reads the log must not be able to
 * hand the waiting command a code of their own. A password recovery link (`/auth/v1/verify?token=…`)
 * likewise.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/** Opaque tokens (`tt_<kind>_<secret>`) in a URL, cut to their prefix. */
const URL_TOKEN = /\b(tt_[a-z]+_)[A-Za-z0-9_-]+/g;

/**
 * Paths logged without their query: the dashboard's link page, `/callback` (the CLI's loopback
 * answer, never a route of this server, but a misdirected one carries the same state), and
 * `/auth/v1/verify` (a password recovery link's token signs its holder in).
 */
const PATH_ONLY = new Set(['/link', '/callback', '/auth/v1/verify']);

/**
 * The URL as logged: without the query string where it may carry a one-time state, and any opaque
 * token elsewhere cut to its prefix (`tt_inv_…`).
 */
export function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query !== -1) {
    const path = url.slice(0, query);
    const plain = path.toLowerCase().replace(/\/+$/, '').replace(/^\/+/, '/');
    if (PATH_ONLY.has(plain)) return path;
  }
  return url.includes('tt_') ? url.replace(URL_TOKEN, '$1…') : url;
}

export class OneLinePerRequest extends LogController {
  private readonly lines: Logger;

  constructor(logger: Logger) {
    super();
    this.lines = logger.child({}, { redact: [] });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: loggedUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else this.lines.info({ reqId: request.id, ...line }, 'request completed');
  }
}
