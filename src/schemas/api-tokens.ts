/** @fileoverview Personal API tokens: createApiToken, listApiTokens, revokeApiToken (docs/api-tokens.md). */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from './common.js';

const NullableDateTime = Type.Union([DateTime, Type.Null()]);

/** Longest token name, and the longest lifetime one may ask for (ten years). */
export const API_TOKEN_NAME_MAX = 100;
export const API_TOKEN_DAYS_MAX = 3650;

export const ApiTokenCreateRequest = Type.Object(
  {
    // Not blank (a non-space character somewhere); control characters are refused for every string.
    name: Type.String({ minLength: 1, maxLength: API_TOKEN_NAME_MAX, pattern: '\\S' }),
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: API_TOKEN_DAYS_MAX })),
  },
  { additionalProperties: false },
);
export type ApiTokenCreateRequest = Static<typeof ApiTokenCreateRequest>;

export const ApiTokenCreateResponse = Type.Object({
  id: Uuid,
  token: Type.String({ description: 'The token (tt_pat_…): shown this once, never again.' }),
  name: Type.String(),
  created_at: DateTime,
  expires_at: NullableDateTime,
});
export type ApiTokenCreateResponse = Static<typeof ApiTokenCreateResponse>;

export const ApiTokenEntry = Type.Object({
  id: Uuid,
  name: Type.String(),
  created_at: DateTime,
  expires_at: NullableDateTime,
  last_used_at: Type.Union([DateTime, Type.Null()], { description: 'Kept to the minute.' }),
});
export type ApiTokenEntry = Static<typeof ApiTokenEntry>;

export const ApiTokenListResponse = Type.Object({ tokens: Type.Array(ApiTokenEntry) });
export type ApiTokenListResponse = Static<typeof ApiTokenListResponse>;

export const ApiTokenRevokeRequest = Type.Object({ id: Uuid }, { additionalProperties: false });
export type ApiTokenRevokeRequest = Static<typeof ApiTokenRevokeRequest>;

export const ApiTokenRevokeResponse = Type.Object({ revoked: Type.Literal(true), id: Uuid });
export type ApiTokenRevokeResponse = Static<typeof ApiTokenRevokeResponse>;
