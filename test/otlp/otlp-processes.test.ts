/**
 * @fileoverview Two processes exporting for one device at the same moment (docs/otlp.md, "Several
 * processes"): two receivers, each with its own ingest writer (on SQLite, its own writer thread on
 * the same database file), both read the device's state before either writes. The second write is
 * refused (the state's version moved) and counted again, so no increment is lost. A barrier in
 * front of the writers holds the first write until the second export has read the state, so the
 * interleaving is the same on every run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import type { IngestBatch, IngestResult, IngestWriter } from '../../src/ingest/types.js';
import { decodeRequest } from '../../src/otlp/proto.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { ChannelService } from '../../src/services/channels.js';
import { OtlpService } from '../../src/services/otlp.js';
import { issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { listDeviceBuckets } from '../helpers/stored-usage.js';

const NOW = Date.UTC(2026, 10, 20, 12, 0);
const AT = NOW - 20 * 60_000;
const RATES: TokenRates = { input: 1n, cached: 1n, output: 1n, reasoning: 1n };

let t: TestApp;
const writers: IngestWriter[] = [];
beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(NOW), sqliteFile: true });
});
afterAll(async () => {
  for (const w of writers) await w.close();
  await t?.close();
});

/** Claude Code's `api_request` events as an OTLP/JSON logs export, decoded by the receiver's decoder. */
function claudeEvents(events: Array<{ id: string; input: number }>): unknown {
  const attr = (key: string, value: string | number) => ({
    key,
    value: typeof value === 'string' ? { stringValue: value } : { intValue: String(value) },
  });
  const body = {
    resourceLogs: [
      {
        resource: { attributes: [attr('service.name', 'claude-code')] },
        scopeLogs: [
          {
            scope: { name: 'com.anthropic.claude_code.events' },
            logRecords: events.map((e) => ({
              timeUnixNano: String(BigInt(AT) * 1_000_000n),
              eventName: 'claude_code.api_request',
              attributes: [
                attr('event.name', 'claude_code.api_request'),
                attr('request_id', e.id),
                attr('model', 'claude-opus-4-5'),
                attr('input_tokens', e.input),
                attr('output_tokens', 0),
              ],
            })),
          },
        ],
      },
    ],
  };
  const decoded = decodeRequest('logs', 'json', Buffer.from(JSON.stringify(body)));
  if (decoded instanceof Error) throw decoded;
  return decoded;
}

/** Writers that pass nothing on until `count` writes are waiting (then all, in arrival order). */
function barrier(count: number) {
  const waiting: Array<() => void> = [];
  let open = false;
  return (writer: IngestWriter): IngestWriter => ({
    close: () => writer.close(),
    async apply(batch: IngestBatch): Promise<IngestResult> {
      if (!open) {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === count) {
            open = true;
            for (const release of waiting) release();
          }
        });
      }
      return writer.apply(batch);
    },
  });
}

describe(`OTLP exports of one device in two processes at once (${engine})`, () => {
  it('counts both exports: the write against moved state is counted again', async () => {
    const user = await signUp(t);
    const device = await issueDevice(t, user, 'two-processes');
    const held = barrier(2);
    const receiver = () => {
      const writer = createIngestWriter(t.db, () => RATES);
      writers.push(writer);
      const channels = new ChannelService(t.db, t.clock);
      return new OtlpService({ db: t.db, clock: t.clock, writer: held(writer), channels, soleWriter: false });
    };
    const [a, b] = [receiver(), receiver()];
    const owner = { userId: user.id, deviceId: device.deviceId };

    const [fromA, fromB] = await Promise.all([
      a.export('logs', claudeEvents([{ id: 'req_a', input: 100 }]), owner),
      b.export('logs', claudeEvents([{ id: 'req_b', input: 200 }]), owner),
    ]);
    expect(fromA.rejected + fromB.rejected).toBe(0);
    // Both processes' later exports see what the other stored: a retry of req_a counts nothing.
    await b.export(
      'logs',
      claudeEvents([
        { id: 'req_a', input: 100 },
        { id: 'req_c', input: 1 },
      ]),
      owner,
    );

    const buckets = await listDeviceBuckets(t.db.kysely, device.deviceId);
    expect(buckets.map((x) => [x.source, Number(x.input)])).toEqual([['claude', 301]]);
    const version = await t.db.kysely
      .selectFrom('otlp_versions')
      .select('version')
      .where('device_id', '=', device.deviceId)
      .executeTakeFirstOrThrow();
    // Three exports stored, one of them on its second attempt.
    expect(BigInt(version.version)).toBe(3n);
  });
});
