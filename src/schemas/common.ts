/** @fileoverview Schema pieces shared by several routes and the OpenAPI document. */
import { Type, type TSchema } from '@sinclair/typebox';

export const Uuid = Type.String({ format: 'uuid' });
export const DateTime = Type.String({ format: 'date-time' });

export const FieldErrorSchema = Type.Object({ path: Type.String(), message: Type.String() });

/** RFC 9457 problem document, as every error response is shaped. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    error: Type.String({
      description: 'The same as `code`, for clients that read `{error, message}` (docs/compatibility.md)',
    }),
    message: Type.String({ description: 'The same as `detail`, for clients that read `{error, message}`' }),
    errors: Type.Optional(Type.Array(FieldErrorSchema)),
    error_code: Type.Optional(Type.String()),
    msg: Type.Optional(Type.String()),
  },
  { $id: 'Problem', description: 'RFC 9457 problem document' },
);

const ref = Type.Ref('Problem');

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid bearer token',
  403: 'Authenticated credential lacks the required role',
  404: 'Not found',
  409: 'Request conflicts with existing state',
  413: 'Payload too large',
  415: 'Unsupported media type',
  429: 'Rate limit exceeded (see Retry-After)',
};

const ERROR_HEADERS: Record<number, Record<string, { description: string; type: string }>> = {
  401: { 'WWW-Authenticate': { description: 'Always `Bearer`', type: 'string' } },
  405: { Allow: { description: 'The methods this path accepts', type: 'string' } },
  429: { 'Retry-After': { description: 'Seconds to wait before retrying', type: 'integer' } },
};

/** Response map: the 200 schema plus `application/problem+json` documents for the listed statuses. */
export function responses<T extends TSchema>(ok: T, ...statuses: number[]): Record<number, unknown> {
  const map: Record<number, unknown> = { 200: ok };
  for (const status of statuses) {
    map[status] = {
      description: ERROR_TEXT[status] ?? 'Error',
      ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
      content: { 'application/problem+json': { schema: ref } },
    };
  }
  return map;
}

/** Responses of an operation whose 200 answer is not serialized JSON (an image, a streamed download): `ok` names its media types. */
export function rawResponses(
  ok: { description: string; content: Record<string, { schema: Record<string, unknown> }> },
  ...statuses: number[]
): Record<number, unknown> {
  return { ...responses(Type.Null(), ...statuses), 200: ok };
}
