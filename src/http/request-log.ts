/**
 * @fileoverview One log line per request, written when it completes: method, URL, status and
 * time. (Fastify's default writes two.) Headers and bodies are never logged, so no credential is.
 *
 * The completed line is built here from those four fields only, so it goes through a child logger
 * without the redaction pass, which cost about a tenth of an upload's HTTP work (docs/decisions.md,
 * "Speed"). Error lines carry an error object and keep the redacting logger.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

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
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else this.lines.info({ reqId: request.id, ...line }, 'request completed');
  }
}
