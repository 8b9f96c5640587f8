/**
 * @fileoverview One channel per (device, source): the first of the CLI (`svc-ingest`) and OTLP to
 * bring a source of a device keeps it; the other is refused for that source (docs/otlp.md). A
 * recorded channel never changes, so answers are cached (bounded) after the first database read.
 */
import type { Db } from '../db/connect.js';
import { channelsOfDevices, claimChannels } from '../db/queries/otlp.js';
import type { Clock } from '../clock.js';
import { BoundedCache } from './bounded-cache.js';

export type Channel = 'cli' | 'otlp';

export class ChannelService {
  private readonly cache = new BoundedCache<string>(100_000);
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Records `channel` for the device's sources that have none; answers the sources that belong to
   * the other channel (their usage is refused).
   */
  async refusedSources(deviceId: string, sources: Iterable<string>, channel: Channel): Promise<Set<string>> {
    const refused = new Set<string>();
    const unknown: string[] = [];
    for (const source of new Set(sources)) {
      const known = this.cache.get(`${deviceId}\u0000${source}`);
      if (known === undefined) unknown.push(source);
      else if (known !== channel) refused.add(source);
    }
    if (unknown.length === 0) return refused;
    const claimed = await claimChannels(this.db.kysely, deviceId, unknown, channel, this.clock.now());
    for (const [source, owner] of claimed) {
      this.cache.set(`${deviceId}\u0000${source}`, owner);
      if (owner !== channel) refused.add(source);
    }
    return refused;
  }

  /** Each device's sources with their channel (the Devices page). */
  async ofDevices(deviceIds: readonly string[]): Promise<Map<string, Array<{ source: string; channel: string }>>> {
    const out = new Map<string, Array<{ source: string; channel: string }>>();
    for (const row of await channelsOfDevices(this.db.kysely, deviceIds)) {
      const list = out.get(row.device_id) ?? [];
      list.push({ source: row.source, channel: row.channel });
      out.set(row.device_id, list);
    }
    return out;
  }
}
