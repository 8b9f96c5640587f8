/**
 * @fileoverview Answers for requests Fastify refuses before any hook runs (a URL that cannot be
 * decoded: 400), as problem documents like every other error, and the `nosniff` header every
 * response carries. What Node's parser refuses (408, 431, not HTTP) is answered in connection.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { problems } from './problem.js';
import { sendProblem } from './error-handler.js';

/** Sent on every response: a browser must never guess another content type than the one declared. */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

/** Fastify's framework errors (a URL that cannot be decoded, …), answered before any hook runs. */
export function answerFrameworkError(
  error: Error & { code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.headers(NOSNIFF);
  const problem =
    error.code === 'FST_ERR_BAD_URL'
      ? problems.invalid('The URL is malformed: it has an invalid percent-encoding.')
      : problems.invalid('The request is invalid.');
  void sendProblem(request, reply, problem);
}
