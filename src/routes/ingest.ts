/** @fileoverview ingestUsage and recordSyncPing (device token). */
import type { App } from '../app-types.js';
import type { Clock } from '../clock.js';
import type { Static } from '@sinclair/typebox';
import { principalOf } from '../http/access.js';
import { problems } from '../http/problem.js';
import type { InflightGate, RateDecision, RateLimiter } from '../http/rate-limit.js';
import { normalizeBuckets } from '../ingest/core/normalize.js';
import type { IngestWriter } from '../ingest/types.js';
import { normalizeSubscriptions } from '../ingest/core/subscriptions.js';
import { responses } from '../schemas/common.js';
import { IngestRequest, IngestResponse, MAX_BUCKETS_PER_UPLOAD, SyncPingResponse } from '../schemas/ingest.js';
import type { ChannelService } from '../services/channels.js';
import type { DeviceService } from '../services/devices.js';
import { operation } from './operation.js';

export interface IngestDeps {
  clock: Clock;
  devices: DeviceService;
  writer: IngestWriter;
  limiter: RateLimiter;
  inflight: InflightGate;
  syncMinIntervalMinutes: number;
  /** Told after an upload that changed stored usage (brings a leaderboard refresh forward, checks budgets); must not wait. */
  onUsageChanged?: ((userId: string) => void) | undefined;
  /** Told how many buckets of each upload were stored, skipped (unchanged) or refused. */
  countBuckets: (accepted: number, skipped: number, refused: number) => void;
  /** One channel per (device, source): buckets of a source the device sends through OTLP are skipped. */
  channels?: Pick<ChannelService, 'refusedSources'> | undefined;
}

export function registerIngestRoutes(app: App, deps: IngestDeps): void {
  app.post(
    '/functions/svc-ingest',
    {
      ...operation(
        {
          operationId: 'ingestUsage',
          summary: 'Upload half-hour usage buckets',
          description:
            'Cumulative per-bucket totals: an upload replaces, for every (hour_start, source, model) it mentions, what this device stored. One request is one transaction. 409 when the upload would take the account past the stored buckets it may keep (MAX_STORED_BUCKETS_PER_USER); nothing of it is stored.',
          tags: ['ingest'],
          access: { roles: ['device'] },
        },
        { body: IngestRequest, response: responses(IngestResponse, 400, 401, 403, 409, 413, 415, 429) },
      ),
      // The device's rate comes before the body is even parsed: a refused upload costs almost
      // nothing. A callback, not a promise, and synchronous when this process keeps the buckets: it
      // runs for every upload. (A server of several processes asks its primary.)
      onRequest: (request, _reply, done) => {
        const decided = deps.limiter.take(principalOf(request, 'device').deviceId);
        if (decided instanceof Promise) decided.then((decision) => admit(decision, done), done);
        else admit(decided, done);
      },
      // The bucket bound comes before validation: a body of a million `{}` is refused for its
      // size, not walked item by item (docs/security.md, "Input and responses").
      preValidation: (request, _reply, done) => {
        const count = bucketsIn(request.body);
        if (count <= MAX_BUCKETS_PER_UPLOAD) return done();
        deps.countBuckets(0, 0, count);
        done(
          problems.tooLarge(`An upload may carry at most ${MAX_BUCKETS_PER_UPLOAD} buckets; this one has ${count}.`),
        );
      },
    },
    async (request) => {
      // The in-flight slot is taken only now, with the whole body here: a client that sends its
      // body slowly (or never) holds no slot, only its connection, until the request timeout.
      if (!deps.inflight.tryEnter())
        throw problems.rateLimited(1, 'The server is busy with other uploads; retry shortly.');
      try {
        return await ingest(request.body, principalOf(request, 'device'), deps);
      } finally {
        deps.inflight.leave();
      }
    },
  );

  app.post(
    '/functions/svc-sync-ping',
    operation(
      {
        operationId: 'recordSyncPing',
        summary: 'Record a sync heartbeat',
        tags: ['ingest'],
        access: { roles: ['device'] },
      },
      { response: responses(SyncPingResponse, 401, 403) },
    ),
    async (request) => {
      const { deviceId } = principalOf(request, 'device');
      const minutes = deps.syncMinIntervalMinutes;
      const result = await deps.devices.recordSyncPing(deviceId, minutes * 60_000);
      return {
        success: true,
        updated: result.updated,
        last_sync_at: new Date(result.lastSyncAt).toISOString(),
        min_interval_minutes: minutes,
      };
    },
  );
}

/** Lets an upload's body be read, or refuses it with 429 when its device is over its rate. */
function admit(decision: RateDecision, done: (error?: Error) => void): void {
  if (!decision.allowed)
    return done(
      problems.rateLimited(decision.retryAfterSeconds, 'Upload rate limit reached for this device; retry later.'),
    );
  done();
}

/** How many buckets a parsed, not yet validated body carries: its `hourly` and `data.hourly` lists together. */
function bucketsIn(body: unknown): number {
  const lengthOf = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  if (typeof body !== 'object' || body === null) return 0;
  const data: unknown = Reflect.get(body, 'data');
  return (
    lengthOf(Reflect.get(body, 'hourly')) +
    (typeof data === 'object' && data !== null ? lengthOf(Reflect.get(data, 'hourly')) : 0)
  );
}

/** Normalizes and stores one upload. */
async function ingest(
  body: Static<typeof IngestRequest>,
  device: { userId: string; deviceId: string },
  deps: IngestDeps,
) {
  const now = deps.clock.now();
  let buckets = normalizeBuckets(body, now);
  let refusedBuckets = 0;
  if (deps.channels && buckets.length > 0) {
    const refused = await deps.channels.refusedSources(
      device.deviceId,
      buckets.map((b) => b.source),
      'cli',
    );
    if (refused.size > 0) {
      const kept = buckets.filter((b) => !refused.has(b.source));
      refusedBuckets = buckets.length - kept.length;
      buckets = kept;
    }
  }
  const subscriptions = body.device_subscriptions ? normalizeSubscriptions(body.device_subscriptions) : undefined;
  const result = await deps.writer.apply({
    userId: device.userId,
    deviceId: device.deviceId,
    now,
    buckets,
    subscriptions,
  });
  deps.countBuckets(result.inserted, result.skipped + refusedBuckets, 0);
  if (result.inserted > 0) deps.onUsageChanged?.(device.userId);
  return {
    success: true,
    inserted: result.inserted,
    skipped: result.skipped + refusedBuckets,
    project_inserted: result.projectInserted,
    project_skipped: result.projectSkipped,
  };
}
