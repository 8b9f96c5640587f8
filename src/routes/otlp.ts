/**
 * @fileoverview The OTLP/HTTP receiver (docs/otlp.md): `POST /v1/metrics`, `/v1/logs` and
 * `/v1/traces` at the server's root, binary protobuf or JSON, gzip or not, device token as bearer.
 * Answers follow the OTLP/HTTP specification: 200 with the Export*ServiceResponse in the request's
 * encoding (partial_success for what was not counted), 400 with a google.rpc.Status for a body that
 * does not decode, 401/413/415/429 before anything is read.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { FastifyReply } from 'fastify';
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { AppError, problems } from '../http/problem.js';
import type { RateDecision, RateLimiter } from '../http/rate-limit.js';
import { decodeRequest, encodeResponse, encodeStatus, type Encoding, type Signal } from '../otlp/proto.js';
import { rawResponses } from '../schemas/common.js';
import type { OtlpService } from '../services/otlp.js';
import { operation } from './operation.js';

const unzip = promisify(gunzip);

export interface OtlpRouteDeps {
  otlp: OtlpService;
  limiter: RateLimiter;
  /** The compressed body limit (as svc-ingest's); a gzip body may expand to `inflatedLimitBytes`. */
  bodyLimitBytes: number;
  inflatedLimitBytes: number;
}

/** What the content type parser hands the handler. */
interface RawBody {
  encoding: Encoding | undefined;
  bytes: Buffer;
}

const MEDIA: Record<Encoding, string> = { protobuf: 'application/x-protobuf', json: 'application/json' };

const GRPC_INVALID_ARGUMENT = 3;

export async function registerOtlpRoutes(app: App, deps: OtlpRouteDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.bodyLimitBytes }, (request, body, done) => {
      done(null, { encoding: encodingOf(request.headers['content-type']), bytes: body as Buffer } satisfies RawBody);
    });
    for (const signal of ['metrics', 'logs', 'traces'] as const) {
      scope.post(
        `/v1/${signal}`,
        {
          ...operation(
            {
              operationId: `otlpExport${signal[0]?.toUpperCase()}${signal.slice(1)}`,
              summary: `Receive an OTLP/HTTP ${signal} export (agent telemetry)`,
              description:
                'OTLP/HTTP (application/x-protobuf or application/json, gzip or not). Token usage of known agents is counted into half-hour buckets (docs/otlp.md); everything else is answered in partial_success.',
              tags: ['ingest'],
              access: { roles: ['device'] },
            },
            {
              response: rawResponses(
                {
                  description: `Export${signal === 'traces' ? 'Trace' : signal === 'logs' ? 'Logs' : 'Metrics'}ServiceResponse`,
                  content: { [MEDIA.protobuf]: { schema: {} }, [MEDIA.json]: { schema: { type: 'object' } } },
                },
                400,
                401,
                403,
                413,
                415,
                429,
              ),
            },
          ),
          onRequest: (request, _reply, done) => {
            const decided = deps.limiter.take(principalOf(request, 'device').deviceId);
            if (decided instanceof Promise) decided.then((decision) => admit(decision, done), done);
            else admit(decided, done);
          },
        },
        async (request, reply) =>
          exportSignal(signal, request.body as RawBody | undefined, request.headers, reply, () =>
            principalOf(request, 'device'),
          ),
      );
    }
  });

  async function exportSignal(
    signal: Signal,
    body: RawBody | undefined,
    headers: IncomingHttpHeaders,
    reply: FastifyReply,
    device: () => { userId: string; deviceId: string },
  ) {
    const encoding = body?.encoding ?? encodingOf(headers['content-type']);
    if (encoding === undefined) throw unsupported();
    let bytes = body?.bytes ?? Buffer.alloc(0);
    const contentEncoding = String(headers['content-encoding'] ?? '').toLowerCase();
    if (contentEncoding === 'gzip') {
      try {
        bytes = await unzip(bytes, { maxOutputLength: deps.inflatedLimitBytes });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          throw problems.tooLarge(`The gzip body expands past ${deps.inflatedLimitBytes} bytes.`);
        return badRequest(reply, encoding, 'The body is not valid gzip.');
      }
    } else if (contentEncoding !== '' && contentEncoding !== 'identity') {
      throw unsupported(`Content-Encoding ${contentEncoding} is not accepted; send gzip or none.`);
    }
    const decoded = decodeRequest(signal, encoding, bytes);
    if (decoded instanceof Error) return badRequest(reply, encoding, decoded.message);
    const outcome = await deps.otlp.export(signal, decoded, device());
    return reply.type(MEDIA[encoding]).send(encodeResponse(signal, encoding, outcome.rejected, outcome.message));
  }
}

function encodingOf(contentType: string | undefined): Encoding | undefined {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === MEDIA.protobuf ? 'protobuf' : type === MEDIA.json ? 'json' : undefined;
}

function unsupported(detail = 'Send OTLP/HTTP with Content-Type application/x-protobuf or application/json.') {
  return new AppError(415, 'unsupported_media_type', detail);
}

function badRequest(reply: FastifyReply, encoding: Encoding, message: string) {
  return reply
    .code(400)
    .type(MEDIA[encoding])
    .send(encodeStatus(encoding, GRPC_INVALID_ARGUMENT, message));
}

function admit(decision: RateDecision, done: (error?: Error) => void): void {
  if (!decision.allowed)
    return done(
      problems.rateLimited(decision.retryAfterSeconds, 'Upload rate limit reached for this device; retry later.'),
    );
  done();
}
