/**
 * @fileoverview Keep-alive connections survive every answer. An answer that leaves the connection
 * open must first let the request body be read to its end; one that cannot says
 * `Connection: close` and ends the socket gracefully, so a keep-alive client never reuses a socket
 * the server is closing (docs/decisions.md, "Keep-alive connections").
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, problems } from './problem.js';

/** How much of a refused (413) body is read and discarded to keep its connection open. */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;
/** How long a socket refused at the HTTP-parser level lingers for the client to read the answer. */
const LINGER_MS = 2_000;

/**
 * Fastify answers a body it could not parse with `Connection: close` because the body may not have
 * been read. A body that was read in full leaves nothing on the wire, so the connection stays open;
 * a body refused for its size is read to its end and dropped (up to DRAIN_LIMIT_BYTES), so the
 * client, still sending, is never cut off before it reads the 413.
 */
export function registerConnectionKeeping(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (String(reply.getHeader('connection')).toLowerCase() === 'close') keepOpenIfSafe(request, reply);
    done(null, payload);
  });
}

function keepOpenIfSafe(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.complete) {
    reply.removeHeader('connection');
    return;
  }
  if (reply.statusCode !== 413) return;
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) return;
  reply.removeHeader('connection');
  let drained = 0;
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    // A body without a length that never ends: stop reading it (its 413 was already sent).
    if (drained > DRAIN_LIMIT_BYTES) raw.socket.destroy();
  });
  raw.resume();
}

/** The problem for what Node's HTTP parser refused before it became a request. */
function clientProblem(code: string | undefined): AppError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new AppError(408, 'request_timeout', 'The request did not arrive in time; the connection is closed.');
  }
  if (code === 'HPE_HEADER_OVERFLOW')
    return new AppError(431, 'headers_too_large', 'The request headers are too large.');
  return problems.invalid('The request is not valid HTTP/1.1.');
}

/**
 * The method of the request being parsed: the last request line that begins at or before where
 * parsing stopped. The whole packet is searched, since parsing may stop inside the request line (a
 * request after one whose framing the parser refused), and the packet may begin with the end of the
 * previous request's body, so a request line is not always at a line start.
 */
function methodOf(error: ConnectionError): string | undefined {
  const packet: unknown = error.rawPacket;
  if (!Buffer.isBuffer(packet)) return undefined;
  const stop = error.bytesParsed || packet.length;
  let method: string | undefined;
  for (const match of packet.toString('latin1').matchAll(/([A-Z]+) [^\s]+(?: HTTP\/1\.[01]\r\n|$)/g)) {
    if (match.index <= stop) method = match[1];
  }
  return method;
}

/**
 * Answers what Node's HTTP parser rejected (malformed framing, oversized headers, a client too slow
 * to send its headers or whole request) with a problem document and `Connection: close`, then ends
 * the socket gracefully instead of destroying it, so the answer reaches the client rather than a
 * reset; the socket is destroyed only after a short linger.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this socket (Node's in-flight message) must not be corrupted.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const problem = clientProblem(error.code);
    const body = JSON.stringify(problem.toProblem());
    // An answer to HEAD has no body; a client reading one would take the body for garbage.
    const head = methodOf(error) === 'HEAD';
    socket.end(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\nConnection: close\r\n` +
        `Content-Type: application/problem+json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
