/**
 * @fileoverview The OTLP receiver's state stored with its buckets: on SQLite with a database file
 * (the ingest writer thread, where the state crosses with the buckets) and on PostgreSQL, the
 * counted ids, cumulative series values and running sums are in the database once an export is
 * answered, equal to the stored buckets, and a fresh reader of the state (a restarted process)
 * finds them there.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { OtlpState } from '../../src/services/otlp-state.js';
import { listDeviceBuckets } from '../helpers/stored-usage.js';
import { issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { counterSender, sendEvents } from '../helpers/otlp-senders.js';

let t: TestApp;
let user: TestUser;
let base: string;
// The SDK stamps metric points with the real time: the app's clock starts at the real now.
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
const AT = NOW - 20 * 60_000;
const HALF_HOUR = Math.floor(AT / 1_800_000) * 1_800_000;

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(NOW), sqliteFile: true });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  user = await signUp(t);
});
afterAll(async () => t?.close());

describe(`OTLP state stored with the buckets (${engine}${engine === 'sqlite' ? ', database file' : ''})`, () => {
  it('keeps counted ids, series values and running sums in the database, read back by a fresh reader', async () => {
    const device = await issueDevice(t, user, 'otlp-state');
    const to = { base, token: device.token };
    const event = (id: string, input: number) => ({
      name: 'claude_code.api_request',
      at: AT,
      attributes: { request_id: id, model: 'claude-opus-4-5', input_tokens: input, output_tokens: 10 },
    });
    await sendEvents(to, 'claude-code', [event('req_a', 100), event('req_b', 200)]);
    await sendEvents(to, 'claude-code', [event('req_b', 200)]); // a retry: counted once
    const qwen = counterSender(to, 'qwen-code', 'qwen-code.token.usage');
    const attrs = { type: 'input', model: 'qwen3-coder-plus' };
    qwen.add(1000, attrs);
    await qwen.flush();
    qwen.add(500, attrs);
    await qwen.flush();
    await qwen.shutdown();

    const buckets = await listDeviceBuckets(t.db.kysely, device.deviceId);
    const bucket = (source: string) => buckets.find((b) => b.source === source);
    expect(Number(bucket('claude')?.total)).toBe(320);
    expect(Number(bucket('qwen')?.input)).toBe(1500);

    const seenRows = await t.db.kysely
      .selectFrom('otlp_seen')
      .select('record_id')
      .where('device_id', '=', device.deviceId)
      .execute();
    expect(seenRows.map((r) => r.record_id).sort()).toEqual(['claude:req_a', 'claude:req_b']);
    const series = await t.db.kysely
      .selectFrom('otlp_series')
      .select(['series_key', 'last_value'])
      .where('device_id', '=', device.deviceId)
      .execute();
    expect(series.map((s) => BigInt(s.last_value))).toEqual([1500n]);

    // A restarted process: nothing remembered, everything read from the database.
    const fresh = new OtlpState(t.db, engine === 'sqlite');
    expect(await fresh.seen(device.deviceId, ['claude:req_a', 'claude:req_new'])).toEqual(new Set(['claude:req_a']));
    const key = series[0]?.series_key ?? '';
    expect((await fresh.series(device.deviceId, [key])).get(key)?.lastValue).toBe(1500n);
    const hours = buckets.map((b) => Number(b.hour_start));
    expect(hours).toContain(HALF_HOUR);
    const sums = await fresh.sums(device.deviceId, hours);
    expect(sums.map((s) => [s.source, s.model, s.input, s.total]).sort()).toEqual([
      ['claude', 'claude-opus-4-5', 300n, 320n],
      ['qwen', 'qwen3-coder-plus', 1500n, 1500n],
    ]);
  });
});
