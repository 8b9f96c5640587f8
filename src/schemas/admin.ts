/** @fileoverview Admin maintenance: purgeEvents and syncPricing (service role only). */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from './common.js';

export const PurgeEventsQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 365,
      default: 30,
      description: 'Delete upload events older than this many days.',
    }),
  ),
  dry_run: Type.Optional(
    Type.Union([Type.Literal('1'), Type.Literal('0'), Type.Literal('true'), Type.Literal('false')], {
      description: '1: only count what would be deleted.',
    }),
  ),
});
export type PurgeEventsQuery = Static<typeof PurgeEventsQuery>;

export const PurgeEventsResponse = Type.Object(
  { success: Type.Boolean(), dry_run: Type.Boolean(), days: Type.Integer(), cutoff: DateTime, deleted: Type.Integer() },
  { additionalProperties: true },
);

export const PricingSyncResponse = Type.Object(
  {
    success: Type.Boolean(),
    updated: Type.Boolean({ description: 'True when analytics now use the fetched data.' }),
    source_url: Type.String(),
    format: Type.Union([Type.Literal('genai-prices'), Type.Literal('openrouter'), Type.Null()]),
    source: Type.String(),
    effective_from: Type.String({ format: 'date' }),
    models_seen: Type.Integer(),
    models_updated: Type.Integer(),
    models_unchanged: Type.Integer(),
    models_skipped: Type.Integer(),
    skipped: Type.Array(Type.Object({ id: Type.String(), reason: Type.String() })),
    persisted: Type.Boolean(),
    costs_repriced: Type.Optional(
      Type.Integer({
        description:
          'Stored daily costs that changed when every stored cost was repriced with the new data (present when updated).',
      }),
    ),
    reason: Type.Optional(Type.String({ description: 'Why the prices were not updated (or not kept).' })),
  },
  { additionalProperties: true },
);
