/**
 * /metrics: Prometheus text, readable with the service role key or METRICS_TOKEN and nobody else;
 * counts requests by operation and status, uploads and buckets by outcome, 429s, and shows the
 * process's event-loop lag.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, T0, TEST_SECRETS, type TestApp } from '../helpers/app.js';

const METRICS_TOKEN = 'metrics-reader-token-0123456789';

/** The value of one sample line, e.g. `tokentally_ingest_uploads_total{outcome="accepted"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe(`/metrics (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('is never public: the service role key or METRICS_TOKEN reads it, any other bearer is refused', async () => {
    t = await createTestApp({ env: { METRICS_TOKEN } });
    const user = await signUp(t);
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/metrics', headers: bearer(user.accessToken) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/metrics', headers: bearer(TEST_SECRETS.ANON_KEY) })).statusCode).toBe(403);
    for (const token of [TEST_SECRETS.SERVICE_ROLE_KEY, METRICS_TOKEN]) {
      const res = await t.app.inject({ url: '/metrics', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    }
    const spec = (await t.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>();
    expect(spec.paths['/metrics']).toBeUndefined();
  });

  it('counts requests, uploads, buckets and 429s, and shows event-loop lag', async () => {
    t = await createTestApp({ env: { INGEST_BURST: '2', INGEST_RATE_PER_MINUTE: '1' } });
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    const hour = new Date(T0 - 86_400_000).toISOString();
    const upload = (total: number) =>
      t.app.inject({
        method: 'POST',
        url: '/functions/svc-ingest',
        headers: bearer(device.token),
        payload: { hourly: [{ hour_start: hour, source: 'codex', model: 'gpt-5', total_tokens: total }] },
      });
    expect((await upload(10)).statusCode).toBe(200); // stored
    expect((await upload(10)).statusCode).toBe(200); // unchanged: skipped
    expect((await upload(11)).statusCode).toBe(429); // burst of two used up
    await t.app.inject({ url: '/nowhere/at/all' });

    const text = (await t.app.inject({ url: '/metrics', headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY) })).body;
    expect(sample(text, 'tokentally_http_request_duration_seconds_count{operation="ingestUsage",status="200"}')).toBe(
      2,
    );
    expect(sample(text, 'tokentally_http_request_duration_seconds_count{operation="ingestUsage",status="429"}')).toBe(
      1,
    );
    expect(sample(text, 'tokentally_http_request_duration_seconds_count{operation="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'tokentally_http_rate_limited_total{operation="ingestUsage"}')).toBe(1);
    expect(sample(text, 'tokentally_ingest_uploads_total{outcome="accepted"}')).toBe(2);
    expect(sample(text, 'tokentally_ingest_uploads_total{outcome="refused"}')).toBe(1);
    expect(sample(text, 'tokentally_ingest_buckets_total{outcome="accepted"}')).toBe(1);
    expect(sample(text, 'tokentally_ingest_buckets_total{outcome="skipped"}')).toBe(1);
    expect(sample(text, 'tokentally_db_busy_retries_total')).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    // Raw paths never become labels (they could carry tokens or grow without bound).
    expect(text).not.toContain('/nowhere');
  });
});
