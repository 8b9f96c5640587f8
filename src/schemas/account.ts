/** @fileoverview Account operations beyond the sign-in API: deleteAccount and exportUsage. */
import { Type, type Static } from '@sinclair/typebox';

export const AccountDeleteRequest = Type.Object(
  {
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'the account password, re-entered' })),
    confirm: Type.Optional(
      Type.String({ maxLength: 64, description: 'accounts without a password (external OpenID Connect sign-in): the words "delete my account"' }),
    ),
  },
  { additionalProperties: false },
);
export type AccountDeleteRequest = Static<typeof AccountDeleteRequest>;

export const AccountDeleteResponse = Type.Object({
  deleted: Type.Literal(true),
  user_id: Type.String({ format: 'uuid' }),
});
export type AccountDeleteResponse = Static<typeof AccountDeleteResponse>;

export const ExportQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'json (default) or csv' })),
  from: Type.Optional(Type.String({ maxLength: 32, description: 'first UTC day, YYYY-MM-DD (default: all time)' })),
  to: Type.Optional(Type.String({ maxLength: 32, description: 'last UTC day, YYYY-MM-DD, inclusive (default: all time)' })),
});
export type ExportQuery = Static<typeof ExportQuery>;
