/** @fileoverview ingestUsage and recordSyncPing. */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from './common.js';

/**
 * The most buckets one upload carries, `hourly` and `data.hourly` together: past it an upload is
 * 413 (the interface's rule), answered before the body is validated (routes/ingest.ts). Each list
 * is also bounded by it in the schema, so no body's validation walks an unbounded list.
 */
export const MAX_BUCKETS_PER_UPLOAD = 500;

/** Token counts: JSON integers 0..10^12 (a trillion tokens in a half-hour is beyond any real use). */
const Count = Type.Integer({ minimum: 0, maximum: 1_000_000_000_000 });

export const UsageBucket = Type.Object(
  {
    hour_start: Type.String({ maxLength: 64, description: 'ISO 8601 date-time with zone, on a UTC half-hour' }),
    source: Type.Optional(Type.String({ maxLength: 64 })),
    model: Type.Optional(Type.String({ maxLength: 128 })),
    input_tokens: Type.Optional(Count),
    cached_input_tokens: Type.Optional(Count),
    output_tokens: Type.Optional(Count),
    reasoning_output_tokens: Type.Optional(Count),
    total_tokens: Count,
    project_key: Type.Optional(Type.String({ maxLength: 200 })),
    project_ref: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: true, description: 'One half-hour aggregate; unknown fields are ignored' },
);
export type UsageBucket = Static<typeof UsageBucket>;

const Text = Type.Optional(Type.String({ maxLength: 256 }));

export const DeviceSubscription = Type.Object(
  { tool: Text, provider: Text, product: Text, planType: Text, rateLimitTier: Text },
  { additionalProperties: true },
);
export type DeviceSubscription = Static<typeof DeviceSubscription>;

export const IngestRequest = Type.Object(
  {
    hourly: Type.Optional(Type.Array(UsageBucket, { maxItems: MAX_BUCKETS_PER_UPLOAD })),
    device_subscriptions: Type.Optional(Type.Array(DeviceSubscription, { maxItems: 16 })),
    data: Type.Optional(
      Type.Object(
        { hourly: Type.Optional(Type.Array(UsageBucket, { maxItems: MAX_BUCKETS_PER_UPLOAD })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type IngestRequest = Static<typeof IngestRequest>;

export const IngestResponse = Type.Object({
  success: Type.Boolean(),
  inserted: Type.Optional(Type.Integer()),
  skipped: Type.Optional(Type.Integer()),
  project_inserted: Type.Optional(Type.Integer()),
  project_skipped: Type.Optional(Type.Integer()),
});

export const SyncPingResponse = Type.Object({
  success: Type.Boolean(),
  updated: Type.Optional(Type.Boolean()),
  last_sync_at: Type.Optional(DateTime),
  min_interval_minutes: Type.Optional(Type.Integer()),
});
