/** @fileoverview Account operations beyond the sign-in API: deleteAccount and exportUsage. */
import { Type, type Static } from '@sinclair/typebox';
import { parseLocalDate } from '../domain/calendar.js';
import { textParam } from './text-params.js';

export const AccountDeleteRequest = Type.Object(
  {
    password: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1024, description: 'the account password, re-entered' }),
    ),
    confirm: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'accounts without a password (external OpenID Connect sign-in): the words "delete my account"',
      }),
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
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'json (default) or csv' }),
  ),
  // Read in this order, `from` first, as the export checks them.
  from: textParam(Type.String({ format: 'date', description: 'first UTC day (default: all time)' }), 32, (text) =>
    parseLocalDate(text, 'from'),
  ),
  to: textParam(
    Type.String({ format: 'date', description: 'last UTC day, inclusive (default: all time)' }),
    32,
    (text) => parseLocalDate(text, 'to'),
  ),
});
export type ExportQuery = Static<typeof ExportQuery>;
