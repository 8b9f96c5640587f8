import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countIngestEvents,
  listDeviceBuckets,
  listProjectUsage,
  sumUserBuckets,
  sumUserUsage,
} from '../helpers/stored-usage.js';
import { userIngestLockKey } from '../../src/db/dialect.js';
import {
  bearer,
  ingest,
  issueDevice,
  signUp,
  TRILLION_DAY_BOUND,
  type TestUser,
  trillionBuckets,
} from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

const H1 = '2026-11-01T10:00:00.000Z';

/** Makes the ingest writer wait (SQLite: the app's write lock; PostgreSQL: the user's ingest lock) until released. */
async function holdIngestWriter(t: TestApp, userId: string): Promise<() => Promise<void>> {
  if (t.db.dialect === 'sqlite') {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    void t.db.writeLock.run(() => held);
    return async () => release();
  }
  const client = await t.db.pool.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [userIngestLockKey(userId)]);
  return async () => {
    await client.query('COMMIT');
    client.release();
  };
}
const H2 = '2026-11-01T10:30:00Z';

describe(`ingestUsage (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  let device: { token: string; deviceId: string };

  beforeEach(async () => {
    t = await createTestApp({ sqliteFile: true }); // on SQLite, written on the ingest writer thread
    user = await signUp(t);
    device = await issueDevice(t, user);
  });
  afterEach(async () => t.close());

  it('stores a bucket and answers inserted/skipped; the same upload again is skipped', async () => {
    const bucket = {
      hour_start: H1,
      source: 'Codex ',
      model: ' GPT-5',
      input_tokens: 100,
      cached_input_tokens: 40,
      output_tokens: 20,
      reasoning_output_tokens: 5,
      total_tokens: 120,
    };
    const first = await ingest(t, device.token, [bucket]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ success: true, inserted: 1, skipped: 0, project_inserted: 0, project_skipped: 0 });
    const again = await ingest(t, device.token, [bucket]);
    expect(again.json()).toMatchObject({ inserted: 0, skipped: 1 });
    const rows = await listDeviceBuckets(t.db.kysely, device.deviceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'codex', model: 'gpt-5', input: 100n, total: 120n, billable: 120n });
    expect(await sumUserUsage(t.db.kysely, user.id)).toMatchObject({ total: 120n, billable: 120n });
  });

  it('replaces a grown bucket instead of adding to it', async () => {
    await ingest(t, device.token, [
      {
        hour_start: H1,
        source: 'claude',
        model: 'claude-sonnet-4',
        input_tokens: 10,
        output_tokens: 10,
        total_tokens: 20,
      },
    ]);
    const grown = await ingest(t, device.token, [
      {
        hour_start: H1,
        source: 'claude',
        model: 'claude-sonnet-4',
        input_tokens: 30,
        cached_input_tokens: 5,
        output_tokens: 15,
        total_tokens: 50,
      },
    ]);
    expect(grown.json()).toMatchObject({ inserted: 1, skipped: 0 });
    expect(await sumUserUsage(t.db.kysely, user.id)).toMatchObject({
      input: 30n,
      cached: 5n,
      total: 50n,
      billable: 50n,
    });
  });

  it('adds up two devices of one user', async () => {
    const other = await issueDevice(t, user, 'desktop');
    const bucket = {
      hour_start: H1,
      source: 'codex',
      model: 'gpt-5',
      input_tokens: 7,
      output_tokens: 3,
      total_tokens: 10,
    };
    await ingest(t, device.token, [bucket]);
    await ingest(t, other.token, [bucket]);
    expect(await sumUserUsage(t.db.kysely, user.id)).toMatchObject({ total: 20n, billable: 20n });
  });

  it('keeps the last of duplicate buckets inside one request', async () => {
    const res = await ingest(t, device.token, [
      { hour_start: H1, model: 'm', total_tokens: 5 },
      { hour_start: '2026-11-01T11:00:00+01:00', model: 'M', total_tokens: 9 },
    ]);
    expect(res.json()).toMatchObject({ inserted: 1, skipped: 0 });
    const rows = await listDeviceBuckets(t.db.kysely, device.deviceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'unknown', model: 'm', total: 9n, billable: 9n });
  });

  it('takes the union of hourly and data.hourly', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: bearer(device.token),
      payload: {
        hourly: [{ hour_start: H1, total_tokens: 1 }],
        data: { hourly: [{ hour_start: H2, total_tokens: 2 }] },
      },
    });
    expect(res.json()).toMatchObject({ inserted: 2 });
  });

  it('computes billable tokens by source convention', async () => {
    const counts = {
      input_tokens: 100,
      cached_input_tokens: 30,
      output_tokens: 50,
      reasoning_output_tokens: 20,
      total_tokens: 999,
    };
    await ingest(t, device.token, [
      { hour_start: H1, source: 'codex', model: 'a', ...counts },
      { hour_start: H1, source: 'every-code', model: 'a', ...counts },
      { hour_start: H1, source: 'claude', model: 'a', ...counts },
      { hour_start: H1, source: 'opencode', model: 'a', ...counts },
      { hour_start: H1, source: 'gemini', model: 'a', ...counts },
    ]);
    const bySource = Object.fromEntries(
      (await listDeviceBuckets(t.db.kysely, device.deviceId)).map((r) => [r.source, r.billable]),
    );
    expect(bySource).toEqual({ codex: 150n, 'every-code': 150n, claude: 200n, opencode: 200n, gemini: 999n });
  });

  it('keeps sums exact beyond 2^53', async () => {
    await t.close();
    t = await createTestApp({ env: TRILLION_DAY_BOUND, sqliteFile: true }); // the default day bound refuses these on purpose
    user = await signUp(t);
    const hourly = trillionBuckets();
    for (let d = 0; d < 10; d += 1) {
      const other = await issueDevice(t, user, `box${d}`);
      const res = await ingest(t, other.token, hourly);
      expect(res.statusCode, res.body).toBe(200);
    }
    const totals = await sumUserUsage(t.db.kysely, user.id);
    expect(totals.total).toBe(5_000_000_000_000_000n);
    expect(totals.billable).toBe(20_000_000_000_000_000n);
    expect(totals.billable > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('stores nothing when one bucket of a batch is bad', async () => {
    const res = await ingest(t, device.token, [
      { hour_start: H1, total_tokens: 5 },
      { hour_start: '2026-11-01T10:15:00Z', total_tokens: 5 },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toEqual([
      { path: '/body/hourly/1/hour_start', message: expect.stringContaining('half-hour') },
    ]);
    expect(await listDeviceBuckets(t.db.kysely, device.deviceId)).toHaveLength(0);
    expect(await countIngestEvents(t.db.kysely, device.deviceId)).toBe(0);
  });

  it.each([
    ['a string count', { hour_start: H1, total_tokens: '5' }],
    ['a negative count', { hour_start: H1, total_tokens: -1 }],
    ['a fractional count', { hour_start: H1, total_tokens: 1.5 }],
    ['a count over 10^12', { hour_start: H1, total_tokens: 1_000_000_000_001 }],
    ['a missing total', { hour_start: H1 }],
    ['no zone designator', { hour_start: '2026-11-01T10:00:00', total_tokens: 1 }],
    ['an impossible date', { hour_start: '2026-02-30T10:00:00Z', total_tokens: 1 }],
    ['seconds', { hour_start: '2026-11-01T10:00:01Z', total_tokens: 1 }],
    ['a fraction', { hour_start: '2026-11-01T10:00:00.5Z', total_tokens: 1 }],
    ['a time before 2020', { hour_start: '2019-12-31T23:30:00Z', total_tokens: 1 }],
    ['a time more than a day ahead', { hour_start: '2026-11-02T12:30:00Z', total_tokens: 1 }],
    ['an over-long source', { hour_start: H1, total_tokens: 1, source: 'x'.repeat(65) }],
    ['an over-long model', { hour_start: H1, total_tokens: 1, model: 'x'.repeat(129) }],
    ['an over-long project_key', { hour_start: H1, total_tokens: 1, project_key: 'x'.repeat(201) }],
  ])('rejects %s with 400 and stores nothing', async (_name, bucket) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: bearer(device.token),
      payload: { hourly: [bucket] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await listDeviceBuckets(t.db.kysely, device.deviceId)).toHaveLength(0);
  });

  it('accepts a bucket exactly one day ahead and ignores unknown bucket fields', async () => {
    const res = await ingest(t, device.token, [
      { hour_start: '2026-11-02T12:00:00Z', total_tokens: 1, future_field: 'x' } as never,
    ]);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('rejects unknown top-level fields and unknown fields inside data', async () => {
    for (const payload of [{ hourly: [], extra: 1 }, { data: { hourly: [], other: [] } }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/functions/svc-ingest',
        headers: bearer(device.token),
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
  });

  it('answers 413 over 500 buckets and stores nothing', async () => {
    const hourly = Array.from({ length: 501 }, (_, i) => ({
      hour_start: new Date(Date.UTC(2026, 9, 1) + i * 1_800_000).toISOString(),
      total_tokens: 1,
    }));
    const res = await ingest(t, device.token, hourly);
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
    expect(await listDeviceBuckets(t.db.kysely, device.deviceId)).toHaveLength(0);
  });

  it('answers 415 for a body that is not JSON and 400 for malformed JSON or a missing body', async () => {
    const text = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: { ...bearer(device.token), 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: { ...bearer(device.token), 'content-type': 'application/json' },
      payload: '{"hourly": [',
    });
    expect(broken.statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'POST', url: '/functions/svc-ingest', headers: bearer(device.token) });
    expect(empty.statusCode).toBe(400);
  });

  it('replaces the set of project variants of a bucket (attribution on, then off)', async () => {
    const base = { hour_start: H1, source: 'codex', model: 'gpt-5' };
    const withProjects = await ingest(t, device.token, [
      {
        ...base,
        project_key: 'acme/api',
        project_ref: 'https://github.com/acme/api',
        input_tokens: 60,
        output_tokens: 10,
        total_tokens: 70,
      },
      {
        ...base,
        project_key: 'acme/web',
        project_ref: 'https://github.com/acme/web',
        input_tokens: 20,
        output_tokens: 10,
        total_tokens: 30,
      },
    ]);
    expect(withProjects.json()).toMatchObject({ inserted: 2, project_inserted: 2, project_skipped: 0 });
    expect((await listProjectUsage(t.db.kysely, user.id)).map((p) => [p.project_key, p.total])).toEqual([
      ['acme/api', 70n],
      ['acme/web', 30n],
    ]);

    const withoutProjects = await ingest(t, device.token, [
      { ...base, input_tokens: 80, output_tokens: 20, total_tokens: 100 },
    ]);
    expect(withoutProjects.json()).toMatchObject({ inserted: 1, project_inserted: 0 });
    expect(await sumUserUsage(t.db.kysely, user.id)).toMatchObject({ total: 100n });
    expect((await listProjectUsage(t.db.kysely, user.id)).map((p) => p.total)).toEqual([0n, 0n]);
    expect(await listDeviceBuckets(t.db.kysely, device.deviceId)).toHaveLength(1);

    const again = await ingest(t, device.token, [
      { ...base, project_key: 'acme/api', input_tokens: 60, output_tokens: 10, total_tokens: 70 },
      { ...base, project_key: 'acme/web', input_tokens: 20, output_tokens: 10, total_tokens: 30 },
    ]);
    expect(again.json()).toMatchObject({ inserted: 2, project_inserted: 2 });
    expect(await sumUserUsage(t.db.kysely, user.id)).toMatchObject({ total: 100n });
    expect(await sumUserUsage(t.db.kysely, user.id)).toEqual(await sumUserBuckets(t.db.kysely, user.id));
  });

  it('replaces device subscriptions and records an upload event', async () => {
    const subs = [
      { tool: 'codex', provider: 'openai', product: 'chatgpt', planType: 'pro', rateLimitTier: 't1', extra: 1 },
    ];
    await ingest(t, device.token, [], { device_subscriptions: subs });
    await ingest(t, device.token, [], {
      device_subscriptions: [{ tool: 'claude', provider: 'anthropic', product: 'max', plan_type: 'max20' }],
    });
    const rows = await t.db.kysely
      .selectFrom('device_subscriptions')
      .selectAll()
      .where('device_id', '=', device.deviceId)
      .execute();
    expect(rows.map((r) => [r.tool, r.plan_type])).toEqual([['claude', 'max20']]);
    expect(await countIngestEvents(t.db.kysely, device.deviceId)).toBe(2);
    const tooMany = await ingest(t, device.token, [], {
      device_subscriptions: Array.from({ length: 17 }, () => ({ tool: 'x' })),
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('keeps read models exact when devices of one user upload the same hours at once', async () => {
    const devices = [device, await issueDevice(t, user, 'second'), await issueDevice(t, user, 'third')];
    const uploads = devices.flatMap((d, i) =>
      Array.from({ length: 8 }, (_, round) =>
        ingest(
          t,
          d.token,
          Array.from({ length: 12 }, (_, k) => ({
            hour_start: new Date(Date.UTC(2026, 9, 31, 20) + k * 1_800_000).toISOString(),
            source: k % 2 ? 'claude' : 'codex',
            model: k % 3 ? 'claude-sonnet-4' : 'gpt-5',
            input_tokens: 100 * (round + 1) + i,
            output_tokens: 10 * (round + 1),
            total_tokens: 110 * (round + 1) + i,
          })),
        ),
      ),
    );
    const answers = await Promise.all(uploads);
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    expect(await sumUserUsage(t.db.kysely, user.id)).toEqual(await sumUserBuckets(t.db.kysely, user.id));
  });

  it('counts an upload as a sync', async () => {
    await ingest(t, device.token, [{ hour_start: H1, total_tokens: 1 }]);
    const ping = await t.app.inject({ method: 'POST', url: '/functions/svc-sync-ping', headers: bearer(device.token) });
    expect(ping.json()).toEqual({
      success: true,
      updated: false,
      last_sync_at: new Date(t.clock.now()).toISOString(),
      min_interval_minutes: 30,
    });
  });
});

describe(`ingest backpressure (${engine})`, () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  it('answers 429 with Retry-After past the per-device burst, and stores nothing of that request', async () => {
    t = await createTestApp({ env: { INGEST_RATE_PER_MINUTE: '60', INGEST_BURST: '3' } });
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    const other = await issueDevice(t, user, 'other');
    for (let i = 0; i < 3; i += 1)
      expect((await ingest(t, device.token, [{ hour_start: H1, total_tokens: i }])).statusCode).toBe(200);
    const refused = await ingest(t, device.token, [{ hour_start: H1, total_tokens: 99 }]);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect((await listDeviceBuckets(t.db.kysely, device.deviceId))[0]?.total).toBe(2n);
    expect((await ingest(t, other.token, [{ hour_start: H1, total_tokens: 1 }])).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await ingest(t, device.token, [{ hour_start: H1, total_tokens: 5 }])).statusCode).toBe(200);
  });

  it('answers 429 when the process-wide in-flight cap is reached by uploads being stored, not by bodies still arriving', async () => {
    t = await createTestApp({ env: { INGEST_MAX_INFLIGHT: '1' } });
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    const other = await issueDevice(t, user, 'other');
    // A body still arriving holds no slot.
    const slowBody = new PassThrough();
    const slow = t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: { ...bearer(device.token), 'content-type': 'application/json' },
      payload: slowBody,
    });
    slowBody.write('{"hourly": [');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await ingest(t, other.token, [{ hour_start: H1, total_tokens: 1 }])).statusCode).toBe(200);
    slowBody.end(`{"hour_start": "${H1}", "total_tokens": 7}]}`);
    expect((await slow).statusCode).toBe(200);

    // An upload waiting for the database holds the only slot: the next one is refused.
    const release = await holdIngestWriter(t, user.id);
    const held = ingest(t, device.token, [{ hour_start: H2, total_tokens: 2 }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await ingest(t, other.token, [{ hour_start: H2, total_tokens: 1 }]);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    await release();
    expect((await held).statusCode).toBe(200);
    expect((await ingest(t, other.token, [{ hour_start: H2, total_tokens: 1 }])).statusCode).toBe(200);
  });
});
