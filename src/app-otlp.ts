/**
 * @fileoverview Wiring of the OTLP receiver (docs/otlp.md), kept out of the composition root:
 * its service over the shared ingest writer, its routes, and the channel record (one channel per
 * device and source) that svc-ingest and the Devices page share.
 */
import type { App } from './app-types.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { IngestWriter } from './ingest/types.js';
import { registerOtlpRoutes } from './routes/otlp.js';
import { ChannelService } from './services/channels.js';
import { OtlpService } from './services/otlp.js';

/** How far a gzip body may expand, as a multiple of the body limit. */
const INFLATE_FACTOR = 8;

export async function registerOtlpReceiver(
  app: App,
  deps: {
    db: Db;
    clock: Clock;
    config: Config;
    writer: IngestWriter;
    limiter: RateLimiter;
    onUsageChanged: ((userId: string) => void) | undefined;
    /** Nothing but this process writes the database (docs/otlp.md, "Speed"). */
    soleWriter: boolean;
  },
): Promise<ChannelService> {
  const { db, clock, writer, onUsageChanged, soleWriter } = deps;
  const channels = new ChannelService(db, clock);
  const otlp = new OtlpService({ db, clock, writer, channels, onUsageChanged, soleWriter });
  const bodyLimitBytes = deps.config.limits.bodyLimitBytes;
  await registerOtlpRoutes(app, {
    otlp,
    limiter: deps.limiter,
    bodyLimitBytes,
    inflatedLimitBytes: bodyLimitBytes * INFLATE_FACTOR,
  });
  return channels;
}
